import RedlineCore
import Testing

/// A line's mark stands where the line's words do, whatever odd boxes a few of its glyphs have.
@Suite struct TextMarksTests {
    /// The GeoTopo manual's page 12, "… heißt hausdorffsch, wenn es für je zwei Punkte x ≠ y in X": TeX's ≠ is a
    /// glyph of no width whose box reaches 8 pt into the next line; ∅ on the next line reaches 12 pt below it.
    @Test func aGlyphOfNoWidthOrATallSymbolDoesNotMoveTheMark() {
        let words: [(line: Int, box: Rect)] = [
            (0, Rect(x: 110, y: 306, width: 24, height: 10)), (0, Rect(x: 137, y: 306, width: 60, height: 10)),
            (0, Rect(x: 493.8, y: 304.5, width: 0, height: 19)), (0, Rect(x: 497, y: 306, width: 6, height: 10)),
            (1, Rect(x: 110, y: 322, width: 40, height: 10)), (1, Rect(x: 153, y: 320.1, width: 8, height: 17)),
            (1, Rect(x: 164, y: 322, width: 30, height: 10)),
        ]
        let rects = TextMarks.lineRects(words)
        #expect(rects == [Rect(x: 110, y: 306, width: 393, height: 10), Rect(x: 110, y: 322, width: 84, height: 10)])
    }

    @Test func ordinaryLinesAreTheirWordsBoxes() {
        let words: [(line: Int, box: Rect)] = [(3, Rect(x: 72, y: 100, width: 30, height: 12)), (3, Rect(x: 106, y: 100, width: 20, height: 12)),
                                               (4, Rect(x: 72, y: 116, width: 10, height: 12))]
        #expect(TextMarks.lineRects(words) == [Rect(x: 72, y: 100, width: 54, height: 12), Rect(x: 72, y: 116, width: 10, height: 12)])
        #expect(TextMarks.lineRects([(0, Rect(x: 5, y: 5, width: 0, height: 7))]) == [Rect(x: 5, y: 5, width: 0, height: 7)])
    }
}
