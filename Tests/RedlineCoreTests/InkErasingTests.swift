import Foundation
import RedlineCore
import Testing

/// The partial eraser's geometry: what is left is exactly what lies farther than the radius from the eraser's way.
@Suite struct InkErasingTests {
    static let line = (0...10).map { Point(x: Double($0) * 10, y: 0) }

    @Test func aCrossingEraserLeavesTwoPiecesEndingAtItsEdge() throws {
        let pieces = try #require(InkMarkup.erasing(Self.line, within: 2, ofSegment: Point(x: 50, y: -20), Point(x: 50, y: 20)))
        #expect(pieces.count == 2)
        #expect(pieces[0].first == Point(x: 0, y: 0) && pieces[1].last == Point(x: 100, y: 0))
        #expect(abs(pieces[0].last!.x - 48) < 1e-5 && abs(pieces[1].first!.x - 52) < 1e-5)
    }

    @Test func missedTakenWholeAndDots() {
        #expect(InkMarkup.erasing(Self.line, within: 2, ofSegment: Point(x: 50, y: 10), Point(x: 60, y: 10)) == nil)
        #expect(InkMarkup.erasing(Self.line, within: 5, ofSegment: Point(x: -10, y: 0), Point(x: 110, y: 0)) == [])
        #expect(InkMarkup.erasing([Point(x: 1, y: 1)], within: 2, ofSegment: Point(x: 0, y: 0), Point(x: 0, y: 0)) == [])
        #expect(InkMarkup.erasing([Point(x: 9, y: 9)], within: 2, ofSegment: Point(x: 0, y: 0), Point(x: 0, y: 0)) == nil)
        #expect(InkMarkup.erasing([], within: 2, ofSegment: Point(x: 0, y: 0), Point(x: 0, y: 0)) == nil)
        // The start taken: one piece, from the eraser's edge on.
        let start = InkMarkup.erasing(Self.line, within: 3, ofSegment: Point(x: 0, y: 0), Point(x: 0, y: 0))
        #expect(start?.count == 1 && abs((start?[0].first?.x ?? 0) - 3) < 1e-5)
    }

    /// Random strokes and eraser ways: no point left is within the radius, and every point of the stroke beyond
    /// it is still drawn by some piece.
    @Test func whatIsLeftIsExactlyWhatLiesBeyondTheRadius() {
        var generator = SystemRandomNumberGenerator()
        func random(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &generator) }
        func distance(_ p: Point, _ a: Point, _ b: Point) -> Double {
            let dx = b.x - a.x, dy = b.y - a.y, lengthSquared = dx * dx + dy * dy
            let t = lengthSquared == 0 ? 0 : min(1, max(0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared))
            return p.distance(to: Point(x: a.x + t * dx, y: a.y + t * dy))
        }
        func samples(_ stroke: [Point]) -> [Point] {
            zip(stroke, stroke.dropFirst()).flatMap { a, b in
                (0...20).map { Point(x: a.x + (b.x - a.x) * Double($0) / 20, y: a.y + (b.y - a.y) * Double($0) / 20) }
            }
        }
        for _ in 0..<300 {
            let stroke = (0..<Int.random(in: 2...30)).map { _ in Point(x: random(0...100), y: random(0...100)) }
            let start = Point(x: random(0...100), y: random(0...100)), end = Point(x: random(0...100), y: random(0...100))
            let radius = random(0.5...15)
            guard let pieces = InkMarkup.erasing(stroke, within: radius, ofSegment: start, end) else {
                #expect(samples(stroke).allSatisfy { distance($0, start, end) > radius - 1e-6 })
                continue
            }
            for point in pieces.flatMap(samples) { #expect(distance(point, start, end) >= radius - 1e-4) }
            // A piece shorter than a hundredth of a point is dropped: it lies within that of the eraser's edge.
            for point in samples(stroke) where distance(point, start, end) > radius + 0.02 {
                let drawn = pieces.contains { piece in
                    piece.count == 1 ? piece[0].distance(to: point) < 1e-3
                        : zip(piece, piece.dropFirst()).contains { distance(point, $0, $1) < 1e-3 }
                }
                #expect(drawn, "\(point) was left out")
            }
        }
    }

    @Test func aHundredThousandPointStrokeIsErasedInOnePass() throws {
        let stroke = (0..<100_000).map { Point(x: Double($0) / 100, y: Double($0 % 2) / 100) }
        let pieces = try #require(InkMarkup.erasing(stroke, within: 1, ofSegment: Point(x: 500, y: -5), Point(x: 500, y: 5)))
        #expect(pieces.count == 2)
        #expect(pieces.map(\.count).reduce(0, +) > 99_000)
    }
}
