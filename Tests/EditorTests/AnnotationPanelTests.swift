import Editor
import RedlineCore
import TerminalGrid
import Testing

/// The annotation list through the state machine: keys in, state, edits and screen out.
@Suite struct AnnotationPanelTests {
    /// A review on two pages: Bob's highlight with Carol's reply and a state, a note on page 2, and a link.
    static func document() -> [Annotation] {
        func date(_ minute: Int) -> PDFDate { PDFDate(year: 2024, month: 3, day: 4, hour: 9, minute: minute) }
        return [
            Annotation(id: "hl", pageIndex: 0, subtype: "Highlight", rect: Rect(x: 100, y: 200, width: 150, height: 14),
                       author: "Bob", created: date(0), contents: "Wrong figure\nsee table 2", flags: 4, order: 0),
            Annotation(id: "carol", pageIndex: 0, subtype: .text, rect: Rect(x: 100, y: 200, width: 150, height: 14),
                       author: "Carol", created: date(5), contents: "Agreed", inReplyTo: "hl", flags: 28, order: 1),
            Annotation(id: "link", pageIndex: 0, subtype: .link, rect: Rect(x: 10, y: 10, width: 50, height: 10), order: 2),
            Annotation(id: "bob-state", pageIndex: 0, subtype: .text, rect: Rect(x: 100, y: 200, width: 150, height: 14),
                       author: "Bob", created: date(6), inReplyTo: "hl", state: .rejected, flags: 60, order: 3),
            Annotation(id: "note", pageIndex: 1, subtype: .text, rect: Rect(x: 400, y: 600, width: 20, height: 20),
                       author: "Dan", created: date(9), contents: "Sign here", flags: 28, order: 4),
        ]
    }

    func editor(reviewer: Reviewer = Reviewer(author: "Alice")) -> EditorHarness {
        EditorHarness(columns: 120, rows: 40, annotations: Self.document(), reviewer: reviewer)
    }

    var panel: (EditorHarness) -> AnnotationPanel? = { editor in
        if let panel = editor.state.interaction.annotationPanel { return panel }
        return nil
    }

