import TestSupport
import Foundation
import RedlineCore
import Testing

@Suite struct InkMarkupFileTests {
    @Test func readsTheDocumentedInkItem() throws {
        let json = #"{"version": 1, "items": [{"page": 2, "kind": "ink", "strokes": [[[10, 20], [30, 40]], [[5, 5]]], "width": 2, "color": "blue", "opacity": 1.0}]}"#
        let item = try #require(try MarkupFile.decode(Data(json.utf8)).items.first)
        #expect(item.pageIndex == 1)
        #expect(item.content == .ink(InkMarkup(strokes: [[Point(x: 10, y: 20), Point(x: 30, y: 40)], [Point(x: 5, y: 5)]],
                                               width: 2, color: .blue, opacity: 1)))
    }

    @Test(arguments: [
        (#"{"version": 1, "items": [{"page": 1, "kind": "ink", "width": 2}]}"#, #"item 1: field "strokes": is missing"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "ink", "strokes": []}]}"#, #"item 1: field "strokes": must be a non-empty array of strokes"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "ink", "strokes": [[[1, 2], [3]]]}]}"#,
         #"item 1: field "strokes": stroke 1, point 2 must be [x, y] numbers"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "ink", "strokes": [[]]}]}"#,
         #"item 1: field "strokes": stroke 1 must be a non-empty array of [x, y] points"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "ink", "strokes": [[[1, 2]]], "opacity": 1.5}]}"#,
         #"item 1: field "opacity": must be at least 0.01 and at most 1, got 1.5"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "ink", "strokes": [[[1, 2]]], "width": 0}]}"#,
         #"item 1: field "width": must be at least 0.01 and at most 200 points, got 0"#),
    ])
    func refusesBadInk(json: String, message: String) {
        #expect(throws: MarkupFileError(message)) { try MarkupFile.decode(Data(json.utf8)) }
    }

    @Test func inkPointsOffThePageAreRefused() {
        var layer = MarkupLayer()
        layer.add(pageIndex: 0, content: .ink(InkMarkup(strokes: [[Point(x: 10, y: 10), Point(x: 120, y: 10)]])))
        #expect(throws: MarkupFileError(#"item 1: field "strokes": point [120, 10] is off the page (100 × 100)"#)) {
            try MarkupFile.validate(layer, pageSizes: [Size(width: 100, height: 100)], measuredBy: FixedMeasurer())
        }
        // A point a double barely holds is shown with its exponent, not as 301 digits.
        var far = MarkupLayer()
        far.add(pageIndex: 0, content: .ink(InkMarkup(strokes: [[Point(x: 1e300, y: 10), Point(x: 5, y: 10)]])))
        #expect(throws: MarkupFileError(#"item 1: field "strokes": point [1e+300, 10] is off the page (100 × 100)"#)) {
            try MarkupFile.validate(far, pageSizes: [Size(width: 100, height: 100)], measuredBy: FixedMeasurer())
        }
    }

    @Test func inkRoundTripsThroughTheFile() throws {
        var layer = MarkupLayer()
        layer.add(pageIndex: 3, content: .ink(InkMarkup(strokes: [[Point(x: 1.5, y: 2), Point(x: 3, y: 4)]], width: 14,
                                                        color: .purple, opacity: 0.35)))
        layer.add(pageIndex: 0, content: .text(TextMarkup(origin: Point(x: 1, y: 1), text: "t")))
        let decoded = try MarkupFile.decode(MarkupFile.encode(layer))
        #expect(decoded.items.map(\.content) == layer.items.map(\.content))
        let json = String(decoding: MarkupFile.encode(layer), as: UTF8.self)
        #expect(!json.contains("\"x\" : null"), "fields of other kinds are left out")
    }

    @Test func boundsGrowByHalfTheWidthAndTheEraserTestFindsNearStrokes() {
        let ink = InkMarkup(strokes: [[Point(x: 10, y: 10), Point(x: 50, y: 10)]], width: 4)
        #expect(ink.bounds == Rect(x: 8, y: 8, width: 44, height: 4))
        #expect(InkMarkup.stroke(ink.strokes[0], passesWithin: 2, of: Point(x: 30, y: 12)))
        #expect(!InkMarkup.stroke(ink.strokes[0], passesWithin: 2, of: Point(x: 30, y: 13)))
        #expect(InkMarkup.stroke(ink.strokes[0], passesWithin: 1, of: Point(x: 51, y: 10)))
    }
}
