import Editor
import RedlineCore
import TerminalGrid
import Testing

/// `F` hides the status line, the message line and the panels: the page fills the terminal; `F` again brings them back.
@Suite struct HiddenInterfaceTests {
    func picture(_ editor: EditorHarness) -> CellGrid {
        let area = editor.state.layout.pageArea
        return CellGrid(columns: area.width, rows: area.height, filling: Cell("▚", style: CellStyle(foreground: .indexed(200))))
    }

    @Test func thePageFillsTheTerminalUntilFAgain() {
        var editor = EditorHarness(columns: 60, rows: 20)
        editor.press(.character("a"))
        editor.press(.escape, .character("B"), .character("F"))
        #expect(editor.state.interaction.panel == nil, "the panel went with the rest")
        #expect(editor.state.layout.pageArea.height == 20)
        let lines = editor.screen(picture: picture(editor)).lines
        #expect(lines[19].hasPrefix("▚▚▚▚") && lines[18].hasPrefix("▚▚▚▚"), "no status line, no message line")
        // A command still shows what is typed, over the page's foot.
        editor.press(.character(":"))
        #expect(editor.screen(picture: picture(editor)).lines[19].hasPrefix(":▏"))
        editor.press(.escape, .character("j"), .character("F"))
        let back = editor.screen(picture: picture(editor)).lines
        #expect(editor.state.interaction.bookmarkPanel != nil, "the panel F hid is back")
        #expect(back[18].hasPrefix(" page 2/3"))
        #expect(back[0].contains("Bookmarks ·"))
        editor.press(.escape)
        #expect(editor.state.layout.pageArea.height == 18)
    }
}
