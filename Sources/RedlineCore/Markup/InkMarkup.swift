/// Freehand or keyboard-drawn strokes, in display space. Drawn with round caps and joins; the
/// highlighter is the same thing wider and translucent.
public struct InkMarkup: Sendable, Hashable {
    public static let penWidths = 0.5...12.0
    public static let highlighterWidths = 4.0...36.0
    public static let highlighterOpacity = 0.35

    public var strokes: [[Point]]
    public var width: Double
    public var color: MarkupColor
    /// 1 for the pen; the highlighter's translucency lets the page show through.
    public var opacity: Double

    public init(strokes: [[Point]], width: Double = 2, color: MarkupColor = .red, opacity: Double = 1) {
        self.strokes = strokes
        self.width = width
        self.color = color
        self.opacity = opacity
    }

    public var isHighlighter: Bool { opacity < 1 }

    /// The widths `+` and `-` step through for this kind of ink.
    public var widthRange: ClosedRange<Double> { isHighlighter ? Self.highlighterWidths : Self.penWidths }

    /// Everything the strokes paint: the points' box grown by half the line width on every side.
    public var bounds: Rect {
        guard let box = Rect(enclosing: strokes.flatMap { $0 }) else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        return box.insetBy(dx: -width / 2, dy: -width / 2)
    }

    public func translated(dx: Double, dy: Double) -> InkMarkup {
        var moved = self
        moved.strokes = strokes.map { $0.map { $0.offsetBy(dx: dx, dy: dy) } }
        return moved
    }

    /// Whether a stroke passes within `radius` of a point (the eraser's test).
    public static func stroke(_ stroke: [Point], passesWithin radius: Double, of point: Point) -> Bool {
        guard let first = stroke.first else { return false }
        if stroke.count == 1 { return first.distance(to: point) <= radius }
        for (a, b) in zip(stroke, stroke.dropFirst()) where distance(from: point, toSegment: a, b) <= radius {
            return true
        }
        return false
    }

    static func distance(from p: Point, toSegment a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        guard lengthSquared > 0 else { return p.distance(to: a) }
        let t = min(1, max(0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared))
        return p.distance(to: Point(x: a.x + t * dx, y: a.y + t * dy))
    }
}
