import Editor
import Foundation
import PDFRendering
import RedlineCore
import RedlineKit
import TerminalGrid
import TestSupport
import Testing

/// The text view on real pages: what a user reads on screen, row by row, against pdftotext's words and boxes.
@Suite struct TextViewOnRealPagesTests {
    /// The page in the text view, tall enough that it shows at once (as it would scroll by in a smaller terminal).
    static func textView(_ path: String, page: Int) throws -> (state: EditorState, screen: CellGrid, shown: [String]) {
        let document = try OpenedDocument(path: path, password: nil)
        let words = try PopplerDocument(path: path, password: nil).words(onPage: page - 1)
        let environment = EditorEnvironment(measurer: FixedWidthMeasurer())
        var state = EditorState(documentPath: path, document: document.description, columns: 200, rows: 200, pageIndex: page - 1)
        var keys = StampedKeys()
        _ = EditorReducer.reduce(&state, .wordsRead(pageIndex: page - 1, words: words), at: keys.nextStamp(), environment: environment)
        keys.press([.character("T")], on: &state, environment: environment)
        #expect(state.showsTextView)
        // The cursor's mark, where no word is, is not a word of the page.
        state.cursor = Point(x: 0, y: 0)
        var screen = EditorView.draw(state, environment: environment, picture: nil)
        let cursor = state.viewport(cellPixels: environment.cellPixels).cell(for: state.cursor)
        if screen[cursor.column, cursor.row].character == "+" { screen[cursor.column, cursor.row] = Cell(" ") }
        let shown = (0..<state.layout.pageArea.height).flatMap { screen.text(ofRow: $0).split(separator: " ").map(String.init) }
        return (state, screen, shown)
    }

    @Test(arguments: [("sample.pdf", 1), ("pypdf_crazyones-pdfa.pdf", 1), ("qpdf_boxes.pdf", 1), ("qpdf_boxes.pdf", 5),
                      ("pypdf_GeoTopo-komprimiert.pdf", 4)])
    func theScreenReadsAsPdftotextsWordsInTheirRowsAndOrder(file: String, page: Int) throws {
        let path = file == "sample.pdf" ? TestPaths.sample : TestPaths.fixture(file)
        let expected = try PopplerText.words(in: path, page: page)
        let (state, screen, shown) = try Self.textView(path, page: page)
        let environment = EditorEnvironment(measurer: FixedWidthMeasurer())

        // pdftotext's words in the rows their boxes' middles fall in, left to right: how a page is read line by line.
        let viewport = state.viewport(cellPixels: environment.cellPixels)
        let inRows = expected.enumerated().sorted { first, second in
            let a = viewport.cell(for: Point(x: first.element.xMin, y: (first.element.yMin + first.element.yMax) / 2)).row
            let b = viewport.cell(for: Point(x: second.element.xMin, y: (second.element.yMin + second.element.yMax) / 2)).row
            return a != b ? a < b : first.element.xMin != second.element.xMin ? first.element.xMin < second.element.xMin : first.offset < second.offset
        }.map { VisibleText.of($0.element.text) }
        #expect(!shown.isEmpty)
        #expect(shown == inRows, "\(file) page \(page): \(zip(shown, inRows).first { $0 != $1 }.map { "\($0) vs \($1)" } ?? "lengths \(shown.count) vs \(inRows.count)")")

        // The middle of each word's first letter on the page is the cell showing that letter, and the cell after the
        // word's right edge is just after its last: what the cursor, a click or markup put there finds the word.
        var misplaced: [String] = []
        for word in expected {
            let text = VisibleText.of(word.text)
            let middle = (word.yMin + word.yMax) / 2
            let first = viewport.cell(for: Point(x: word.xMin + (word.xMax - word.xMin) / Double(2 * max(1, word.text.count)), y: middle))
            let after = viewport.cell(for: Point(x: word.xMax + 0.2, y: middle))
            let row = screen.text(ofRow: first.row)
            if first.column < 0 || !row.dropFirst(first.column).hasPrefix(text) || after.column != first.column + CharacterWidth.of(text) {
                misplaced.append("\(word.text)@\(first.column)→\(after.column): \(row.dropFirst(max(0, first.column - 3)).prefix(24))")
            }
        }
        #expect(misplaced.isEmpty, "\(file) page \(page): \(misplaced.count) of \(expected.count): \(misplaced.prefix(5))")
    }

