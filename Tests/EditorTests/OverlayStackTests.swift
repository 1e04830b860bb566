import Editor
import RedlineCore
import TerminalGrid
import Testing

/// What is on screen and what has the keyboard: overlays stack over the side panel, and closing one gives
/// the keyboard back to what was under it, as it was.
@Suite struct OverlayStackTests {
    static let annotations = (1...30).map { number in
        Annotation(id: AnnotationID("n\(number)"), pageIndex: 0, subtype: .text,
                   rect: Rect(x: 50, y: Double(number) * 20, width: 20, height: 20), author: "Bob",
                   contents: "Note \(number)", order: number)
    }

    func editorWithList() -> EditorHarness {
        var editor = EditorHarness(columns: 100, rows: 20, annotations: Self.annotations)
        editor.press(Key.character("a"), Key.character("j"), Key.character("j"))
        return editor
    }

    @Test func aQuestionAskedFromTheListGoesBackToTheListAsItWas() throws {
        var editor = editorWithList()
        let before = try #require(editor.state.interaction.annotationPanel)
        #expect(before.selected == "n3")
        editor.press(.character(":"))
        #expect(editor.state.focus == .overlay(.commandLine("")))
        #expect(editor.screen().lines.contains { $0.contains("Annotations · page 1 · 30") }, "the list stays on screen under the : line")
        editor.type("w /tmp/review.pdf")
        let effects = editor.press(.enter)
        #expect(effects.contains { if case .save = $0 { true } else { false } })
        editor.send(.saveFinished(.destinationExists(path: "/tmp/review.pdf")))
        guard case .overlay(.question(.overwrite)) = editor.state.focus else {
            Issue.record("no question: \(editor.state.focus)")
            return
        }
        #expect(editor.screen().lines.last?.hasPrefix("/tmp/review.pdf exists. Overwrite it? (y/n)") == true)
        editor.press(.character("n"))
        #expect(editor.state.focus == .panel(.annotations(before)), "the list, with the same entry selected")
        #expect(editor.state.message == "Not saved")
        editor.press(.character("j"))
        #expect(editor.state.interaction.annotationPanel?.selected == "n4", "keys act on the list again")
    }

    @Test func theHelpOverTheBookmarksGoesBackToThem() {
        var editor = EditorHarness(pages: 6, columns: 120, rows: 40)
        editor.state.document.bookmarks = BookmarkList([Bookmark(id: "a", pageIndex: 4, name: "Results", sortKey: 0),
                                                        Bookmark(id: "b", pageIndex: 1, name: "Method", sortKey: 1)])
        editor.press(.character("B"), .character("j"), .character("?"))
        #expect(editor.screen().lines.contains { $0.contains("Redline keys") })
        editor.press(.escape)
        #expect(editor.state.interaction.bookmarkPanel?.selected == editor.state.bookmarks.sorted(.custom)[1].id)
        #expect(editor.screen().lines.contains { $0.contains("Bookmarks · 2 · your order") })
        #expect(!editor.screen().lines.contains { $0.contains("Redline keys") })
    }

    @Test func theListPagesAndKeepsTheSelectedEntryInView() throws {
        var editor = editorWithList()
        // 20 rows: 18 for the panel, a title and 17 list rows: eight two-row entries fit.
        editor.press(.pageDown)
        let panel = try #require(editor.state.interaction.annotationPanel)
        #expect(panel.selected == "n10", "a page down from the third entry is seven entries on")
        let lines = editor.screen().lines
        let selectedRow = try #require(lines.firstIndex { $0.contains("“Note 10”") })
        #expect(selectedRow < 18, "the selected entry is on screen")
        editor.press(.end)
        #expect(editor.screen().lines.contains { $0.contains("“Note 30”") })
        #expect(!editor.screen().lines.contains { $0.contains("“Note 3”") }, "scrolled past the first entries")
        editor.press(.pageUp, .pageUp, .pageUp, .pageUp)
        #expect(editor.state.interaction.annotationPanel?.selected == "n2")
        #expect(editor.screen().lines.contains { $0.contains("“Note 2”") })
    }

