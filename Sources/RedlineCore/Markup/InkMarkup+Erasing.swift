/// Xournal++'s standard eraser: only the part of a stroke the eraser passes over goes, and what is left on either
/// side stays, as strokes of their own.
extension InkMarkup {
    /// A stroke with everything within `radius` of the segment from `start` to `end` taken out: the pieces left
    /// (none when all of it went), or nil when the eraser missed it. Pieces shorter than a hundredth of a point are
    /// dropped: they would draw as dots where the user erased.
    public static func erasing(_ stroke: [Point], within radius: Double, ofSegment start: Point, _ end: Point) -> [[Point]]? {
        guard let first = stroke.first else { return nil }
        guard stroke.count > 1 else { return distance(from: first, toSegment: start, end) <= radius ? [] : nil }
        var pieces: [[Point]] = []
        var piece: [Point] = []
        var touched = false
        for (a, b) in zip(stroke, stroke.dropFirst()) {
            if piece.isEmpty { piece = [a] }
            guard distance(betweenSegment: a, b, andSegment: start, end) <= radius,
                  let (from, to) = erasedInterval(a, b, radius: radius, start, end) else {
                piece.append(b)
                continue
            }
            touched = true
            if from > 0 { piece.append(point(a, b, from)) }
            pieces.append(piece)
            piece = to < 1 ? [point(a, b, to), b] : []
        }
        guard touched else { return nil }
        pieces.append(piece)
        return pieces.filter { length(of: $0) >= 0.01 }
    }

    /// The part of the segment from `a` to `b` (as parameters from 0 to 1) within `radius` of the eraser's segment.
    /// The distance from a point moving along a line to a segment is convex, so that part is one interval: its
    /// nearest point is found by ternary search and its ends by bisection, each to a millionth of the segment.
    static func erasedInterval(_ a: Point, _ b: Point, radius: Double, _ start: Point, _ end: Point) -> (Double, Double)? {
        func distanceAt(_ t: Double) -> Double { distance(from: point(a, b, t), toSegment: start, end) }
        var low = 0.0, high = 1.0
        for _ in 0..<60 where high - low > 1e-7 {
            let third = (high - low) / 3
            if distanceAt(low + third) <= distanceAt(high - third) { high -= third } else { low += third }
        }
        let nearest = (low + high) / 2
        guard distanceAt(nearest) <= radius else { return nil }
        func edge(inside: Double, outside: Double) -> Double {
            guard distanceAt(outside) > radius else { return outside }
            var (inside, outside) = (inside, outside)
            for _ in 0..<40 where abs(outside - inside) > 1e-7 {
                let middle = (inside + outside) / 2
                if distanceAt(middle) <= radius { inside = middle } else { outside = middle }
            }
            return outside
        }
        return (edge(inside: nearest, outside: 0), edge(inside: nearest, outside: 1))
    }

    private static func point(_ a: Point, _ b: Point, _ t: Double) -> Point {
        Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }

    private static func length(of piece: [Point]) -> Double {
        zip(piece, piece.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
    }
}