    /// The arrows walk the cursor a cell at a time: every cell of every row, taken to its place on the page and
    /// back, is the same cell. A cell that came back as its neighbour would make the cursor stick or skip.
    @Test(arguments: [("sample.pdf", 1), ("pypdf_crazyones-pdfa.pdf", 1), ("pypdf_GeoTopo-komprimiert.pdf", 20),
                      ("pypdf_GeoTopo-komprimiert.pdf", 45), ("pypdf_GeoTopo-komprimiert.pdf", 30)])
    func everyCellGoesToThePageAndBackToItself(file: String, page: Int) throws {
        let path = file == "sample.pdf" ? TestPaths.sample : TestPaths.fixture(file)
        let state = try Self.textView(path, page: page).state
        let viewport = state.viewport(cellPixels: EditorEnvironment(measurer: FixedWidthMeasurer()).cellPixels)
        var lost: [String] = []
        for row in 0..<state.layout.pageArea.height {
            for column in 0..<state.layout.pageArea.width {
                let point = viewport.point(forCellColumn: column, row: row)
                let back = viewport.cell(for: point)
                if back != (column, row) { lost.append("(\(column),\(row))→(\(back.column),\(back.row))") }
            }
        }
        #expect(lost.isEmpty, "\(file) page \(page): \(lost.count) cells: \(lost.prefix(8))")
    }

    /// No row mixes words of different lines: two lines closer than a cell, the page numbers of an index (which
    /// poppler puts in the line of entries far above them), a proof's end mark.
    @Test(arguments: [("pypdf_annotated_pdf.pdf", 1), ("pypdf_GeoTopo-komprimiert.pdf", 30), ("pypdf_GeoTopo-komprimiert.pdf", 114),
                      ("pypdf_GeoTopo-komprimiert.pdf", 115)])
    func eachRowHoldsOneHeightOfText(file: String, page: Int) throws {
        let path = TestPaths.fixture(file)
        let state = try Self.textView(path, page: page).state
        let layout = try #require(state.textLayout)
        let words = try #require(state.navigation.words[page - 1])
        var mixed: [String] = []
        for row in Set(layout.words.map(\.row)) {
            let inRow = layout.words.filter { $0.row == row }.map { words[$0.word] }
            for a in inRow {
                // A superscript or subscript sits a little off its line; another line is a line's height away.
                for b in inRow where abs(a.box.center.y - b.box.center.y) > max(a.box.height, b.box.height) * 0.9 {
                    mixed.append("row \(row): \(a.text)@\(Int(a.box.center.y)) with \(b.text)@\(Int(b.box.center.y))")
                }
            }
        }
        #expect(mixed.isEmpty, "\(file) page \(page): \(mixed.prefix(4))")
    }

    /// The book's index: poppler runs a page number of one column into a word of the other ("64einfach"); the
    /// words are cut where the letters jump, so each entry reads with its own number.
    @Test func anIndexReadsEntryByEntry() throws {
        let screen = try Self.textView(TestPaths.fixture("pypdf_GeoTopo-komprimiert.pdf"), page: 115).screen
        let rows = (0..<screen.rows).map { screen.text(ofRow: $0) }
        for entry in ["Axiomensystem, 64", "einfach zusammenhängend, 49", "Binormalenvektor, 89", "Gauß-Krümmung, 92, 91–94",
                      "Abstand, 86"] {
            #expect(rows.contains { $0.contains(entry) }, "\(entry)")
        }
        #expect(!rows.contains { $0.contains("64einfach") || $0.contains("89Gauß") })
    }

