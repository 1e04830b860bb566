import Editor
import RedlineCore
import Testing

@Suite struct NavigationTests {
    @Test func pageKeysMoveThroughTheDocument() {
        var editor = EditorHarness(pages: 5)
        editor.press(.character("j"), .character(" "), .pageDown)
        #expect(editor.state.pageIndex == 3)
        editor.press(.character("k"), .pageUp, .backspace)
        #expect(editor.state.pageIndex == 0)
        editor.press(.character("k"))
        #expect(editor.state.pageIndex == 0)
        editor.press(.character("G"))
        #expect(editor.state.pageIndex == 4)
        editor.press(.character("j"))
        #expect(editor.state.pageIndex == 4)
        editor.press(.character("g"))
        #expect(editor.state.pageIndex == 0)
    }

    @Test func colonNumberGoesToThatPage() {
        var editor = EditorHarness(pages: 12)
        editor.command("11")
        #expect(editor.state.pageIndex == 10)
        editor.command("40")
        #expect(editor.state.pageIndex == 10)
        #expect(editor.state.message == "No page 40: the document has 12")
    }

    @Test func turningThePageDropsTheSelection() {
        var editor = EditorHarness()
        editor.placeText("Page one")
        editor.press(.character("j"))
        #expect(editor.state.selection == nil)
        editor.press(.tab)
        #expect(editor.state.message == "No markup on this page")
    }

    @Test func arrowsMoveTheCursorByACellWhenNothingIsSelected() {
        var editor = EditorHarness()
        let start = editor.state.cursor
        let cell = editor.state.viewport(cellPixels: .standard).pointsPerCell
        editor.press(.right, .down)
        #expect(abs(editor.state.cursor.x - (start.x + cell.width)) < 1e-9)
        #expect(abs(editor.state.cursor.y - (start.y + cell.height)) < 1e-9)
        #expect(editor.state.markup.isEmpty)
    }

    @Test func zoomStepsAndZeroFits() {
        var editor = EditorHarness()
        editor.press(.character("z"), .character("z"))
        #expect(editor.state.zoom == 1.5)
        editor.press(.character("Z"))
        #expect(editor.state.zoom == 1.25)
        editor.press(.character("0"))
        #expect(editor.state.zoom == 1)
    }

    @Test func zoomedInTheViewScrollsToKeepTheCursorVisible() {
        var editor = EditorHarness()
        editor.press(.character("z"), .character("z"), .character("z"), .character("z"), .character("z"))
        for _ in 0..<12 { editor.press(.shiftDown) }
        let viewport = editor.state.viewport(cellPixels: .standard)
        let cell = viewport.cell(for: editor.state.cursor)
        #expect(cell.row >= 0 && cell.row < viewport.rows)
        #expect(cell.column >= 0 && cell.column < viewport.columns)
        #expect(viewport.originPixel.y > 0)
    }

    @Test func theViewportFitsAndCentresThePage() {
        let editor = EditorHarness(columns: 100, rows: 42)
        let viewport = editor.state.viewport(cellPixels: .standard)
        #expect(viewport.rasterHeight <= 40 * 16)
        #expect(viewport.originPixel.x < 0)
        #expect(viewport.rasterWidth <= 100 * 8)
    }
}
