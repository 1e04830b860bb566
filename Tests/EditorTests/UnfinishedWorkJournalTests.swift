import Foundation
import Editor
import TerminalGrid
import RedlineCore
import Testing

/// Text still being typed and ink with the pen still down are journaled as they grow, so a crash in the
/// middle of either loses nothing (the runner spaces the writes out: its journal debounce).
@Suite struct UnfinishedWorkJournalTests {
    /// What the runner would write after these effects, read back as a restore reads it: the journal's
    /// operations replayed onto the untouched document. Nil when the effects ask for no journal.
    func journaled(_ effects: [EditorEffect], in editor: EditorHarness) -> DocumentEdits? {
        guard effects.contains(.journalChanged), !editor.state.journalIsUnneeded else { return nil }
        var replayed = DocumentEdits()
        for operation in editor.state.journalOperations {
            replayed.apply(operation, bookmarkBase: editor.state.document.bookmarks)
        }
        return replayed
    }

    func texts(_ edits: DocumentEdits?) -> [String] {
        (edits?.markup.items ?? []).compactMap { item in
            if case .text(let text) = item.content { return text.text }
            return nil
        }
    }

    @Test func textBeingTypedIsInTheJournalAfterEveryKeystroke() {
        var editor = EditorHarness()
        editor.press(.character("t"))
        #expect(texts(journaled(editor.type("Hal"), in: editor)) == ["Hal"])
        #expect(texts(journaled(editor.press(.backspace), in: editor)) == ["Ha"])
        #expect(editor.state.edits.isEmpty, "still only a draft: nothing committed, nothing to undo")
        // Esc drops the draft: on an otherwise untouched document the journal goes too.
        #expect(editor.press(.escape) == [.journalChanged])
        #expect(editor.state.journalIsUnneeded)
    }

    @Test func editingAnExistingTextJournalsTheNewWordingInItsPlace() {
        var editor = EditorHarness()
        editor.placeText("Draft")
        editor.press(.enter)
        editor.type(" two")
        let edits = journaled(editor.effects, in: editor)
        #expect(texts(edits) == ["Draft two"])
        #expect(edits?.markup.items.count == 1)
    }

    @Test func inkWithThePenDownIsInTheJournalAsItGrows() {
        var editor = EditorHarness()
        editor.press(.character("i"), .character(" "))
        let effects = editor.press(.right, .right, .down)
        let edits = journaled(effects, in: editor)
        guard case .ink(let ink)? = edits?.markup.items.last?.content else {
            Issue.record("the stroke being drawn is journaled")
            return
        }
        #expect(ink.strokes.count == 1 && ink.strokes[0].count == 4)
        #expect(editor.state.edits.isEmpty)
        // Leaving ink mode commits it: the journal then holds it once, as a markup.
        let committed = journaled(editor.press(.escape), in: editor)
        #expect(committed?.markup.items.count == 1)
        #expect(committed == editor.state.edits)
    }

    @Test func switchingToolsCommitsTheStrokesOnceNotTwice() {
        var editor = EditorHarness()
        editor.press(.character("i"), .character(" "), .right, .right, .enter)
        let edits = journaled(editor.press(.character("h")), in: editor)
        #expect(edits?.markup.items.count == 1, "the pen's strokes, committed, and nothing pending beside them")
    }

    /// A polygon with its corners still being placed is journaled as it stands, and the journal's operations, as
    /// JSON on disk, bring it back.
    @Test func aShapeBeingDrawnIsInTheJournalAndSurvivesTheJournalsJSON() throws {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 100, y: 100)
        editor.press(.character("i"), .character("P"), .character(" "), .shiftRight, .character(" "))
        let edits = try #require(journaled(editor.press(.shiftDown, .character(" ")), in: editor))
        guard case .shape(let shape)? = edits.markup.items.first?.content else { Issue.record("no shape journaled"); return }
        #expect(shape.kind == .polygon && shape.points == [Point(x: 100, y: 100), Point(x: 110, y: 100), Point(x: 110, y: 110)])
        let json = try JSONEncoder().encode(editor.state.journalOperations)
        let read = try JSONDecoder().decode([DocumentOperation].self, from: json)
        #expect(read == editor.state.journalOperations)
    }

    @Test func aJournalOfUnfinishedTextRestoresAsMarkup() {
        var crashed = EditorHarness()
        crashed.press(.character("t"))
        let edits = journaled(crashed.type("Halfway"), in: crashed)!
        var reopened = EditorHarness()
        reopened.send(.journalFound(edits))
        reopened.press(.character("y"))
        #expect(texts(reopened.state.edits) == ["Halfway"])
    }

    @Test func aReplyBeingTypedIsInTheJournal() {
        let comment = Annotation(id: "c1", pageIndex: 0, subtype: .text, rect: Rect(x: 10, y: 10, width: 20, height: 20),
                                 author: "Bob", contents: "Check this", flags: 4)
        var editor = EditorHarness(annotations: [comment])
        editor.press(.character("a"), .character("r"))
        let edits = journaled(editor.type("Agreed, will"), in: editor)
        let reply = edits?.annotations.added.first
        #expect(reply?.contents == "Agreed, will" && reply?.inReplyTo == "c1" && reply?.author == "Alice")
        #expect(editor.state.edits.isEmpty)
        // Sent: once in the journal, as the reply.
        let sent = journaled(editor.press(.enter), in: editor)
        #expect(sent?.annotations.added.count == 1 && sent == editor.state.edits)
    }

    @Test func theDefaultSaveNameFitsAFileName() {
        let editor = EditorHarness(path: "/docs/" + String(repeating: "é", count: 127) + ".pdf")
        let name = editor.state.defaultSavePath.split(separator: "/").last.map(String.init) ?? ""
        #expect(name.utf8.count <= 255 && name.hasSuffix("-marked.pdf"))
    }
}
