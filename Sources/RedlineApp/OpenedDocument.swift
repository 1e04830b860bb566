import Foundation
import PDFAssembly
import PDFRendering
import RedlineCore

/// A PDF opened for work: its structure read by qpdf (geometry, repairs), its pages drawn by poppler.
/// qpdf reads first: it refuses page-tree loops and damaged files with a clear reason before poppler sees them.
public final class OpenedDocument: @unchecked Sendable {
    public let path: String
    public let password: String?
    public let description: DocumentDescription
    public let renderer: PopplerDocument

    public init(path: String, password: String?) throws {
        self.path = path
        self.password = password
        description = try PDFInspector.describe(path: path, password: password)
        renderer = try PopplerDocument(path: path, password: password)
        guard renderer.pageCount == description.pageCount else {
            throw DocumentError.damaged(path: path, reason:
                "the page tree is inconsistent (\(description.pageCount) pages by one reading, \(renderer.pageCount) by another)")
        }
    }
}
