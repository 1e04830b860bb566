import Editor
import RedlineCore
import TerminalGrid
import Testing

/// Bookmarks through the state machine: `b`, the `B` panel, undo, and the save.
@Suite struct BookmarkPanelTests {
    func editor(bookmarks: [Bookmark] = [], pages: Int = 6) -> EditorHarness {
        var editor = EditorHarness(pages: pages, columns: 120, rows: 40)
        editor.state.document.bookmarks = BookmarkList(bookmarks)
        return editor
    }

    var panel: (EditorHarness) -> BookmarkPanel? = { editor in
        if let panel = editor.state.interaction.bookmarkPanel { return panel }
        return nil
    }

    @Test func bTogglesTheCurrentPageAndTheStatusLineSaysSo() {
        var editor = editor()
        editor.press(.character("j"), .character("b"))
        #expect(editor.state.message == "Bookmarked page 2")
        #expect(editor.screen().lines[38].contains("page 2/6 ★ bookmarked"))
        #expect(editor.state.bookmarks.bookmarks(onPage: 1).count == 1)
        #expect(editor.state.isDirty)
        editor.press(.character("b"))
        #expect(editor.state.message == "Bookmark on page 2 removed")
        #expect(editor.state.bookmarks.isEmpty)
        #expect(!editor.state.isDirty, "back to what the file holds")
        editor.press(.character("u"))
        #expect(editor.state.bookmarks.bookmarks(onPage: 1).count == 1)
    }

    @Test func thePanelListsNamesAndPagesAndEnterJumps() throws {
        var editor = editor(bookmarks: [Bookmark(id: "a", pageIndex: 4, name: "Results", sortKey: 0),
                                        Bookmark(id: "b", pageIndex: 1, name: "Method", sortKey: 1),
                                        Bookmark(id: "c", pageIndex: nil, name: "Website", sortKey: 2)])
        editor.press(.character("B"))
        let screen = editor.screen().lines.joined(separator: "\n")
        #expect(screen.contains("Bookmarks · 3 · your order"))
        #expect(screen.contains("Results"))
        #expect(screen.contains("p5"))
        #expect(screen.contains("Website"))
        editor.press(.character("j"), .enter)
        #expect(editor.state.focus == .page)
        #expect(editor.state.pageIndex == 1)
        editor.press(.character("B"), .character("G"), .enter)
        #expect(editor.state.message == "Website does not lead to a page")
    }

    @Test func theOrdersAndMovingInTheCustomOrder() throws {
        var editor = editor(bookmarks: [Bookmark(id: "a", pageIndex: 4, name: "Results", sortKey: 0),
                                        Bookmark(id: "c", pageIndex: nil, name: "Website", sortKey: 1),
                                        Bookmark(id: "b", pageIndex: 1, name: "Method", sortKey: 2)])
        editor.press(.character("B"), .character("o"))
        #expect(try #require(panel(editor)).order == .page)
        #expect(editor.state.bookmarks.sorted(.page).map(\.name) == ["Method", "Results", "Website"])
        editor.press(.character("K"))
        #expect(editor.state.message == "Bookmarks move in your own order: o switches to it")
        editor.press(.character("o"), .character("G"), .character("K"), .character("K"))
        #expect(editor.state.bookmarks.sorted(.custom).map(\.name) == ["Method", "Results", "Website"])
        editor.press(.character("u"), .character("u"))
        #expect(editor.state.bookmarks.sorted(.custom).map(\.name) == ["Results", "Website", "Method"])
    }

    @Test func renameKeepsTheIdentifierAndDeleteRemoves() throws {
        var editor = editor(bookmarks: [Bookmark(id: "a", pageIndex: 4, name: "Results", sortKey: 0),
                                        Bookmark(id: "b", pageIndex: 1, sortKey: 1)])
        editor.press(.character("B"), .character("j"), .character("R"))
        editor.type("Method")
        #expect(editor.screen().lines.last?.hasPrefix("Name: Method▏") == true)
        editor.press(.enter)
        #expect(editor.state.bookmarks.bookmark("B")?.name == "Method")
        #expect(editor.state.bookmarks.sorted(.custom).map(\.id) == ["A", "B"])
        editor.press(.character("d"))
        #expect(editor.state.bookmarks.bookmarks.map(\.id) == ["A"])
        #expect(try #require(panel(editor)).selected == "A")
        editor.press(.character("u"), .character("u"))
        #expect(editor.state.bookmarks.bookmark("B")?.name == nil)
    }

    @Test func savingCarriesTheBookmarksEvenWithoutMarkup() throws {
        var editor = editor()
        editor.press(.character("b"))
        let effects = editor.command("w")
        guard case .save(let request)? = effects.first else {
            Issue.record("no save: \(effects)")
            return
        }
        #expect(request.edits.markup.isEmpty)
        #expect(request.edits.bookmarks?.bookmarks.map(\.pageIndex) == [0])
        editor.send(.saveFinished(.saved(path: request.destination, edits: request.edits)))
        #expect(!editor.state.isDirty)
    }

    @Test func unreadableBookmarksAreSaidOnOpen() {
        let page = PageGeometry(mediaBox: PDFBox(x1: 0, y1: 0, x2: 612, y2: 792))
        var document = DocumentDescription(pages: [page])
        document.bookmarkProblems = ["the XMP metadata is malformed: not well-formed XML"]
        let state = EditorState(documentPath: "/x/a.pdf", document: document, columns: 80, rows: 24)
        #expect(state.message == "Bookmarks not read: the XMP metadata is malformed: not well-formed XML")
        let screen = EditorView.draw(state, environment: EditorEnvironment(measurer: FixedMeasurer()), picture: nil)
        #expect(screen.text(ofRow: 22).contains("bookmarks not read"))
    }

    @Test func unsavedBookmarksSurviveACrash() {
        var crashed = editor()
        crashed.press(.character("j"), .character("b"))
        var reopened = editor()
        reopened.send(.journalFound(crashed.state.edits))
        #expect(reopened.state.focus == .overlay(.question(.restoreJournal(crashed.state.edits))))
        #expect(Confirmation.restoreJournal(crashed.state.edits).question().hasPrefix("Unsaved changes (bookmarks)"))
        reopened.press(.character("y"))
        #expect(reopened.state.bookmarks.bookmarks(onPage: 1).count == 1)
        #expect(reopened.state.message == "Restored the unsaved bookmarks")
    }
}
