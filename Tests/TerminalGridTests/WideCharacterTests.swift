import TerminalGrid
import Testing

@Suite struct WideCharacterTests {
    @Test func wideCharactersTakeTwoCellsAndAreNotCutInHalf() {
        var grid = CellGrid(columns: 8, rows: 1)
        grid.write("注解ab", column: 0, row: 0)
        #expect(grid[0, 0].character == "注")
        #expect(grid[1, 0].isWideTail)
        #expect(grid[2, 0].character == "解")
        #expect(grid[4, 0].character == "a")
        #expect(grid.text(ofRow: 0) == "注解ab  ")
        var narrow = CellGrid(columns: 3, rows: 1)
        narrow.write("a注解", column: 0, row: 0)
        #expect(narrow.text(ofRow: 0) == "a注")
        var clipped = CellGrid(columns: 6, rows: 1)
        clipped.write("x注", column: 0, row: 0, limit: 2)
        #expect(clipped.text(ofRow: 0) == "x     ")
    }

    @Test func wrappingCountsCellsAndBreaksLongWords() {
        #expect(TextWrapping.lines("Wrong figure in the second table", width: 12) == ["Wrong figure", "in the", "second table"])
        #expect(TextWrapping.lines("这是一个注解。", width: 6) == ["这是一", "个注解", "。"])
        #expect(TextWrapping.lines("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        #expect(TextWrapping.lines("one\ntwo", width: 10) == ["one", "two"])
        #expect(CharacterWidth.of("é") == 1)
        #expect(CharacterWidth.of("한글") == 4)
    }
}