    @Test func aClickOnAnEntrySelectsIt() throws {
        var editor = editorWithList()
        let area = try #require(editor.state.layout.panel)
        // The title, then two rows per entry: the fourth entry's first row.
        editor.send(.mouse(MouseEvent(.press, column: area.column + 5, row: area.row + 1 + 6)))
        #expect(editor.state.interaction.annotationPanel?.selected == "n4")
    }

    @Test func pastedTextGoesIntoTypingAndNeverRunsAsKeys() {
        var editor = EditorHarness()
        // On the page, a paste of a command is not run.
        let effects = editor.send(.pasted(":w!\r\nq"))
        #expect(effects.isEmpty)
        #expect(editor.state.focus == .page && !editor.state.isDirty)
        #expect(editor.state.message?.hasPrefix("Pasted text was not used") == true)
        // Into a text markup, as one line; escapes are only text.
        editor.press(.character("t"))
        editor.send(.pasted("Signed\r\n:w!\n\u{1B}[31mred\tend\n"))
        editor.press(.enter)
        #expect(editor.selectedText?.text == "Signed :w!  [31mred end ", "the escape is a space, and so is the last line break")
        #expect(editor.state.focus == .page)
        // Into the `:` line, where Enter runs it.
        editor.press(.character(":"))
        editor.send(.pasted("5"))
        #expect(editor.state.focus == .overlay(.commandLine("5")))
    }

    @Test func typingQuestionsAndTheMouseAreRemappedFromConfig() throws {
        var editor = EditorHarness(columns: 100, rows: 30)
        editor.state.keymaps = try Keymaps.standard.remapped([
            .init(context: "typing", key: "C-o", command: "commit-input", line: 1),
            .init(context: "typing", key: "C-w", command: "unbound", line: 2),
            .init(context: "questions", key: "o", command: "answer-yes", line: 3),
            .init(context: "page", key: "WheelDown", command: "next-page", line: 4),
            .init(context: "page", key: "Click", command: "unbound", line: 5),
            .init(context: "page", key: "q", command: "unbound", line: 6),
        ])
        editor.press(.character("t"))
        editor.type("Draft one")
        editor.press(.control("w"), .control("o"))
        #expect(editor.selectedText?.text == "Draft one", "C-w takes no word away, C-o commits")
        editor.send(.mouse(MouseEvent(.scrollDown, column: 10, row: 10)))
        #expect(editor.state.pageIndex == 1, "the wheel turns pages")
        let cursor = editor.state.cursor
        editor.send(.mouse(MouseEvent(.press, column: 30, row: 5)))
        #expect(editor.state.cursor == cursor && editor.state.selection == nil, "a click does nothing")
        #expect(editor.press(.character("q")).isEmpty && editor.state.focus == .page, "q does nothing")
        editor.command("w /tmp/x.pdf")
        editor.send(.saveFinished(.destinationExists(path: "/tmp/x.pdf")))
        let effects = editor.press(.character("o"))
        #expect(effects.contains { if case .save(let request) = $0 { request.allowOverwrite } else { false } })
    }

