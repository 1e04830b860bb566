/// Identifies a markup within one editing session or one markup file.
public struct MarkupID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let rawValue: Int

    public init(_ rawValue: Int) { self.rawValue = rawValue }

    public static func < (lhs: MarkupID, rhs: MarkupID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "#\(rawValue)" }
}

public enum MarkupContent: Sendable, Hashable {
    case text(TextMarkup)
    case ink(InkMarkup)
}

/// One markup on one page. `pageIndex` counts from 0.
public struct MarkupItem: Sendable, Hashable, Identifiable {
    public let id: MarkupID
    public var pageIndex: Int
    public var content: MarkupContent

    public init(id: MarkupID, pageIndex: Int, content: MarkupContent) {
        self.id = id
        self.pageIndex = pageIndex
        self.content = content
    }

    public func bounds(measuredBy measurer: some TextMeasuring) -> Rect {
        switch content {
        case .text(let text): text.bounds(measuredBy: measurer)
        case .ink(let ink): ink.bounds
        }
    }

    /// The same markup (same id, same page) with other content.
    public func with(_ content: MarkupContent) -> MarkupItem {
        MarkupItem(id: id, pageIndex: pageIndex, content: content)
    }

    public func translated(dx: Double, dy: Double) -> MarkupItem {
        var moved = self
        switch content {
        case .text(var text):
            text.origin = text.origin.offsetBy(dx: dx, dy: dy)
            moved.content = .text(text)
        case .ink(let ink):
            moved.content = .ink(ink.translated(dx: dx, dy: dy))
        }
        return moved
    }

    /// Moved as little as needed to lie wholly on a page of `pageSize` (top-left wins when it cannot fit).
    public func keptInside(pageSize: Size, measuredBy measurer: some TextMeasuring) -> MarkupItem {
        let box = bounds(measuredBy: measurer)
        let dx = min(max(box.minX, 0), max(0, pageSize.width - box.width)) - box.minX
        let dy = min(max(box.minY, 0), max(0, pageSize.height - box.height)) - box.minY
        return dx == 0 && dy == 0 ? self : translated(dx: dx, dy: dy)
    }
}
