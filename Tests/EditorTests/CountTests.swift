import Editor
import RedlineCore
import TerminalGrid
import Testing

/// Counts before commands, as in vim and zathura: `12G`, `12gg`, `5j`, `3` PageDown; `gg` for the first page.
@Suite struct CountTests {
    @Test func aCountNamesAPageForGAndGG() {
        var editor = EditorHarness(pages: 30, columns: 100, rows: 30)
        editor.press(.character("1"), .character("2"))
        #expect(editor.screen().text(ofRow: 28).contains("page 1/30  │  12…"), "the count shows while it waits")
        editor.press(.character("G"))
        #expect(editor.state.pageIndex == 11)
        editor.press(.character("3"), .character("g"))
        #expect(editor.state.pageIndex == 11 && editor.screen().text(ofRow: 28).contains("3g…"))
        editor.press(.character("g"))
        #expect(editor.state.pageIndex == 2)
        editor.press(.character("g"), .character("g"))
        #expect(editor.state.pageIndex == 0)
        editor.press(.character("4"), .character("0"), .character("G"))
        #expect(editor.state.pageIndex == 0 && editor.state.message == "No page 40: the document has 30")
    }

    @Test func aCountRepeatsMovesAndTurnsPages() {
        var editor = EditorHarness(pages: 30, columns: 100, rows: 30)
        editor.press(.character("3"), .pageDown)
        #expect(editor.state.pageIndex == 3)
        editor.placeText("Moved")
        let before = editor.selectedText?.origin
        editor.press(.character("5"), .right)
        #expect(editor.selectedText?.origin.x == (before?.x ?? 0) + 5)
        editor.press(.character("u"))
        #expect(editor.selectedText?.origin == before, "five nudges from a count are one undo step")
    }

    @Test func aHugeCountGoesAllTheWayAndStops() {
        var editor = EditorHarness(pages: 30, columns: 100, rows: 30)
        editor.press(.character("z"), .character("z"), .character("z"))
        for digit in "99999" { editor.press(.character(digit)) }
        editor.press(.character("j"))
        #expect(editor.state.pageIndex == 29, "99999j scrolls to the end of the last page")
    }

    @Test func zeroFitsThePageUnlessACountIsBeingTyped() {
        var editor = EditorHarness(pages: 30, columns: 100, rows: 30)
        editor.press(.character("z"), .character("0"))
        #expect(editor.state.zoom == 1)
        editor.press(.character("1"), .character("0"), .character("G"))
        #expect(editor.state.pageIndex == 9)
        editor.press(.character("7"), .escape, .character("G"))
        #expect(editor.state.pageIndex == 29, "Esc dropped the count")
    }
}
