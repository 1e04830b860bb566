import Editor
import Foundation
import PropertyBased
import RedlineCore
import TerminalGrid
import Testing
import TestSupport

/// Every change is an operation; undo takes back the reviewer's own last one and leaves everyone else's.
@Suite struct OperationHistoryTests {
    /// A collaborator's new markup, as it would arrive over the network.
    static func foreign(_ number: Int, page: Int = 0) -> DocumentOperation {
        let item = MarkupItem(id: MarkupID(StableUUID.derived(seed: 11, item: "remote \(number)")), pageIndex: page,
                              content: .text(TextMarkup(origin: Point(x: 300, y: Double(20 * number)), text: "Bob \(number)")))
        return DocumentOperation(id: StableUUID.derived(seed: 12, item: "remote op \(number)"), author: "Bob",
                                 time: EditorHarness.now, changes: [.insertMarkup(item: item, index: Int.max)])
    }

    func texts(_ editor: EditorHarness) -> [String] {
        editor.state.markup.items.compactMap { if case .text(let text) = $0.content { text.text } else { nil } }
    }

    @Test func undoLeavesAnotherAuthorsOperationsInPlaceWhateverTheInterleaving() async {
        // Each step: true places a local text, false receives a remote one.
        await propertyCheck(input: Gen.bool.array(of: 1...12)) { steps in
            var editor = EditorHarness()
            var local = 0, remote = 0
            for isLocal in steps {
                if isLocal {
                    local += 1
                    editor.press(.escape)
                    editor.state.cursor = Point(x: 40, y: Double(30 * local))
                    editor.placeText("Alice \(local)")
                } else {
                    remote += 1
                    editor.send(.operationReceived(Self.foreign(remote)))
                }
            }
            for _ in 0..<local { editor.press(.escape, .character("u")) }
            #expect(texts(editor).sorted() == (0..<remote).map { "Bob \($0 + 1)" }.sorted())
            editor.press(.character("u"))
            #expect(editor.state.message == "Nothing to undo")
            // Redo brings the reviewer's own back, beside the collaborator's.
            for _ in 0..<local { editor.press(.control("r")) }
            #expect(texts(editor).count == local + remote)
        }
    }

    @Test func undoDoesNotOverwriteWhatSomeoneChangedSince() {
        var editor = EditorHarness()
        editor.placeText("Mine")
        let item = try! #require(editor.state.markup.items.first)
        let moved = item.translated(dx: 100, dy: 0)
        editor.send(.operationReceived(DocumentOperation(id: StableUUID.derived(seed: 1, item: "move"), author: "Bob",
                                                         time: EditorHarness.now, changes: [.replaceMarkup(before: item, after: moved)])))
        editor.press(.escape, .character("u"))
        #expect(editor.state.message == "Not undone: someone else changed it since; u again goes on to what came before")
        #expect(editor.state.markup.items == [moved])
    }

    /// An undo refused because someone changed what it would undo does not block every undo before it: the next `u`
    /// undoes the step before.
    @Test func anOvertakenStepIsPassedOverByTheNextUndo() {
        var editor = EditorHarness()
        editor.placeText("First")
        editor.placeText("Second")
        let second = try! #require(editor.state.markup.items.last)
        editor.send(.operationReceived(DocumentOperation(id: StableUUID.derived(seed: 2, item: "move"), author: "Bob",
                                                         time: EditorHarness.now,
                                                         changes: [.replaceMarkup(before: second, after: second.translated(dx: 50, dy: 0))])))
        editor.press(.escape, .character("u"))
        #expect(editor.state.message?.hasPrefix("Not undone") == true)
        editor.press(.character("u"))
        #expect(editor.state.message?.hasPrefix("Undone") == true, "\(editor.state.message ?? "")")
        #expect(editor.state.markup.items.count == 1 && editor.state.markup.items[0].id == second.id, "the first text is gone, Bob's move stays")
    }

    @Test func everyChangeIsAnOperationStampedByItsEvent() {
        var editor = EditorHarness()
        editor.placeText("One")
        editor.press(.right, .right, .right)
        editor.press(.escape, .character("b"))
        let operations = editor.state.editing.operations
        // The text, one run of nudges, one bookmark.
        #expect(operations.count == 3)
        #expect(Set(operations.map(\.id)).count == 3)
        #expect(operations.allSatisfy { $0.author == "Alice" && $0.time == EditorHarness.now })
        guard case .replaceMarkup(let before, let after)? = operations[1].changes.first else {
            Issue.record("the nudges are one replacement: \(operations[1].changes)")
            return
        }
        #expect(after.bounds(measuredBy: FixedMeasurer()).minX - before.bounds(measuredBy: FixedMeasurer()).minX == 3)
        let bookmark = editor.state.bookmarks.bookmarks.first
        #expect(bookmark.map { UUID(uuidString: $0.id) != nil } == true)
    }

    @Test func markupIDsAreUUIDsNoTwoAlike() {
        var editor = EditorHarness()
        for number in 0..<20 {
            editor.press(.escape)
            editor.state.cursor = Point(x: 40, y: Double(20 + 30 * number))
            editor.placeText("n\(number)")
        }
        editor.press(.escape, .character("i"), .character(" "), .right, .right, .enter, .escape)
        let ids = editor.state.markup.items.map(\.id)
        #expect(ids.count == 21 && Set(ids).count == 21)
    }

    /// Time and ids come inside the events: the same stamped events give the same state, ids and dates included.
    @Test func replayingTheRecordedEventsGivesTheSameState() {
        let comment = Annotation(id: "c1", pageIndex: 0, subtype: .text, rect: Rect(x: 10, y: 10, width: 20, height: 20),
                                 author: "Bob", contents: "Check this", flags: 4)
        var editor = EditorHarness(annotations: [comment])
        editor.placeText("Approved")
        editor.press(.right, .right, .down, .character("+"), .character("c"))
        editor.press(.escape, .character("i"), .character(" "), .right, .down, .enter, .escape)
        editor.press(.character("a"), .character("r"))
        editor.type("Agreed")
        editor.press(.enter, .character("s"), .character("a"), .escape)
        editor.press(.character("b"), .character("u"))
        editor.send(.operationReceived(Self.foreign(1)))
        editor.press(.character("u"))

        var replayed = editor.initialState
        for (event, stamp) in editor.recorded {
            _ = EditorReducer.reduce(&replayed, event, at: stamp, environment: editor.environment)
        }
        #expect(replayed.editing.operations == editor.state.editing.operations)
        #expect(replayed.edits == editor.state.edits)
        #expect(replayed.editing.history == editor.state.editing.history)
        #expect(replayed.selection == editor.state.selection && replayed.focus == editor.state.focus)
        #expect(replayed.view == editor.state.view && replayed.message == editor.state.message)
        #expect(replayed.screenLines(editor.environment) == editor.screen().lines)
        // The two undos took back the bookmark and then the state: the reply stays, and so does Bob's text.
        #expect(editor.state.edits.annotations.added.count == 1 && editor.state.markup.items.count == 3)
    }
}

extension EditorState {
    func screenLines(_ environment: EditorEnvironment) -> [String] {
        EditorView.draw(self, environment: environment, picture: nil).lines
    }
}