    /// Acrobat's "replace text" is a caret holding the new words and a strike-out grouped with it (/RT /Group): one
    /// comment in the list, not a caret with an empty reply; a real reply to it is still a reply.
    @Test func aCaretAndTheStrikeOutGroupedWithItAreOneReplaceTextComment() throws {
        let date = PDFDate(year: 2024, month: 3, day: 4, hour: 9, minute: 0)
        let annotations = [
            Annotation(id: "caret", pageIndex: 0, subtype: .caret, rect: Rect(x: 100, y: 200, width: 10, height: 14),
                       author: "Bob", created: date, contents: "forty-two", flags: 4, order: 0),
            Annotation(id: "strike", pageIndex: 0, subtype: .strikeOut, rect: Rect(x: 60, y: 200, width: 40, height: 14),
                       author: "Bob", created: date, inReplyTo: "caret", replyType: .group, flags: 4, order: 1),
            Annotation(id: "answer", pageIndex: 0, subtype: .text, rect: Rect(x: 100, y: 200, width: 10, height: 14),
                       author: "Carol", created: date, contents: "Yes", inReplyTo: "caret", flags: 28, order: 2),
        ]
        var editor = EditorHarness(columns: 120, rows: 40, annotations: annotations)
        editor.press(.character("a"))
        let rows = editor.state.annotationRows(try #require(panel(editor)))
        #expect(rows.map(\.annotation.id) == ["caret", "answer"])
        let screen = editor.screen().lines.joined(separator: "\n")
        #expect(screen.contains("p1 Replace text · Bob · 2024-03-04 09:00"))
        #expect(screen.contains("“forty-two”"))
        #expect(!screen.contains("(no text)"))
        #expect(screen.contains("↳ Reply · Carol"))
    }

    @Test func theListShowsThreadsOfThisPageWithStatesAndLeavesLinksOut() throws {
        var editor = editor()
        editor.press(.character("a"))
        let open = try #require(panel(editor))
        let rows = editor.state.annotationRows(open)
        #expect(rows.map(\.annotation.id) == ["hl", "carol", "bob-state"])
        #expect(rows.map(\.depth) == [0, 1, 1])
        #expect(rows[0].stateSummary == "Rejected — Bob")
        let screen = editor.screen().lines.joined(separator: "\n")
        #expect(screen.contains("Annotations · page 1"))
        #expect(screen.contains("p1 Highlight · Bob · 2024-03-04 09:00"))
        #expect(screen.contains("“Wrong figure”  [Rejected — Bo"))
        #expect(screen.contains("↳ Reply · Carol · 2024-03-04 09:05"))
        #expect(screen.contains("↳ ◆ Rejected — Bob · 2024-03-04 09:06"))
        #expect(!screen.contains("Link"))
        editor.press(.character("w"))
        #expect(editor.state.annotationRows(try #require(panel(editor))).contains { $0.annotation.id == "link" })
    }

    @Test func movingThroughTheWholeDocumentTurnsPagesAndOutlinesTheAnnotation() throws {
        var editor = editor()
        editor.press(.character("a"), .character("A"))
        #expect(try #require(panel(editor)).scope == .document)
        editor.press(.character("G"))
        #expect(try #require(panel(editor)).selected == "note")
        #expect(editor.state.pageIndex == 1)
        #expect(editor.state.scene(environment: editor.environment).highlight == Rect(x: 400, y: 600, width: 20, height: 20))
        editor.press(.character("g"))
        #expect(editor.state.pageIndex == 0)
        #expect(editor.state.scene(environment: editor.environment).highlight == Rect(x: 100, y: 200, width: 150, height: 14))
        editor.press(.escape)
        #expect(editor.state.focus == .page)
        #expect(editor.state.scene(environment: editor.environment).highlight == nil)
    }

    @Test func enterShowsTheWholeThreadWithFullTexts() throws {
        var editor = editor()
        editor.press(.character("a"), .enter)
        let screen = editor.screen().lines.joined(separator: "\n")
        #expect(screen.contains("Wrong figure"))
        #expect(screen.contains("see table 2"))
        #expect(screen.contains("Reply · Carol · 2024-03-04 09:05"))
        #expect(screen.contains("◆ Rejected set by Bob"))
        editor.press(.escape)
        #expect(try #require(panel(editor)).showsThread == false)
    }

    @Test func aReplyIsTypedInThePanelAndUndoTakesItBack() throws {
        var editor = editor()
        editor.press(.character("a"), .character("r"))
        editor.type("Fixed in v2")
        #expect(editor.screen().lines.last?.hasPrefix("Reply: Fixed in v2▏") == true)
        let effects = editor.press(.enter)
        let reply = try #require(editor.state.edits.annotations.added.first)
        #expect(reply.inReplyTo == "hl")
        #expect(reply.author == "Alice")
        #expect(reply.contents == "Fixed in v2")
        #expect(reply.created == EditorHarness.now)
        #expect(effects == [.journalChanged])
        #expect(editor.state.isDirty)
        // The thread updates at once; the selection stays on what was answered.
        #expect(try #require(panel(editor)).selected == "hl")
        #expect(editor.screen().lines.joined().contains("Reply · Alice · 2026-11-22 10:30"))
        editor.press(.character("u"))
        #expect(editor.state.edits.annotations.isEmpty)
        #expect(!editor.state.isDirty)
        editor.press(.control("r"))
        #expect(editor.state.edits.annotations.added.map(\.contents) == ["Fixed in v2"])
    }

    /// The rows, threads and what Tab selects are made once per change of the annotations and shared by copies of
    /// a state: a copy taken before a change keeps listing what it had, the changed state lists the change, and an
    /// undo lists the first again.
    @Test func whatIsMadeOncePerChangeFollowsEveryChangeAndEveryCopy() throws {
        var editor = editor()
        editor.press(.character("a"))
        let before = editor.state
        let ids = { (state: EditorState) in state.annotationRows(try #require(state.interaction.annotationPanel)).map(\.annotation.id) }
        #expect(try ids(before) == ["hl", "carol", "bob-state"])
        editor.press(.character("r"))
        editor.type("Looked at it")
        editor.press(.enter)
        let after = try ids(editor.state)
        #expect(after.count == 4 && after.contains { !["hl", "carol", "bob-state"].contains($0.rawValue) })
        #expect(try ids(before) == ["hl", "carol", "bob-state"])
        #expect(try ids(editor.state) == after)
        #expect(editor.state.annotationThreads.first { $0.root.id == "hl" }?.members.count == 4)
        #expect(before.annotationThreads.first { $0.root.id == "hl" }?.members.count == 3)
        editor.press(.escape, .character("u"), .character("a"))
        #expect(try ids(editor.state) == ["hl", "carol", "bob-state"])
    }

    /// The list opens at the annotation Tab selected on the page, and a reply typed at once answers that one.
    @Test func theListOpensAtTheAnnotationSelectedOnThePage() throws {
        let date = PDFDate(year: 2024, month: 3, day: 4, hour: 9, minute: 0)
        let annotations = [
            Annotation(id: "upper", pageIndex: 0, subtype: .text, rect: Rect(x: 100, y: 100, width: 20, height: 20),
                       author: "Bob", created: date, contents: "First", flags: 28, order: 0),
            Annotation(id: "lower", pageIndex: 0, subtype: .text, rect: Rect(x: 100, y: 400, width: 20, height: 20),
                       author: "Bob", created: date, contents: "Second", flags: 28, order: 1),
        ]
        var editor = EditorHarness(columns: 120, rows: 40, annotations: annotations)
        editor.press(.tab, .tab)
        #expect(editor.state.interaction.selectedAnnotation == "lower")
        editor.press(.character("a"))
        #expect(try #require(panel(editor)).selected == "lower")
        editor.press(.character("r"))
        editor.type("Answer")
        editor.press(.enter)
        #expect(editor.state.edits.annotations.added.first { $0.contents == "Answer" }?.inReplyTo == "lower")
        // Without a selection on the page, the list opens at its first entry.
        var fresh = EditorHarness(columns: 120, rows: 40, annotations: annotations)
        fresh.press(.character("a"))
        #expect(try #require(panel(fresh)).selected == "upper")
    }

    @Test func statesAreChosenAndMarkedToggles() throws {
        var editor = editor()
        editor.press(.character("a"), .character("s"))
        #expect(editor.screen().lines.last?.hasPrefix("Review state: a Accepted") == true)
        editor.press(.character("a"))
        var rows = editor.state.annotationRows(try #require(panel(editor)))
        #expect(rows[0].stateSummary == "Accepted — Alice")
        editor.press(.character("s"), .character("o"))
        rows = editor.state.annotationRows(try #require(panel(editor)))
        #expect(rows[0].stateSummary == "Completed — Alice")
        let added = editor.state.edits.annotations.added
        #expect(added.map(\.state) == [.accepted, .completed])
        #expect(added[1].inReplyTo == added[0].id)
        editor.press(.character("g"), .character("m"))
        #expect(editor.state.annotationRows(try #require(panel(editor)))[0].stateSummary == "Completed — Alice · Marked")
        editor.press(.character("m"))
        #expect(editor.state.annotationRows(try #require(panel(editor)))[0].stateSummary == "Completed — Alice")
        editor.press(.character("u"), .character("u"), .character("u"), .character("u"))
        #expect(editor.state.edits.annotations.isEmpty)
    }

    /// Reply, then review: the state and the mark belong to the comment, not to the reply just written,
    /// and the row that receives them is the selected one.
    @Test func aReviewAfterAReplyLandsOnTheThreadsAnnotation() throws {
        var editor = editor()
        editor.press(.character("a"), .character("r"))
        editor.type("Looked at it")
        editor.press(.enter)
        editor.press(.character("s"), .character("a"), .character("m"))
        let added = editor.state.edits.annotations.added
        let reply = try #require(added.first { $0.contents == "Looked at it" })
        #expect(reply.inReplyTo == "hl")
        let states = added.filter { $0.state != nil }
        #expect(states.count == 2)
        #expect(states.allSatisfy { $0.inReplyTo == "hl" }, "states set on \(states.map(\.inReplyTo))")
        let rows = editor.state.annotationRows(try #require(panel(editor)))
        #expect(rows[0].stateSummary == "Accepted — Alice · Marked")
        let replySummary = rows.first { $0.annotation.id == reply.id }?.stateSummary ?? ""
        #expect(replySummary.contains("Accepted") == false)
        // What the screen shows as selected is the comment's row.
        let screen = editor.screen()
        let selectedRows = (0..<screen.rows).filter { row in
            (0..<screen.columns).contains { screen[$0, row].style.background == Theme.selectedRow.background }
        }
        #expect(!selectedRows.isEmpty)
        #expect(selectedRows.allSatisfy { row in
            let line = screen.lines[row]
            return line.contains("Highlight") || line.contains("Wrong figure")
        }, "selected rows: \(selectedRows.map { screen.lines[$0] })")
    }

    @Test func aColonInTheListOpensTheCommandLine() {
        var editor = editor()
        editor.press(.character("a"), .character(":"))
        #expect(editor.state.focus == .overlay(.commandLine("")))
    }

    @Test func onlyYourOwnRepliesAreEditedOrDeleted() throws {
        var editor = editor()
        editor.press(.character("a"), .character("j"))
        #expect(try #require(panel(editor)).selected == "carol")
        editor.press(.character("e"))
        #expect(editor.state.message == "Carol wrote this: only your own replies can be edited")
        editor.press(.character("x"))
        #expect(editor.state.message?.hasPrefix("Not changed: annotation \"carol\" is Carol's") == true)
        #expect(editor.state.edits.annotations.isEmpty)
        // Alice replies, then edits and deletes her own reply.
        editor.press(.character("r"))
        editor.type("Draft")
        editor.press(.enter)
        #expect(try #require(panel(editor)).selected == "carol")
        let id = try #require(editor.state.edits.annotations.added.first?.id)
        // Her reply answers Carol's and follows it in the list: selected deliberately, it can be edited.
        let rows = editor.state.annotationRows(try #require(panel(editor)))
        let steps = try #require(rows.firstIndex { $0.annotation.id == id }) - 1
        for _ in 0..<steps { editor.press(.character("j")) }
        #expect(try #require(panel(editor)).selected == id)
        editor.press(.character("e"), .backspace, .backspace, .backspace, .backspace, .backspace)
        editor.type("Final")
        editor.press(.enter)
        #expect(editor.state.annotations.first { $0.id == id }?.contents == "Final")
        editor.press(.character("x"))
        #expect(!editor.state.annotations.contains { $0.id == id })
    }

    @Test func deletingAnAnnotationDeletesItsRepliesAndUndoBringsThemBack() throws {
        var editor = editor()
        editor.press(.character("a"), .character("x"))
        #expect(editor.state.message == "Deleted with 2 replies")
        #expect(editor.state.edits.annotations.deleted == ["hl", "carol", "bob-state"])
        #expect(editor.state.annotationRows(try #require(panel(editor))).isEmpty)
        editor.press(.character("u"))
        #expect(editor.state.annotations.map(\.id) == ["hl", "carol", "link", "bob-state", "note"])
    }

    @Test func withRepliesTurnedOffTheListShowsAnnotationsButNoThreadActions() throws {
        var editor = editor(reviewer: Reviewer(author: "Alice", threadActionsEnabled: false))
        editor.press(.character("a"))
        let rows = editor.state.annotationRows(try #require(panel(editor)))
        #expect(rows.map(\.annotation.id) == ["hl"])
        #expect(rows[0].stateSummary == nil)
        for key in [Key.character("r"), .character("s"), .character("m"), .enter] {
            editor.press(key)
            #expect(editor.state.message == "Replies and reviews are turned off (replies = false in config.toml)")
            #expect(try #require(panel(editor)).input == nil)
        }
        #expect(editor.state.edits.annotations.isEmpty)
    }

    @Test func theSaveCarriesTheAnnotationChangesWithTheMarkup() throws {
        var editor = editor()
        editor.placeText("Checked")
        editor.press(.character("a"), .character("s"), .character("a"), .escape)
        let effects = editor.command("w")
        guard case .save(let request)? = effects.first else {
            Issue.record("no save: \(effects)")
            return
        }
        #expect(request.edits.markup.items.count == 1)
        #expect(request.edits.annotations.added.map(\.state) == [.accepted])
        editor.send(.saveFinished(.saved(path: request.destination, edits: request.edits)))
        #expect(!editor.state.isDirty)
    }

    @Test func journaledAnnotationChangesAreRestoredOnlyWhenTheyStillFitTheDocument() throws {
        var original = editor()
        original.press(.character("a"), .character("r"))
        original.type("Unsaved reply")
        original.press(.enter)
        let journaled = original.state.edits

        var restored = editor()
        restored.send(.journalFound(journaled))
        restored.press(.character("y"))
        #expect(restored.state.annotations.contains { $0.contents == "Unsaved reply" })
        #expect(restored.state.message == "Restored the unsaved annotation changes")

        // Against a document that no longer holds the annotation answered, the changes are dropped.
        var other = EditorHarness(columns: 120, rows: 40, annotations: [], reviewer: Reviewer(author: "Alice"))
        other.send(.journalFound(journaled))
        other.press(.character("y"))
        #expect(other.state.edits.annotations.isEmpty)
    }

    @Test func aClickOnTheAnnotationsAreaSelectsItAndTheWheelMovesThroughTheList() throws {
        var editor = editor()
        editor.press(.character("a"), .character("A"), .character("G"))
        #expect(editor.state.pageIndex == 1)
        editor.press(.character("g"))
        let viewport = editor.state.viewport(cellPixels: editor.environment.cellPixels)
        editor.send(.mouse(MouseEvent(.scrollDown, column: 100, row: 5)))
        #expect(try #require(panel(editor)).selected == "carol")
        editor.send(.mouse(MouseEvent(.scrollUp, column: 100, row: 5)))
        #expect(try #require(panel(editor)).selected == "hl")
        editor.press(.character("G"), .character("g"))
        // The highlight's cell on screen, clicked after another row was selected.
        editor.press(.character("j"))
        let cell = viewport.cell(for: Point(x: 175, y: 205))
        editor.send(.mouse(MouseEvent(.press, column: cell.column, row: cell.row)))
        #expect(try #require(panel(editor)).selected == "hl")
    }
}

/// The list's filter (`f`) and the comment summary (`S`).
@Suite struct AnnotationListFilterTests {
    func editor() -> EditorHarness {
        EditorHarness(columns: 120, rows: 40, annotations: AnnotationPanelTests.document(), reviewer: Reviewer(author: "Alice"))
    }

    func panel(_ editor: EditorHarness) throws -> AnnotationPanel { try #require(editor.state.interaction.annotationPanel) }

    @Test func aFilterTypedInTheListNarrowsItAndSaysSo() throws {
        var editor = editor()
        editor.press(.character("a"), .character("A"), .character("f"))
        editor.type("author:dan")
        #expect(editor.screen().lines.last?.hasPrefix("Filter: author:dan▏") == true)
        editor.press(.enter)
        #expect(try panel(editor).filter == CommentFilter(authors: ["dan"]))
        #expect(editor.state.annotationRows(try panel(editor)).map(\.annotation.id) == ["note"])
        #expect(try panel(editor).selected == "note")
        let screen = editor.screen().lines.joined(separator: "\n")
        #expect(screen.contains("Annotations · all pages · 1 · author:dan"))
        #expect(screen.contains("Filtered: 1 thread listed"))

        // `f` again starts from the filter in force; an empty one lists everything again.
        editor.press(.character("f"))
        #expect(editor.screen().lines.last?.hasPrefix("Filter: author:dan▏") == true)
        editor.press(.control("u"), .enter)
        #expect(try panel(editor).filter.isEmpty)
        #expect(editor.state.annotationRows(try panel(editor)).map(\.annotation.id) == ["hl", "carol", "bob-state", "note"])
    }

    @Test func aFilterThatCannotBeReadStaysToBeCorrected() throws {
        var editor = editor()
        editor.press(.character("a"), .character("f"))
        editor.type("state:done")
        editor.press(.enter)
        #expect(try panel(editor).input == .filtering(text: "state:done"))
        #expect(editor.screen().lines.last?.contains("no review state is called “done”") == true)
        editor.press(.backspace, .backspace, .backspace, .backspace)
        editor.type("rejected")
        editor.press(.enter)
        #expect(try panel(editor).input == nil)
        #expect(editor.state.annotationRows(try panel(editor)).first?.annotation.id == "hl")

        // Nothing matching is said, on the page and in the list.
        editor.press(.character("f"), .control("u"))
        editor.type("unanswered")
        editor.press(.enter)
        #expect(editor.state.annotationRows(try panel(editor)).isEmpty)
        let screen = editor.screen().lines.joined(separator: "\n")
        #expect(screen.contains("Nothing matches unanswered on this page (A: whole document)"))
        #expect(screen.contains("Nothing matches the filter. f: change it"))
        editor.press(.character("f"), .escape)
        #expect(try panel(editor).filter == CommentFilter(unansweredOnly: true), "Esc leaves the filter as it was")
    }

    @Test func theSummaryIsAskedForWithTheListsFilterAndANameThatSaysTheFormat() throws {
        var editor = editor()
        editor.press(.character("a"), .character("A"), .character("f"))
        editor.type("kind:note")
        editor.press(.enter, .character("S"))
        #expect(try panel(editor).input == .summaryPath(text: editor.state.defaultSummaryPath))
        #expect(editor.state.defaultSummaryPath.hasSuffix("-comments.md"))
        editor.press(.control("u"))
        editor.type("review.txt")
        #expect(editor.press(.enter).isEmpty)
        #expect(editor.screen().lines.last?.contains("A summary is written as .md, .csv or .html") == true)
        editor.press(.backspace, .backspace, .backspace)
        editor.type("HTML")
        let effects = editor.press(.enter)
        guard case .writeCommentSummary(let request)? = effects.first else {
            Issue.record("no summary asked for: \(effects)")
            return
        }
        #expect(request.path == "review.HTML" && request.format == .html)
        #expect(request.filter == CommentFilter(kinds: [.text]))
        #expect(request.annotations == editor.state.annotations, "the annotations as they will be saved")
        #expect(try panel(editor).input == nil)
    }

    @Test func aSummaryThatCouldNotBeWrittenBringsItsNameBackToCorrect() throws {
        var editor = editor()
        editor.press(.character("a"), .character("S"), .control("u"))
        editor.type("/nowhere/s.md")
        editor.press(.enter)
        editor.send(.commentSummaryWritten(path: "/nowhere/s.md", failure: "the folder /nowhere does not exist"))
        #expect(try panel(editor).input == .summaryPath(text: "/nowhere/s.md"))
        #expect(editor.screen().lines.last?.contains("Not written: the folder /nowhere does not exist") == true)
        editor.press(.character("s"))
        #expect(try panel(editor).input == .summaryPath(text: "/nowhere/s.mds"), "keys go to the name, not the list")
        editor.press(.escape)
        editor.send(.commentSummaryWritten(path: "s.md", message: "Summary of the whole document's 2 comments, 1 reply written to ~/s.md"))
        #expect(editor.screen().lines.last?.hasPrefix("Summary of the whole document's 2 comments") == true)
    }
}
