import Editor
import TerminalGrid
import RedlineCore
import Testing

@Suite struct InkEditingTests {
    /// Enters ink mode at (100, 100) and draws a 100 × 50 box with the keyboard.
    func drawBox(_ editor: inout EditorHarness) {
        editor.state.cursor = Point(x: 100, y: 100)
        editor.press(.character("i"), .character(" "))
        for _ in 0..<10 { editor.press(.shiftRight) }
        for _ in 0..<5 { editor.press(.shiftDown) }
        for _ in 0..<10 { editor.press(.character("H")) }
        for _ in 0..<5 { editor.press(.shiftUp) }
        editor.press(.enter)
    }

    /// One stroke from (100, 100) to (200, 100), 2 pt wide, then out of ink mode.
    func drawLine(_ editor: inout EditorHarness) {
        editor.state.cursor = Point(x: 100, y: 100)
        editor.press(.character("i"), .character(" "))
        for _ in 0..<10 { editor.press(.shiftRight) }
        editor.press(.enter, .escape)
    }

    var inkItems: (EditorHarness) -> [InkMarkup] {
        { editor in editor.state.markup.items.compactMap { if case .ink(let ink) = $0.content { ink } else { nil } } }
    }

    @Test func aBoxDrawnWithTheKeyboardIsOneStrokeOfOneMarkup() {
        var editor = EditorHarness()
        drawBox(&editor)
        #expect(editor.state.markup.isEmpty, "nothing is committed while still in ink mode")
        // Drawn live meanwhile.
        #expect(editor.state.scene(environment: editor.environment).markup.count == 1)
        editor.press(.escape)
        let ink = inkItems(editor)
        #expect(ink.count == 1)
        let stroke = ink[0].strokes[0]
        #expect(stroke.first == Point(x: 100, y: 100) && stroke.last == Point(x: 100, y: 100))
        #expect(Rect(enclosing: stroke) == Rect(x: 100, y: 100, width: 100, height: 50))
        #expect(ink[0].width == 2 && ink[0].opacity == 1)
        #expect(editor.state.focus == .page)
    }

