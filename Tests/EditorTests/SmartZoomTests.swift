import Editor
import RedlineCore
import TerminalGrid
import Testing

/// `s` and a double click: the text block at the cursor fills the page area's width; the same again goes back.
@Suite struct SmartZoomTests {
    /// A narrow column (72–252 pt) of five lines and, far below, another block.
    static let words: [PageWord] = {
        var words: [PageWord] = []
        for line in 0..<5 {
            words.append(PageWord(text: "left", box: Rect(x: 72, y: 100 + Double(line) * 14, width: 80, height: 11), line: line, block: 0))
            words.append(PageWord(text: "right", box: Rect(x: 172, y: 100 + Double(line) * 14, width: 80, height: 11), line: line, block: 0))
        }
        words.append(PageWord(text: "footer", box: Rect(x: 300, y: 700, width: 100, height: 11), line: 5, block: 0))
        TextBlocks.assign(&words)
        return words
    }()

    func editor() -> EditorHarness {
        var editor = EditorHarness(pages: 2, columns: 100, rows: 30)
        editor.send(.wordsRead(pageIndex: 0, words: Self.words))
        editor.state.cursor = Point(x: 180, y: 130)
        return editor
    }

    /// The page's part in view, in points.
    func visible(_ editor: EditorHarness) -> Rect {
        let viewport = editor.state.viewport(cellPixels: editor.environment.cellPixels)
        return Rect(x: Double(viewport.originPixel.x) / viewport.scale, y: Double(viewport.originPixel.y) / viewport.scale,
                    width: Double(viewport.columns * viewport.cellPixels.width) / viewport.scale,
                    height: Double(viewport.rows * viewport.cellPixels.height) / viewport.scale)
    }

    @Test func theBlockUnderTheCursorFillsTheWidthAndTheSameAgainGoesBack() {
        var editor = editor()
        #expect(Set(Self.words.map(\.block)) == [0, 1], "the footer is a block of its own")
        let before = editor.state.view
        editor.press(.character("s"))
        let shown = visible(editor)
        #expect(shown.minX <= 72 && shown.maxX >= 252, "the block's whole width is in view: \(shown)")
        #expect(shown.width < 180 + 30, "and not much more: \(shown.width) pt across")
        #expect(shown.minY <= 100 && shown.maxY >= 167, "its lines are in view")
        #expect(editor.state.message?.hasPrefix("Smart zoom") == true)
        editor.press(.character("s"))
        #expect(editor.state.zoom == before.zoom && editor.state.scroll == before.scroll)
    }

    @Test func aDoubleClickSmartZoomsAndTwoSlowClicksDoNot() {
        var editor = editor()
        let viewport = editor.state.viewport(cellPixels: editor.environment.cellPixels)
        let area = editor.state.layout.pageArea
        let cell = viewport.cell(for: Point(x: 320, y: 703))
        let press = MouseEvent(.press, column: area.column + cell.column, row: area.row + cell.row)
        editor.send(.mouse(press), atMillisecond: 10_000)
        editor.send(.mouse(MouseEvent(.release, column: press.column, row: press.row)), atMillisecond: 10_050)
        editor.send(.mouse(press), atMillisecond: 11_000)
        #expect(editor.state.zoom == 1, "a second click a second later is a click")
        editor.send(.mouse(press), atMillisecond: 11_200)
        let shown = visible(editor)
        #expect(editor.state.zoom > 1 && shown.minX <= 300 && shown.maxX >= 400, "the footer's block fills the width: \(shown)")
    }

    @Test func aPageWithoutTextSaysSo() {
        var editor = EditorHarness(pages: 2, columns: 100, rows: 30)
        editor.send(.wordsRead(pageIndex: 0, words: []))
        editor.press(.character("s"))
        #expect(editor.state.message == "No text here to zoom to" && editor.state.zoom == 1)
    }
}
