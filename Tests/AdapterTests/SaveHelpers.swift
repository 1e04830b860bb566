import Foundation
import RedlineKit
import RedlineCore
import TestSupport

/// Saves markup the way the editor and `redline apply` do, through the real adapters.
enum Saving {
    static let services = RedlineServices()

    static func text(_ text: String, page: Int, x: Double, y: Double, size: Double = 14,
                     color: MarkupColor = .red) -> (Int, MarkupContent) {
        (page, .text(TextMarkup(origin: Point(x: x, y: y), text: text, fontSize: size, color: color)))
    }

    @discardableResult
    static func save(_ items: [(Int, MarkupContent)], from source: String, to destination: String,
                     password: String? = nil, markupAs mode: MarkupSaveMode = .flatten, author: String = "Alice") throws -> MarkupLayer {
        var layer = MarkupLayer()
        for (page, content) in items { layer.add(pageIndex: page, content: content) }
        let description = try MarkupApplication.describe(source, password: password)
        try DocumentSaver(services: services).save(layer, source: source, password: password,
                                                    description: description, to: destination, markupAs: mode, author: author)
        return layer
    }

    /// The word poppler finds for a text, on a page counted from 1.
    static func word(_ text: String, in path: String, page: Int, password: String? = nil) throws -> ExtractedWord? {
        try PopplerText.words(in: path, page: page, password: password).first { $0.text == text }
    }
}
