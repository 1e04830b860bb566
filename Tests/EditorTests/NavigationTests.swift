import Editor
import TerminalGrid
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
        editor.press(.character("g"), .character("g"))
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
        #expect(editor.state.message == "No markup or annotations on this page")
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

    /// At 400% the page is read by scrolling: `j` within the page until its foot, then the next page's top;
    /// arrows scroll when nothing is selected and nudge when something is.
    @Test func aZoomedPageScrollsBeforeItTurns() {
        var editor = EditorHarness(pages: 2, columns: 120, rows: 40)
        for _ in 0..<5 { editor.press(.character("z")) }
        #expect(editor.state.zoom == 4)
        var steps = 0
        var last = editor.state.scroll.y
        while editor.state.pageIndex == 0, steps < 200 {
            editor.press(.character("j"))
            steps += 1
            if editor.state.pageIndex == 0 {
                #expect(editor.state.scroll.y > last, "j scrolls down while it can")
                last = editor.state.scroll.y
            }
        }
        #expect(editor.state.pageIndex == 1 && editor.state.scroll.y == 0)
        #expect(steps > 30, "a page four times the screen's height takes many j: \(steps)")
        editor.press(.character("k"))
        #expect(editor.state.pageIndex == 0 && editor.state.scroll.y == last, "k at the top goes back to the foot")
        editor.press(.character("l"), .character("l"))
        let x = editor.state.scroll.x
        #expect(x > 0)
        editor.press(.pageDown)
        #expect(editor.state.pageIndex == 1 && editor.state.scroll.x == x && editor.state.scroll.y == 0)
        editor.press(.down)
        #expect(editor.state.scroll.y > 0, "Down scrolls when nothing is selected")
        editor.placeText("Note")
        let before = editor.state.scroll
        let origin = editor.selectedText?.origin
        editor.press(.down)
        #expect(editor.state.scroll == before && editor.selectedText?.origin.y == (origin?.y ?? 0) + 1, "Down nudges a selection")
    }
}
