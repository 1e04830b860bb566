import Editor
import RedlineCore
import TerminalGrid
import Testing

/// `W` fits the page's width into the page area, as zathura and mupdf do, and keeps doing so page after page.
@Suite struct FitWidthTests {
    @Test func theWidthFillsThePageAreaOnEveryPageUntilAZoomKey() throws {
        // Letter pages in 80×28 cells of 8×16 pixels: fitting the page gives 57% scale, the width 105%.
        var editor = EditorHarness(pages: 3, columns: 80, rows: 30)
        editor.press(.character("W"))
        var viewport = editor.state.viewport(cellPixels: .standard)
        #expect(viewport.rasterWidth == 640, "the page is as wide as the 80 columns")
        #expect(editor.screen().text(ofRow: 28).contains("zoom 185% width"))
        editor.press(.character("G"))
        viewport = editor.state.viewport(cellPixels: .standard)
        #expect(viewport.rasterWidth == 640 && editor.state.pageIndex == 2)
        editor.press(.character("z"))
        #expect(editor.screen().text(ofRow: 28).contains("zoom 200%"), "a zoom key goes on from the fitted width")
        #expect(!editor.screen().text(ofRow: 28).contains("width"))
        editor.press(.character("W"), .character("0"))
        #expect(editor.state.viewport(cellPixels: .standard).rasterHeight <= 448, "0 fits the whole page again")
    }

    @Test func aPageWiderThanTallFitsItsWidthToo() throws {
        var editor = EditorHarness(pages: 1, columns: 80, rows: 30, rotation: .quarter)
        editor.press(.character("W"))
        #expect(editor.state.viewport(cellPixels: .standard).rasterWidth == 640)
    }
}
