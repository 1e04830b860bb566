import TerminalGrid
import Testing

@Suite struct CellGridTests {
    @Test func writeClipsAtTheEdgeAndLimit() {
        var grid = CellGrid(columns: 10, rows: 2)
        grid.write("Hello, world", column: 3, row: 0)
        grid.write("abcdef", column: -2, row: 1, limit: 5)
        #expect(grid.lines == ["   Hello, ", "cde       "])
    }

    @Test func findLocatesText() {
        var grid = CellGrid(columns: 12, rows: 3)
        grid.write("page 2/7", column: 4, row: 2)
        #expect(grid.find("2/7")! == (9, 2))
        #expect(grid.find("missing") == nil)
    }

    @Test func changesAreOnlyTheCellsThatDiffer() {
        var before = CellGrid(columns: 4, rows: 3)
        before.write("abcd", column: 0, row: 1)
        var after = before
        after[2, 1] = Cell("X", style: CellStyle(foreground: .red))
        after[0, 2] = Cell(" ", style: CellStyle(background: .blue))
        let changes = after.changes(since: before)
        #expect(changes.map { [$0.column, $0.row] } == [[2, 1], [0, 2]])
        #expect(after.changes(since: after).isEmpty)
    }

    @Test func aNewSizeOrNoPreviousScreenRedrawsEverything() {
        let grid = CellGrid(columns: 5, rows: 2)
        #expect(grid.changes(since: nil).count == 10)
        #expect(grid.changes(since: CellGrid(columns: 4, rows: 2)).count == 10)
    }

    @Test func pasteCopiesAGridInAndClips() {
        var screen = CellGrid(columns: 5, rows: 3)
        let picture = CellGrid(columns: 3, rows: 3, filling: Cell("#"))
        screen.paste(picture, column: 3, row: 1)
        #expect(screen.lines == ["     ", "   ##", "   ##"])
    }

    @Test func invisibleFormatCharactersAreShownSoColumnsStayStraight() {
        #expect(VisibleText.of("zero\u{200B}width") == "zero\\u{200B}width")
        #expect(VisibleText.of("right\u{200F}left\u{061C}") == "right\\u{200F}left\\u{061C}")
        var grid = CellGrid(columns: 30, rows: 1)
        grid.write("a\u{200B}b", column: 0, row: 0)
        #expect(grid.text(ofRow: 0).hasPrefix("a\\u{200B}b"))
        #expect(CharacterWidth.of("🇫🇷" as Character) == 2)
    }
}