    @Test func arrowsMoveThePenOnePointAndOnlyDrawWhileItIsDown() {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 50, y: 50)
        editor.press(.character("i"), .right, .right)
        editor.press(.character(" "), .down, .down, .down, .character(" "), .right, .character(" "), .up, .enter, .escape)
        let ink = inkItems(editor)
        #expect(ink.count == 1)
        #expect(ink[0].strokes == [[Point(x: 52, y: 50), Point(x: 52, y: 51), Point(x: 52, y: 52), Point(x: 52, y: 53)],
                                   [Point(x: 53, y: 53), Point(x: 53, y: 52)]])
    }

    @Test func highlighterIsWideAndTranslucentAndChangingToolsSplitsMarkups() {
        var editor = EditorHarness()
        editor.press(.character("i"), .character(" "), .shiftRight, .enter)
        editor.press(.character("h"), .character(" "), .shiftRight, .enter, .escape)
        let ink = inkItems(editor)
        #expect(ink.count == 2)
        #expect(ink[0].opacity == 1)
        #expect(ink[1].opacity == InkMarkup.highlighterOpacity && ink[1].width == 14)
    }

    @Test func widthStepsWithinEachToolsRange() {
        var editor = EditorHarness()
        editor.press(.character("i"))
        for _ in 0..<30 { editor.press(.character("+")) }
        #expect(editor.state.inkStyle.penWidth == 12)
        for _ in 0..<30 { editor.press(.character("-")) }
        #expect(editor.state.inkStyle.penWidth == 0.5)
        editor.press(.character("h"))
        for _ in 0..<30 { editor.press(.character("+")) }
        #expect(editor.state.inkStyle.highlighterWidth == 36)
        editor.press(.character("c"))
        #expect(editor.state.inkStyle.highlighterColor == .green)
        #expect(editor.state.inkStyle.penColor == .blue)
    }

    @Test func theEraserRemovesWholeStrokesItTouches() {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 100, y: 100)
        // Two strokes, 40 pt apart.
        editor.press(.character("i"), .character(" "), .shiftRight, .shiftRight, .enter)
        for _ in 0..<4 { editor.press(.shiftDown) }
        editor.press(.character(" "), .shiftLeft, .shiftLeft, .enter, .escape)
        #expect(inkItems(editor)[0].strokes.count == 2)
        // The eraser crosses the first stroke only.
        editor.state.cursor = Point(x: 110, y: 90)
        editor.press(.character("i"), .character("e"), .character(" "), .shiftDown, .shiftDown, .enter, .escape)
        let ink = inkItems(editor)
        #expect(ink.count == 1)
        #expect(ink[0].strokes == [[Point(x: 120, y: 140), Point(x: 110, y: 140), Point(x: 100, y: 140)]])
        // Erasing the last stroke removes the markup; undo brings it back.
        editor.state.cursor = Point(x: 110, y: 130)
        editor.press(.character("i"), .character("e"), .character(" "), .shiftDown, .shiftDown, .escape)
        #expect(editor.state.markup.isEmpty)
        editor.press(.character("u"))
        #expect(inkItems(editor).count == 1)
    }

    /// `E`: the partial eraser takes only what it passes over; what is left either side stays in the same markup,
    /// saved and undone as one.
    @Test func thePartialEraserTakesOnlyWhatItPassesOver() {
        var editor = EditorHarness()
        drawLine(&editor)
        // The eraser (radius 2, plus the ink's half width) goes down across its middle.
        editor.state.cursor = Point(x: 150, y: 90)
        editor.press(.character("i"), .character("E"))
        #expect(editor.screen().lines.joined(separator: "\n").contains("ink eraser (part of strokes)"))
        editor.press(.character(" "), .shiftDown, .shiftDown, .escape)
        let ink = inkItems(editor)
        #expect(ink.count == 1)
        #expect(ink[0].strokes.count == 2)
        let left = ink[0].strokes[0], right = ink[0].strokes[1]
        #expect(left.first == Point(x: 100, y: 100) && right.last == Point(x: 200, y: 100))
        #expect(abs(left.last!.x - 147) < 1e-4 && abs(right.first!.x - 153) < 1e-4, "\(left.last!) \(right.first!)")
        // One undo brings the whole stroke back.
        editor.press(.character("u"))
        #expect(inkItems(editor)[0].strokes.count == 1)
    }

    /// A pass of the eraser over many pen steps is one undo step, however much each step took.
    @Test func anErasersPassIsOneUndoStep() {
        var editor = EditorHarness()
        drawLine(&editor)
        let drawn = inkItems(editor)
        // Along the stroke from x 120 to 170, a point at a time: fifty steps that each take a little more.
        editor.state.cursor = Point(x: 120, y: 100)
        editor.press(.character("i"), .character("E"), .character(" "))
        for _ in 0..<50 { editor.press(.right) }
        editor.press(.character(" "))
        let erased = inkItems(editor)
        #expect(erased[0].strokes.count == 2 && erased[0].strokes[1].first!.x > 172)
        editor.press(.escape, .character("u"))
        #expect(inkItems(editor) == drawn)
        editor.press(.control("r"))
        #expect(inkItems(editor) == erased)
        // A second pass is a step of its own.
        editor.state.cursor = Point(x: 190, y: 90)
        editor.press(.character("i"), .character("E"), .character(" "), .shiftDown, .shiftDown, .character(" "), .escape)
        #expect(inkItems(editor)[0].strokes.count == 3)
        editor.press(.character("u"))
        #expect(inkItems(editor) == erased)
    }

    @Test func inkIsSelectedNudgedResizedDeletedAndUndoneLikeText() {
        var editor = EditorHarness()
        drawBox(&editor)
        editor.press(.escape, .tab)
        #expect(editor.state.selection != nil)
        editor.press(.right, .shiftDown)
        #expect(Rect(enclosing: inkItems(editor)[0].strokes[0]) == Rect(x: 101, y: 110, width: 100, height: 50))
        editor.press(.character("+"))
        #expect(inkItems(editor)[0].width == 3)
        editor.press(.character("c"))
        #expect(inkItems(editor)[0].color == .black)
        editor.press(.character("u"), .character("u"))
        #expect(inkItems(editor)[0].width == 2)
        editor.press(.character("u"))
        #expect(Rect(enclosing: inkItems(editor)[0].strokes[0]) == Rect(x: 100, y: 100, width: 100, height: 50))
        editor.press(.control("r"), .character("x"))
        #expect(editor.state.markup.isEmpty)
        editor.press(.character("u"))
        #expect(inkItems(editor).count == 1)
    }

    @Test func undoInInkModeTakesBackTheLastStrokeFirst() {
        var editor = EditorHarness()
        editor.press(.character("i"), .character(" "), .right, .enter, .character(" "), .down, .enter)
        editor.press(.character("u"))
        editor.press(.escape)
        #expect(inkItems(editor)[0].strokes.count == 1)
    }

    @Test func inkNeverLeavesThePage() {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 5, y: 5)
        editor.press(.character("i"), .character(" "), .shiftLeft, .shiftUp, .enter, .escape)
        #expect(inkItems(editor)[0].strokes[0].allSatisfy { $0.x >= 0 && $0.y >= 0 })
    }

    @Test func theStatusLineShowsTheInkToolAndThePen() {
        var editor = EditorHarness(columns: 140)
        editor.press(.character("i"), .character("h"), .character(" "))
        let status = editor.screen().text(ofRow: 28)
        #expect(status.contains("ink highlighter 14pt yellow, pen down"))
    }
}

