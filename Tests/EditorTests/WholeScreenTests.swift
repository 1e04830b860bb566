import Editor
import RedlineCore
import TerminalGrid
import Testing

/// Whole screens, as lines of text, for the states a reviewer meets most: what is drawn is stated cell for
/// cell (without the page picture, which the adapters draw), so a field that moves, a panel row that goes
/// missing or a hint that changes fails here.
@Suite struct WholeScreenTests {
    static let thread = [
        Annotation(id: "c1", pageIndex: 0, subtype: .text, rect: Rect(x: 40, y: 40, width: 20, height: 20), author: "Bob",
                   modified: PDFDate(year: 2026, month: 3, day: 4, hour: 9, minute: 15), contents: "Check the total", order: 0),
        Annotation(id: "c2", pageIndex: 0, subtype: .text, rect: Rect(x: 40, y: 40, width: 20, height: 20), author: "Alice",
                   modified: PDFDate(year: 2026, month: 3, day: 5, hour: 11, minute: 0), contents: "Fixed", inReplyTo: "c1",
                   replyType: .reply, order: 1),
        Annotation(id: "c3", pageIndex: 0, subtype: "Highlight", rect: Rect(x: 100, y: 300, width: 200, height: 12), author: "Carol",
                   modified: PDFDate(year: 2026, month: 3, day: 6, hour: 16, minute: 45), order: 2),
    ]

    func lines(_ editor: EditorHarness) -> [String] {
        editor.screen().lines.map { line in String(line.reversed().drop { $0 == " " }.reversed()) }
    }

    @Test func thePageWithASelectedText() {
        var editor = EditorHarness(pages: 3, columns: 64, rows: 8)
        editor.placeText("Approved")
        #expect(lines(editor).suffix(2) == [
            " page 1/3 │ [modified] │ selected \"Approved\" 14pt red │ text 14…",
            "F1 shows the keys",
        ])
    }

    @Test func theAnnotationListBesideThePage() {
        var editor = EditorHarness(pages: 3, columns: 80, rows: 10, annotations: Self.thread)
        editor.press(Key.character("a"))
        #expect(lines(editor) == [
            "                                                │ Annotations · page 1 · 3",
            "                                                │ p1 Note · Bob · 2026-03-04 0…",
            "                                                │   “Check the total”",
            "                                                │   ↳ Reply · Alice · 2026-03-…",
            "                                                │       “Fixed”",
            "                                                │ p1 Highlight · Carol · 2026-…",
            "                                                │   (no text)",
            "                                                │",
            " page 1/3  │  text 14pt red  │  zoom 100%  │  contract.pdf",
            "j/k move · Enter thread · r reply · s state · m mark · e edit · x delete · A pa…",
        ])
        // The selected entry's two rows stand out across the panel; the others do not.
        let screen = editor.screen()
        let selected = screen[60, 1].style, plain = screen[60, 3].style
        #expect(selected != plain && screen[78, 2].style == selected && screen[78, 5].style == plain)
    }

    @Test func aQuestionOverTheBookmarks() {
        var editor = EditorHarness(pages: 3, columns: 64, rows: 8)
        editor.state.document.bookmarks = BookmarkList([Bookmark(id: "a", pageIndex: 2, name: "Results", sortKey: 0),
                                                        Bookmark(id: "b", pageIndex: 0, name: "Method", sortKey: 1)])
        editor.press(.character("B"), .character("j"), .character(":"))
        editor.type("w /tmp/r.pdf")
        editor.press(.enter)
        editor.send(.saveFinished(.destinationExists(path: "/tmp/r.pdf")))
        #expect(lines(editor) == [
            "                                       │ Bookmarks · 2 · your …",
            "                                       │ Results             p3",
            "                                       │ Method              p1",
            "                                       │",
            "                                       │",
            "                                       │",
            " page 1/3 ★ bookmarked │ text 14pt red │ zoom 100% │ contract.p…",
            "/tmp/r.pdf exists. Overwrite it? (y/n)",
        ])
        editor.press(.character("n"))
        #expect(lines(editor).last == "Not saved")
        editor.press(.character("k"))
        #expect(lines(editor).last == "j/k move · Enter go · R rename · d delete · o order · K/J move …",
                "the panel has the keyboard again")
    }

    @Test func theKeysOverTheList() {
        var editor = EditorHarness(pages: 3, columns: 64, rows: 12, annotations: Self.thread)
        editor.press(Key.character("a"), Key.character("?"))
        #expect(lines(editor) == [
            "",
            "  Redline keys   (1–6 of 201: j/k scroll)",
            "",
            "  The page",
            "    j WheelDown             scroll down, on to the next page a…",
            "    k WheelUp               scroll up, back to the previous pa…",
            "    h                       scroll left (zoomed)",
            "    l                       scroll right (zoomed)",
            "    Space                   a screen down, then the next page",
            "",
            " page 1/3  │  text 14pt red  │  zoom 100%  │  contract.pdf",
            "j/k scroll · Space/Backspace a screen · Esc closes",
        ])
    }
}