    /// The book's contents: poppler runs the last leader dot of a section's line into the page number of the chapter
    /// line five lines above it (one "word" 64 points tall). Each chapter keeps its number on its own row, and with
    /// `f` each entry's link gets one label on its row, none piled on another's.
    @Test func aContentsPageReadsLineByLineWithOneLabelPerLink() throws {
        let path = TestPaths.fixture("pypdf_GeoTopo-komprimiert.pdf")
        var (state, screen, _) = try Self.textView(path, page: 4)
        let rows = (0..<screen.rows).map { screen.text(ofRow: $0) }
        for (chapter, number) in [("Mannigfaltigkeiten und Simplizialkomplexe", "24"), ("Fundamentalgruppe und Überlagerungen", "44"),
                                  ("Euklidische und nichteuklidische Geometrie", "64"), ("Krümmung ", "87")] {
            let row = rows.first { $0.contains(chapter) }
            #expect(row?.split(separator: " ").last.map(String.init) == number, "\(chapter): \(row ?? "no row")")
        }
        #expect(!rows.contains { $0.contains(".24") || $0.contains(".44") || $0.contains(".64") || $0.contains(".87") })

        let environment = EditorEnvironment(measurer: FixedWidthMeasurer())
        let links = try PopplerDocument(path: path, password: nil).links(onPage: 3)
        #expect(links.count >= 30)
        var keys = StampedKeys()
        _ = EditorReducer.reduce(&state, .linksRead(pageIndex: 3, links: links), at: keys.nextStamp(), environment: environment)
        let hinted = EditorReducer.hintedLinks(state, environment)
        keys.press([.character("f")], on: &state, environment: environment)
        let labelled = EditorView.draw(state, environment: environment, picture: nil)
        let labelRows = (0..<labelled.rows).map { labelled.text(ofRow: $0) }
        // Every label is shown, at the start of a row's words, one to a row: a contents line has one link.
        for (label, _) in hinted {
            let holding = labelRows.filter { $0.split(separator: " ").contains { $0.hasPrefix(label) } }
            #expect(holding.count == 1, "label \(label) is on \(holding.count) rows")
        }
        let labelsPerRow = labelRows.map { row in hinted.filter { label in row.split(separator: " ").contains { $0.hasPrefix(label.label) } }.count }
        #expect(labelsPerRow.allSatisfy { $0 <= 1 }, "\(zip(labelsPerRow, labelRows).filter { $0.0 > 1 }.map(\.1).prefix(3))")
    }

    /// Pages turned a quarter (text running down the screen) or upside down: the text view says so and shows the
    /// picture, rather than a column of single words or lines read backwards.
    @Test(arguments: [("sample.pdf", 3, "runs up or down the screen"), ("qpdf_boxes.pdf", 2, "runs up or down the screen"),
                      ("qpdf_boxes.pdf", 3, "upside down"), ("qpdf_boxes.pdf", 4, "runs up or down the screen"),
                      ("qpdf_inherited-rotate.pdf", 1, "runs up or down the screen")])
    func aTurnedPageShowsItsPictureAndSaysWhy(file: String, page: Int, reason: String) throws {
        let path = file == "sample.pdf" ? TestPaths.sample : TestPaths.fixture(file)
        let document = try OpenedDocument(path: path, password: nil)
        let words = try PopplerDocument(path: path, password: nil).words(onPage: page - 1)
        #expect(!words.isEmpty)
        let environment = EditorEnvironment(measurer: FixedWidthMeasurer())
        var state = EditorState(documentPath: path, document: document.description, columns: 120, rows: 40, pageIndex: page - 1)
        var keys = StampedKeys()
        _ = EditorReducer.reduce(&state, .wordsRead(pageIndex: page - 1, words: words), at: keys.nextStamp(), environment: environment)
        keys.press([.character("T")], on: &state, environment: environment)
        #expect(!state.showsTextView)
        #expect(state.message?.contains(reason) == true, "\(state.message ?? "")")
    }

    /// Formulas: pdftotext cuts a word where the font changes (W and its subscript i), poppler's text of the
    /// page does not (Wi), so the words differ; every character still shows, and none is added.
    @Test(arguments: [20, 45])
    func everyCharacterOfAFormulaPageShows(page: Int) throws {
        let path = TestPaths.fixture("pypdf_GeoTopo-komprimiert.pdf")
        let expected = try PopplerText.words(in: path, page: page)
        let shown = try Self.textView(path, page: page).shown
        #expect(shown.joined().sorted() == expected.map { VisibleText.of($0.text) }.joined().sorted())
    }
}

/// Half the font size per character: enough for the markup the text view draws, no font needed.
private struct FixedWidthMeasurer: TextMeasuring {
    func metrics(of text: String, fontSize: Double) -> TextMetrics {
        TextMetrics(width: Double(text.count) * fontSize * 0.5, ascent: fontSize * 0.8, descent: fontSize * 0.2)
    }
}
