import Foundation

/// Identifies a markup everywhere: a UUID, so markup made by two reviewers, or in two sessions, never
/// shares an id.
public struct MarkupID: Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: UUID

    public init(_ rawValue: UUID) { self.rawValue = rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(UUID.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue.uuidString }
}

public enum MarkupContent: Sendable, Hashable {
    case text(TextMarkup)
    case ink(InkMarkup)
    case textMarks(TextMarks)
    case shape(ShapeMarkup)
}

extension MarkupContent: Codable {
    private enum Kind: String, CodingKey { case text, ink, textMarks, shape }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Kind.self)
        if let text = try container.decodeIfPresent(TextMarkup.self, forKey: .text) {
            self = .text(text)
        } else if let marks = try container.decodeIfPresent(TextMarks.self, forKey: .textMarks) {
            self = .textMarks(marks)
        } else if let shape = try container.decodeIfPresent(ShapeMarkup.self, forKey: .shape) {
            self = .shape(shape)
        } else {
            self = .ink(try container.decode(InkMarkup.self, forKey: .ink))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Kind.self)
        switch self {
        case .text(let text): try container.encode(text, forKey: .text)
        case .ink(let ink): try container.encode(ink, forKey: .ink)
        case .textMarks(let marks): try container.encode(marks, forKey: .textMarks)
        case .shape(let shape): try container.encode(shape, forKey: .shape)
        }
    }
}

/// One markup on one page. `pageIndex` counts from 0.
public struct MarkupItem: Sendable, Hashable, Identifiable, Codable {
    public let id: MarkupID
    public var pageIndex: Int
    public var content: MarkupContent
    /// What the reviewer wrote about an ink, a mark over words or a shape: its annotation's /Contents, which
    /// other readers show in its popup. A text markup's words are its own contents, and it has none.
    public var comment: String?

    public init(id: MarkupID, pageIndex: Int, content: MarkupContent, comment: String? = nil) {
        self.id = id
        self.pageIndex = pageIndex
        self.content = content
        self.comment = comment
    }

    /// Whether a comment can be written on it: not on a text markup, whose words are its contents.
    public var takesComment: Bool {
        if case .text = content { false } else { true }
    }

    public func bounds(measuredBy measurer: some TextMeasuring) -> Rect {
        switch content {
        case .text(let text): text.bounds(measuredBy: measurer)
        case .ink(let ink): ink.bounds
        case .textMarks(let marks): marks.bounds
        case .shape(let shape): shape.bounds
        }
    }

    /// The same markup (same id, same page, same comment) with other content.
    public func with(_ content: MarkupContent) -> MarkupItem {
        MarkupItem(id: id, pageIndex: pageIndex, content: content, comment: comment)
    }

    public func translated(dx: Double, dy: Double) -> MarkupItem {
        var moved = self
        switch content {
        case .text(let text):
            moved.content = .text(text.translated(dx: dx, dy: dy))
        case .ink(let ink):
            moved.content = .ink(ink.translated(dx: dx, dy: dy))
        case .textMarks(let marks):
            moved.content = .textMarks(marks.translated(dx: dx, dy: dy))
        case .shape(let shape):
            moved.content = .shape(shape.translated(dx: dx, dy: dy))
        }
        return moved
    }

    /// Moved as little as needed to lie wholly on a page of `pageSize` (top-left wins when it cannot fit).
    /// Whether the markup can lie wholly on a page of this size: text wider than the page cannot, wherever it is put.
    public func fits(pageSize: Size, measuredBy measurer: some TextMeasuring) -> Bool {
        let box = bounds(measuredBy: measurer)
        return box.width <= pageSize.width + 0.01 && box.height <= pageSize.height + 0.01
    }

    /// The item moved the least that puts it on the page with the box its annotation gets (its bounds and
    /// `MarkupAnnotations.margin` around them): text typed on the top row was saved as a FreeText reaching 0.92 pt
    /// above the page.
    public func keptInside(pageSize: Size, measuredBy measurer: some TextMeasuring) -> MarkupItem {
        // A callout's words are moved onto the page; the spot it points at stays where it was put.
        let callout: TextMarkup? = if case .text(let text) = content, text.pointsAt != nil { text } else { nil }
        let box = (callout?.textBox(measuredBy: measurer) ?? bounds(measuredBy: measurer))
            .insetBy(dx: -MarkupAnnotations.margin, dy: -MarkupAnnotations.margin)
        let dx = min(max(box.minX, 0), max(0, pageSize.width - box.width)) - box.minX
        let dy = min(max(box.minY, 0), max(0, pageSize.height - box.height)) - box.minY
        guard dx != 0 || dy != 0 else { return self }
        guard var words = callout else { return translated(dx: dx, dy: dy) }
        words.origin = words.origin.offsetBy(dx: dx, dy: dy)
        return with(.text(words))
    }
}
