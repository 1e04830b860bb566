/// Marks over words of the page's own text, made from a text selection: a highlight over the words' boxes, a line
/// under them or through them, or a wavy line under them. One rectangle per line of the selection, in display space.
public struct TextMarks: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case highlight
        case underline
        case strikeOut = "strike-out"
        case squiggly
    }

    public var kind: Kind
    public var rects: [Rect]
    public var color: MarkupColor

    public init(kind: Kind, rects: [Rect], color: MarkupColor) {
        self.kind = kind
        self.rects = rects
        self.color = color
    }

    /// A highlight lets the words show through, as the highlighter does.
    public static let highlightOpacity = InkMarkup.highlighterOpacity

    /// The line under or through a line of words: its middle's height and its thickness, from the words' height.
    public static func line(for rect: Rect, kind: Kind) -> (y: Double, thickness: Double) {
        let thickness = max(0.5, rect.height * 0.08)
        return (kind == .underline ? rect.maxY - thickness / 2 : rect.minY + rect.height * 0.55, thickness)
    }

    public var bounds: Rect {
        guard let first = rects.first else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        return rects.dropFirst().reduce(first) { $0.union($1) }
    }

    public func translated(dx: Double, dy: Double) -> TextMarks {
        var moved = self
        moved.rects = rects.map { $0.offsetBy(dx: dx, dy: dy) }
        return moved
    }

    /// The rectangles of a selection's words: one per line, from the first word's left to the last word's right.
    public static func lineRects(_ boxes: [(line: Int, box: Rect)]) -> [Rect] {
        var order: [Int] = []
        var byLine: [Int: Rect] = [:]
        for (line, box) in boxes {
            if let known = byLine[line] {
                byLine[line] = known.union(box)
            } else {
                order.append(line)
                byLine[line] = box
            }
        }
        return order.compactMap { byLine[$0] }
    }
}
