import Editor
import RedlineCore
import TerminalGrid
import Testing

/// Ctrl-O and Ctrl-F over the places jumps left, as vim's jump list.
@Suite struct JumpListTests {
    @Test func backAndForwardOverGAndColonN() {
        var editor = EditorHarness(pages: 20, columns: 100, rows: 30)
        editor.press(.character("z"), .character("z"), .character("j"), .character("j"))
        let scrolled = editor.state.scroll
        #expect(scrolled.y > 0)
        editor.press(.character("G"))
        #expect(editor.state.pageIndex == 19)
        editor.command("7")
        #expect(editor.state.pageIndex == 6)
        editor.press(.control("o"))
        #expect(editor.state.pageIndex == 19)
        editor.press(.control("o"))
        #expect(editor.state.pageIndex == 0 && editor.state.scroll == scrolled, "back where the first jump left, scrolled as it was")
        editor.press(.control("o"))
        #expect(editor.state.pageIndex == 0 && editor.state.message == "No earlier place to go back to")
        editor.press(.control("f"), .control("f"))
        #expect(editor.state.pageIndex == 6)
        editor.press(.control("f"))
        #expect(editor.state.message == "No later place to go forward to")
    }

    @Test func aNewJumpDropsThePlacesAhead() {
        var editor = EditorHarness(pages: 20, columns: 100, rows: 30)
        editor.press(.character("G"))
        editor.press(.control("o"))
        #expect(editor.state.pageIndex == 0)
        editor.press(.character("5"), .character("G"))
        editor.press(.control("f"))
        #expect(editor.state.pageIndex == 4, "nothing ahead after a new jump")
        editor.press(.control("o"))
        #expect(editor.state.pageIndex == 0)
    }

    @Test func pagingIsNoJump() {
        var editor = EditorHarness(pages: 20, columns: 100, rows: 30)
        editor.press(.pageDown, .pageDown)
        editor.press(.control("o"))
        #expect(editor.state.pageIndex == 2 && editor.state.message == "No earlier place to go back to")
    }
}
