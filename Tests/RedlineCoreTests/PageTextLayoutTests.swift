import RedlineCore
import Testing

/// Laying a page's words out in cells for the text view.
@Suite struct PageTextLayoutTests {
    static func word(_ text: String, x: Double, y: Double, line: Int, block: Int = 0) -> PageWord {
        PageWord(text: text, box: Rect(x: x, y: y, width: Double(text.count) * 6, height: 10), line: line, block: block)
    }

    @Test func theCellIsTheLinesAdvancePerCharacterAndTheLineStep() throws {
        // "aaaa bbbb cccc" over 84 pt: 14 cells, 6 pt each; lines 14 pt apart.
        var words: [PageWord] = []
        for line in 0..<5 {
            words += [Self.word("aaaa", x: 0, y: Double(line) * 14, line: line), Self.word("bbbb", x: 30, y: Double(line) * 14, line: line),
                      Self.word("cccc", x: 60, y: Double(line) * 14, line: line)]
        }
        let size = try #require(TextCellSize(words: words))
        #expect(abs(size.width - 6) < 1e-9 && abs(size.height - 14) < 1e-9)
    }

    @Test func aPageWithoutWordsHasNoTextCells() {
        #expect(TextCellSize(words: []) == nil)
    }

    @Test func wordsLandAtTheirColumnAndAWideWordPushesItsNeighbour() {
        let size = TextCellSize(width: 6, height: 14)
        let words = [Self.word("left", x: 0, y: 0, line: 0), Self.word("WIDE", x: 30, y: 0, line: 0),
                     PageWord(text: "next", box: Rect(x: 42, y: 0, width: 24, height: 10), line: 0, block: 0),
                     Self.word("below", x: 12, y: 15, line: 1)]
        let layout = PageTextLayout(words: words, cellSize: size, cellsOf: { $0 == "WIDE" ? 8 : $0.count })
        let placed = Dictionary(uniqueKeysWithValues: layout.words.map { (words[$0.word].text, $0) })
        #expect(placed["left"]?.column == 0 && placed["left"]?.row == 0)
        #expect(placed["WIDE"]?.column == 5)
        #expect(placed["next"]?.column == 14, "after WIDE's eight cells and a blank, not over them")
        #expect(placed["below"]?.column == 2 && placed["below"]?.row == 1)
    }

    /// A line set in a narrow proportional font is wider in the terminal's cells than the paper: its words move
    /// left into the gaps before them so the row ends on the paper, in order, a blank apart at least. A row that
    /// fits keeps its columns; one that cannot fit at all is packed from the left, past the edge by as little as it can.
    @Test func aRowWiderThanThePaperIsDrawnBackOntoIt() {
        let size = TextCellSize(width: 6, height: 14)
        // A 120-point page: 20 columns. An indented line of five words, each six letters in 24 points (four cells'
        // room on paper, six in the terminal).
        let texts = ["alpha1", "bravo2", "charl3", "delta4", "echo55"]
        var words = texts.enumerated().map { index, text in
            PageWord(text: text, box: Rect(x: 12 + Double(index) * 21, y: 0, width: 18, height: 10), line: 0, block: 0)
        }
        words.append(PageWord(text: "fits", box: Rect(x: 12, y: 30, width: 24, height: 10), line: 1, block: 0))
        let squeezed = PageTextLayout(words: Array(words.prefix(3)) + [words[5]], cellSize: size, pageSize: Size(width: 120, height: 100))
        let row = squeezed.words.filter { $0.row == 0 }
        #expect(row.map(\.column) == [0, 7, 14] && row.last.map { $0.column + $0.cells } == 20, "\(row)")
        #expect(squeezed.words.first { $0.row != 0 }?.column == 2, "a row that fits keeps its place")
        #expect(squeezed.extent.columns == 20)

        let overflowing = PageTextLayout(words: words, cellSize: size, pageSize: Size(width: 120, height: 100))
        let packed = overflowing.words.filter { $0.row == 0 }
        #expect(packed.map(\.column) == [0, 7, 14, 21, 28], "one blank apart from the paper's left edge")
        #expect(packed.map { words[$0.word].text } == texts)
        // The columns still meet the page, left to right.
        var xs: [Double] = []
        for column in 0..<34 { xs.append(overflowing.columns.x(forColumn: Double(column), row: 0)) }
        #expect(zip(xs, xs.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test func wordsOfARowAreInReadingOrderLeftToRight() {
        let size = TextCellSize(width: 6, height: 14)
        let words = [Self.word("second", x: 60, y: 0, line: 0), Self.word("first", x: 0, y: 1, line: 1)]
        let layout = PageTextLayout(words: words, cellSize: size)
        #expect(layout.words.map { words[$0.word].text } == ["first", "second"])
    }

    @Test func aPushedWordsColumnsStillMeetItsPlaceOnThePage() {
        let size = TextCellSize(width: 6, height: 14)
        let words = [Self.word("left", x: 0, y: 0, line: 0), Self.word("WIDE", x: 30, y: 0, line: 0),
                     PageWord(text: "next", box: Rect(x: 60, y: 0, width: 24, height: 10), line: 0, block: 0)]
        let layout = PageTextLayout(words: words, cellSize: size, cellsOf: { $0 == "WIDE" ? 8 : $0.count })
        let next = layout.words.first { words[$0.word].text == "next" }!
        #expect(next.column == 14, "pushed from its own column 10")
        // Its first column is its left edge, the column after it its right edge; between, evenly.
        #expect(layout.columns.x(forColumn: 14, row: 0) == 60 && layout.columns.x(forColumn: 18, row: 0) == 84)
        #expect(layout.columns.column(forX: 72, row: 0) == 16)
        // The blank before it spans the gap on the page from WIDE's end.
        #expect(layout.columns.x(forColumn: 13, row: 0) == 54)
        // A point a fraction of a point off an edge is on it: poppler's search and its layout differ that much.
        #expect(layout.columns.column(forX: 59.9, row: 0) == 14)
        // Rows without words go a cell a column.
        #expect(layout.columns.x(forColumn: 3, row: 5) == 18)
    }

    @Test func linesCloserThanACellKeepRowsOfTheirOwnAndColumnsOfTextShareThem() {
        // Two lines 13.5 pt apart in cells 15 pt tall, and beside them a second column of text.
        let size = TextCellSize(width: 6, height: 15)
        let words = [Self.word("upper", x: 0, y: 387, line: 0), Self.word("lower", x: 0, y: 400.5, line: 1),
                     Self.word("beside", x: 300, y: 388, line: 2)]
        let layout = PageTextLayout(words: words, cellSize: size)
        let row = Dictionary(uniqueKeysWithValues: layout.words.map { (words[$0.word].text, $0.row) })
        #expect(row["upper"] != row["lower"], "each line its own row")
        #expect(row["upper"] == row["beside"], "a line of the other column shares the row")
        // The rows meet the page at their lines: a row's top is its line's top.
        #expect(layout.rows.y(forRow: Double(row["lower"]!)) == 400.5)
        #expect(Int(layout.rows.row(forY: 405)) == row["lower"])
    }
}