@Suite struct MouseTests {
    /// The screen cell that shows a page point.
    func cell(_ editor: EditorHarness, _ point: Point) -> (column: Int, row: Int) {
        editor.state.viewport(cellPixels: .standard).cell(for: point)
    }

    @Test func pressDragReleaseDrawsAFreehandStrokeInInkMode() {
        var editor = EditorHarness()
        editor.press(.character("i"))
        editor.send(.mouse(MouseEvent(.press, column: 20, row: 5)))
        editor.send(.mouse(MouseEvent(.drag, column: 25, row: 7)))
        editor.send(.mouse(MouseEvent(.drag, column: 30, row: 10)))
        editor.send(.mouse(MouseEvent(.release, column: 30, row: 10)))
        editor.press(.escape)
        guard case .ink(let ink)? = editor.state.markup.items.first?.content else { Issue.record("no ink"); return }
        #expect(ink.strokes.count == 1 && ink.strokes[0].count == 3)
        let viewport = editor.state.viewport(cellPixels: .standard)
        #expect(viewport.cell(for: ink.strokes[0][0]) == (20, 5))
        #expect(viewport.cell(for: ink.strokes[0][2]) == (30, 10))
    }

    @Test func aClickSelectsTheMarkupUnderThePointerAndADragMovesItAsOneUndoStep() throws {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 200, y: 300)
        editor.placeText("Drag me")
        editor.press(.escape)
        let start = cell(editor, Point(x: 205, y: 305))
        editor.send(.mouse(MouseEvent(.press, column: start.column, row: start.row)))
        try #require(editor.selectedText?.text == "Drag me")
        editor.send(.mouse(MouseEvent(.drag, column: start.column + 3, row: start.row + 1)))
        editor.send(.mouse(MouseEvent(.drag, column: start.column + 6, row: start.row + 2)))
        editor.send(.mouse(MouseEvent(.release, column: start.column + 6, row: start.row + 2)))
        let span = editor.state.viewport(cellPixels: .standard).pointsPerCell
        let origin = editor.selectedText!.origin
        #expect(abs(origin.x - (200 + 6 * span.width)) < 1e-6 && abs(origin.y - (300 + 2 * span.height)) < 1e-6)
        editor.press(.character("u"))
        #expect(editor.selectedText?.origin == Point(x: 200, y: 300))
    }

    @Test func aClickOnEmptyPageMovesTheCursorAndDeselects() {
        var editor = EditorHarness()
        editor.placeText("Selected")
        editor.send(.mouse(MouseEvent(.press, column: 30, row: 25)))
        #expect(editor.state.selection == nil)
        #expect(cell(editor, editor.state.cursor) == (30, 25))
        // Beside the page (the backdrop left of it) a click does nothing.
        let before = editor.state.cursor
        editor.send(.mouse(MouseEvent(.press, column: 2, row: 25)))
        #expect(editor.state.cursor == before)
    }

    @Test func theWheelTurnsPages() {
        var editor = EditorHarness()
        editor.send(.mouse(MouseEvent(.scrollDown, column: 1, row: 1)))
        #expect(editor.state.pageIndex == 1)
        editor.send(.mouse(MouseEvent(.scrollUp, column: 1, row: 1)))
        #expect(editor.state.pageIndex == 0)
    }
}