    @Test func bindingsAreCheckedTogetherNotLineByLine() throws {
        // Enter leaves commit-input only for the next line to give it C-o: accepted whichever comes first.
        let later = try Keymaps.standard.remapped([.init(context: "typing", key: "Enter", command: "unbound", line: 1),
                                                   .init(context: "typing", key: "C-o", command: "commit-input", line: 2)])
        #expect(later.keys(for: .commitInput, in: .typing) == [.control("o")])
        #expect(throws: Keymaps.RemappingError.self) {
            try Keymaps.standard.remapped([.init(context: "questions", key: "y", command: "unbound", line: 3)])
        }
    }

    @Test func questionsAndTheQuitHintNameTheKeysInForce() throws {
        var editor = EditorHarness(columns: 120, rows: 30)
        editor.state.keymaps = try Keymaps.standard.remapped([
            .init(context: "questions", key: "o", command: "answer-yes", line: 1),
            .init(context: "questions", key: "y", command: "unbound", line: 2),
            .init(context: "page", key: "q", command: "unbound", line: 3),
        ])
        editor.press(.control("c"))
        #expect(editor.state.message == "To quit: :wq saves and quits, :q! discards")
        editor.command("w /tmp/x.pdf")
        editor.send(.saveFinished(.destinationExists(path: "/tmp/x.pdf")))
        #expect(editor.screen().lines.last?.hasPrefix("/tmp/x.pdf exists. Overwrite it? (o/n)") == true)
    }

    @Test func theHelpPagesAndTheThreadViewReachesItsEnd() throws {
        var editor = EditorHarness(columns: 100, rows: 20)
        editor.press(.function(1), .pageDown)
        #expect(editor.state.focus == .overlay(.help(scroll: 13)), "a screen of 14 rows less one")
        editor.press(.escape)
        var long = Self.annotations
        long[0].contents = (1...80).map { "Line \($0) of a long comment." }.joined(separator: "\n")
        var threads = EditorHarness(columns: 100, rows: 20, annotations: long)
        threads.press(Key.character("a"), Key.enter, Key.end)
        #expect(threads.screen().lines.contains { $0.contains("Line 80 of a long comment.") })
        threads.press(.home)
        #expect(threads.screen().lines.contains { $0.contains("Line 1 of a long comment.") })
    }

    @Test func textTooWideForThePageIsNotCommittedAndStaysTyped() throws {
        var editor = EditorHarness(columns: 100, rows: 20)
        editor.press(.character("t"))
        // 14 pt at 7 pt a character: 90 characters are 630 pt, wider than the 612 pt page.
        editor.type(String(repeating: "w", count: 90))
        editor.press(.enter)
        #expect(editor.state.markup.isEmpty)
        #expect(editor.state.message == "Too wide for the page (630 of 612 pt): shorten it, or Esc")
        #expect(editor.screen().lines.last?.hasPrefix("Too wide for the page") == true)
        editor.press(.backspace, .backspace, .backspace, .enter)
        #expect(editor.selectedText?.text.count == 87, "609 pt fits")
        editor.press(.character("+"))
        #expect(editor.state.message == "At 16 pt the text would be wider than the page")
        #expect(editor.selectedText?.fontSize == 14)
    }

    @Test func theEndOfALongTextStaysInViewWhileTyping() throws {
        var editor = EditorHarness(columns: 60, rows: 12)
        editor.press(.character("t"))
        editor.type(String(repeating: "a", count: 200) + "THE END")
        let line = try #require(editor.screen().lines.last)
        #expect(line.hasPrefix("Text: …a"))
        #expect(line.trimmingCharacters(in: .whitespaces).hasSuffix("THE END▏"))
    }
}

/// The list component alone: paging never scrolls past the end, and comes back by whole pages.
@Suite struct PanelListTests {
    static let entries = (0..<21).map { (id: $0, rows: 1) }

    @Test func pageDownStopsWithTheLastEntryAtTheFoot() {
        var list = PanelList<Int>(selected: 0)
        list.move(.pageDown, over: Self.entries, height: 10)
        #expect(list.selected == 9 && list.shownTop(Self.entries, height: 10) == 9)
        list.move(.pageDown, over: Self.entries, height: 10)
        #expect(list.selected == 18 && list.shownTop(Self.entries, height: 10) == 11, "the last ten entries fill the panel")
        list.move(.pageDown, over: Self.entries, height: 10)
        #expect(list.selected == 20 && list.shownTop(Self.entries, height: 10) == 11)
        list.move(.pageUp, over: Self.entries, height: 10)
        #expect(list.selected == 11 && list.shownTop(Self.entries, height: 10) == 2)
        list.move(.pageUp, over: Self.entries, height: 10)
        #expect(list.selected == 2 && list.shownTop(Self.entries, height: 10) == 0)
    }

    @Test func aListThatFitsNeverScrolls() {
        let few = (0..<5).map { (id: $0, rows: 2) }
        var list = PanelList<Int>(selected: 0)
        list.move(.pageDown, over: few, height: 20)
        #expect(list.selected == 4 && list.shownTop(few, height: 20) == 0)
    }
}
