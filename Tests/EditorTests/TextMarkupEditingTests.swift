import Editor
import TerminalGrid
import RedlineCore
import Testing

@Suite struct TextMarkupEditingTests {
    @Test func typingShowsLiveAndEnterCommitsAtTheCursor() {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 100, y: 200)
        editor.press(.character("t"))
        editor.type("Approved")
        guard case .typing(let draft) = editor.state.focus else { Issue.record("not typing"); return }
        #expect(draft.markup.text == "Approved")
        // The draft is drawn before it is committed.
        #expect(editor.state.scene(environment: editor.environment).markup.count == 1)
        #expect(editor.state.markup.isEmpty)
        let effects = editor.press(.enter)
        #expect(editor.state.focus == .page)
        #expect(editor.selectedText == TextMarkup(origin: Point(x: 100, y: 200), text: "Approved", fontSize: 14, color: .red))
        #expect(effects == [.journalChanged])
    }

    @Test func backspaceEditsAndEscCancels() {
        var editor = EditorHarness()
        editor.press(.character("t"))
        editor.type("Helo")
        editor.press(.backspace, .backspace)
        editor.type("llo")
        guard case .typing(let draft) = editor.state.focus else { Issue.record("not typing"); return }
        #expect(draft.markup.text == "Hello")
        editor.press(.escape)
        #expect(editor.state.markup.isEmpty)
        #expect(editor.state.focus == .page)
    }

    @Test func accentedAndOtherUnicodeTextIsKeptAsTyped() {
        var editor = EditorHarness()
        editor.placeText("Genehmigt: Größe ✓ été")
        #expect(editor.selectedText?.text == "Genehmigt: Größe ✓ été")
    }

    @Test func enterEditsTheSelectedTextAndEmptyingItRemovesIt() {
        var editor = EditorHarness()
        editor.placeText("Draft")
        editor.press(.enter)
        editor.press(.backspace, .backspace, .backspace, .backspace, .backspace)
        editor.type("Final")
        editor.press(.enter)
        #expect(editor.state.markup.items.count == 1)
        #expect(editor.selectedText?.text == "Final")
        editor.press(.enter)
        for _ in 0..<5 { editor.press(.backspace) }
        editor.press(.enter)
        #expect(editor.state.markup.isEmpty)
    }

    @Test func arrowsNudgeTheSelectionOnePointAndShiftTen() {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 100, y: 100)
        editor.placeText("Nudge")
        editor.press(.right, .right, .down)
        #expect(editor.selectedText?.origin == Point(x: 102, y: 101))
        editor.press(.shiftLeft, .character("J"))
        #expect(editor.selectedText?.origin == Point(x: 92, y: 111))
        editor.press(.character("K"), .character("L"), .shiftUp, .shiftDown)
        #expect(editor.selectedText?.origin == Point(x: 102, y: 101))
    }

    @Test func markupCannotLeaveThePage() {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 5, y: 5)
        editor.placeText("Edge")
        // As far as the box its annotation gets (a point around the text) stays on the page.
        for _ in 0..<3 { editor.press(.shiftLeft, .shiftUp) }
        #expect(editor.selectedText?.origin == Point(x: MarkupAnnotations.margin, y: MarkupAnnotations.margin))
        for _ in 0..<100 { editor.press(.shiftRight, .shiftDown) }
        let bounds = editor.state.markup.items[0].bounds(measuredBy: FixedMeasurer())
        #expect(bounds.maxX == 612 - MarkupAnnotations.margin)
        #expect(bounds.maxY == 792 - MarkupAnnotations.margin)
    }

    @Test func fontSizeStepsBetweenEightAndFortyEight() {
        var editor = EditorHarness()
        editor.placeText("Size")
        editor.press(.character("+"))
        #expect(editor.selectedText?.fontSize == 16)
        for _ in 0..<30 { editor.press(.character("+")) }
        #expect(editor.selectedText?.fontSize == 48)
        for _ in 0..<40 { editor.press(.character("-")) }
        #expect(editor.selectedText?.fontSize == 8)
    }

    @Test func colourCyclesBlueBlackRedPurple() {
        var editor = EditorHarness()
        editor.placeText("Colour")
        var seen: [MarkupColor] = []
        for _ in 0..<4 {
            editor.press(.character("c"))
            seen.append(editor.selectedText!.color)
        }
        #expect(seen == [.purple, .blue, .black, .red])
    }

    @Test func withoutSelectionSizeAndColourSetTheNextText() {
        var editor = EditorHarness()
        editor.press(.character("+"), .character("+"), .character("c"))
        editor.placeText("Styled")
        #expect(editor.selectedText?.fontSize == 18)
        #expect(editor.selectedText?.color == .purple)
    }

    @Test func tabCyclesSelectionInReadingOrderAndEscDeselects() {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 300, y: 400)
        editor.placeText("Lower")
        editor.state.cursor = Point(x: 50, y: 100)
        editor.placeText("Upper")
        editor.press(.escape)
        #expect(editor.state.selection == nil)
        editor.press(.tab)
        #expect(editor.selectedText?.text == "Upper")
        editor.press(.tab)
        #expect(editor.selectedText?.text == "Lower")
        editor.press(.tab)
        #expect(editor.selectedText?.text == "Upper")
        editor.press(.backTab)
        #expect(editor.selectedText?.text == "Lower")
    }

    @Test func deleteRemovesTheSelection() {
        var editor = EditorHarness()
        editor.placeText("One")
        editor.placeText("Two")
        editor.press(.character("x"))
        #expect(editor.state.markup.items.count == 1)
        editor.press(.tab, .delete)
        #expect(editor.state.markup.isEmpty)
    }

    @Test func undoAndRedoEveryChangeWithAHeldNudgeAsOneStep() {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 100, y: 100)
        editor.placeText("Undo me")
        for _ in 0..<5 { editor.press(.right) }
        editor.press(.character("+"), .character("c"))
        editor.press(.character("u"))
        #expect(editor.selectedText?.color == .red)
        editor.press(.character("u"))
        #expect(editor.selectedText?.fontSize == 14)
        editor.press(.character("u"))
        #expect(editor.selectedText?.origin == Point(x: 100, y: 100))
        editor.press(.character("u"))
        #expect(editor.state.markup.isEmpty)
        #expect(editor.state.isDirty == false)
        editor.press(.control("r"), .control("r"))
        #expect(editor.selectedText == nil)
        editor.press(.tab)
        #expect(editor.selectedText?.origin == Point(x: 105, y: 100))
    }

    @Test func everyChangeIsJournaledAndUndoingToTheSavedStateDiscardsTheJournal() {
        var editor = EditorHarness()
        editor.placeText("Journal")
        #expect(editor.press(.right) == [.journalChanged])
        editor.press(.character("u"))
        #expect(editor.press(.character("u")) == [.journalChanged])
        #expect(editor.state.journalIsUnneeded)
    }
}
