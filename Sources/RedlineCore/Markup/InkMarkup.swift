/// Freehand or keyboard-drawn strokes, in display space. Drawn with round caps and joins; the
/// highlighter is the same thing wider and translucent.
public struct InkMarkup: Sendable, Hashable, Codable {
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
        self.stroke(stroke, passesWithin: radius, ofSegment: point, point)
    }

    /// Whether a stroke passes within `radius` of the segment from `start` to `end`: the eraser's whole way
    /// in one step, however long, measured exactly rather than sampled.
    public static func stroke(_ stroke: [Point], passesWithin radius: Double, ofSegment start: Point, _ end: Point) -> Bool {
        guard let first = stroke.first else { return false }
        if stroke.count == 1 { return distance(from: first, toSegment: start, end) <= radius }
        for (a, b) in zip(stroke, stroke.dropFirst()) where distance(betweenSegment: a, b, andSegment: start, end) <= radius {
            return true
        }
        return false
    }

    /// The shortest distance between two segments: zero when they cross, else the least of the four
    /// endpoint-to-segment distances.
    static func distance(betweenSegment a: Point, _ b: Point, andSegment c: Point, _ d: Point) -> Double {
        if segmentsCross(a, b, c, d) { return 0 }
        return min(distance(from: a, toSegment: c, d), distance(from: b, toSegment: c, d),
                   distance(from: c, toSegment: a, b), distance(from: d, toSegment: a, b))
    }

    private static func segmentsCross(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Bool {
        func side(_ p: Point, _ q: Point, _ r: Point) -> Double { (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x) }
        let d1 = side(c, d, a), d2 = side(c, d, b), d3 = side(a, b, c), d4 = side(a, b, d)
        return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))
    }

    static func distance(from p: Point, toSegment a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        guard lengthSquared > 0 else { return p.distance(to: a) }
        let t = min(1, max(0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared))
        return p.distance(to: Point(x: a.x + t * dx, y: a.y + t * dy))
    }
}
