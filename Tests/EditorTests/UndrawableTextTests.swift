import Editor
import RedlineCore
import TerminalGrid
import Testing

/// Words the font has no glyph for are never placed or saved as empty boxes: typing them is refused with the
/// characters named and the words kept to change; so are new words for a text box Redline draws again.
@Suite struct UndrawableTextTests {
    @Test func typedTextWithCharactersTheFontLacksIsKeptNotPlaced() {
        var editor = EditorHarness()
        editor.press(.character("t"))
        editor.type("日本 ok 日")
        editor.press(.enter)
        #expect(editor.state.markup.items.isEmpty)
        #expect(editor.state.message == "Still typing (change it, or Esc): the font has no glyph for 日 (U+65E5), 本 (U+672C): they would print as empty boxes")
        guard case .typing(let draft) = editor.state.interaction.activity else {
            Issue.record("the draft is gone")
            return
        }
        #expect(draft.markup.text == "日本 ok 日")
    }

    @Test func newWordsForATextBoxRedlineDrawsAreCheckedToo() {
        let box = Annotation(id: "box", pageIndex: 0, subtype: .freeText, rect: Rect(x: 100, y: 100, width: 80, height: 20), author: "Eve",
                             contents: "Typed", flags: 4, order: 0, drawing: AnnotationDrawing(color: RGBColor(red: 0, green: 0, blue: 0), fontSize: 12))
        var editor = EditorHarness(columns: 120, rows: 40, annotations: [box])
        editor.press(.tab, .enter)
        for _ in 0..<5 { editor.press(.backspace) }
        editor.type("承認")
        editor.press(.enter)
        #expect(editor.state.message == "Not changed: the font has no glyph for 承 (U+627F), 認 (U+8A8D): they would print as empty boxes")
        #expect(editor.state.annotations.first?.contents == "Typed")
    }
}

/// Markup at the page's edges keeps the box its annotation gets on the page: text typed on the top row, in the left
/// column or nudged into a corner was saved as a FreeText reaching a point past the edge.
@Suite struct MarkupAtThePageEdgeTests {
    @Test func textTypedOrNudgedToTheEdgeKeepsItsAnnotationBoxOnThePage() {
        var editor = EditorHarness()
        editor.press(.character("t"))
        editor.type("Top left")
        editor.press(.enter)
        for _ in 0..<40 { editor.press(.character("K"), .character("H")) }
        let page = editor.state.document.pages[0].displaySize
        for item in editor.state.markup.items {
            let box = MarkupAnnotations.rect(for: item, measuredBy: editor.environment.measurer)
            #expect(box.minX >= 0 && box.minY >= 0 && box.maxX <= page.width && box.maxY <= page.height, "\(box)")
        }
        #expect(editor.state.markup.items.count == 1)
        // Nudged the other way into the far corner.
        for _ in 0..<200 { editor.press(.character("J"), .character("L")) }
        for item in editor.state.markup.items {
            let box = MarkupAnnotations.rect(for: item, measuredBy: editor.environment.measurer)
            #expect(box.minX >= 0 && box.minY >= 0 && box.maxX <= page.width + 1e-9 && box.maxY <= page.height + 1e-9, "\(box)")
        }
    }
}
