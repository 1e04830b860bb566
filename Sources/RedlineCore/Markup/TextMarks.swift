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

    /// The rectangles of a selection's words: one per line, from the first word's left to the last word's right,
    /// as high as the line's words typically are. A box that stands out is not the line's: TeX sets ≠ as a glyph of
    /// no width whose box reaches into the next line, and ∩ or ∅ with boxes far below the baseline; a mark made
    /// to their union floated a line down. So the line's top and bottom are its words' medians, among the words
    /// that have a width.
    public static func lineRects(_ boxes: [(line: Int, box: Rect)]) -> [Rect] {
        var order: [Int] = []
        var byLine: [Int: [Rect]] = [:]
        for (line, box) in boxes {
            if byLine[line] == nil { order.append(line) }
            byLine[line, default: []].append(box)
        }
        return order.compactMap { line in
            guard let words = byLine[line], let first = words.first else { return nil }
            let wide = words.filter { $0.width > 0.01 }
            let measured = wide.isEmpty ? words : wide
            func median(_ values: [Double]) -> Double {
                let sorted = values.sorted()
                return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            }
            let top = median(measured.map(\.minY)), bottom = median(measured.map(\.maxY))
            let left = words.dropFirst().reduce(first.minX) { min($0, $1.minX) }
            let right = words.dropFirst().reduce(first.maxX) { max($0, $1.maxX) }
            return Rect(x: left, y: top, width: right - left, height: max(0, bottom - top))
        }
    }
}
