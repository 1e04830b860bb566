import Foundation
import TestSupport
import Editor
import TerminalGrid
import RedlineCore
import Testing

@Suite struct SavingAndQuittingTests {
    @Test func colonWSavesAMarkedCopyBesideTheOriginal() {
        var editor = EditorHarness()
        editor.placeText("Saved")
        let effects = editor.command("w")
        #expect(effects == [.save(SaveRequest(destination: "/docs/contract-marked.pdf", edits: editor.state.edits,
                                              allowOverwrite: false, replacesOriginal: false,
                                              author: editor.state.reviewer.author))])
        editor.send(.saveFinished(.saved(path: "/docs/contract-marked.pdf", edits: editor.state.edits)))
        #expect(editor.state.isDirty == false)
        #expect(editor.state.message == "Saved /docs/contract-marked.pdf")
        // Writing the same copy again in this session does not ask.
        editor.press(.right)
        guard case .save(let again)? = editor.command("w").first else { Issue.record("no save"); return }
        #expect(again.allowOverwrite)
    }

    @Test func colonWPathAsksBeforeOverwritingAnExistingFile() {
        var editor = EditorHarness()
        editor.placeText("Elsewhere")
        editor.command("w /tmp/out.pdf")
        editor.send(.saveFinished(.destinationExists(path: "/tmp/out.pdf")))
        #expect(editor.state.focus == .overlay(.question(.overwrite(SaveRequest(destination: "/tmp/out.pdf", edits: editor.state.edits,
                                                                         allowOverwrite: true, replacesOriginal: false,
                                                                         author: editor.state.reviewer.author)))))
        let effects = editor.press(.character("y"))
        guard case .save(let request)? = effects.first else { Issue.record("no save"); return }
        #expect(request.allowOverwrite && request.destination == "/tmp/out.pdf")
    }

    /// A question wider than the terminal keeps its keys: they come first, the rest is cut at the end. Every
    /// question, at 40 and 80 columns, with a long file name and a note's long words.
    @Test(arguments: [40, 80]) func aQuestionWiderThanTheLineKeepsItsKeys(columns: Int) {
        var editor = EditorHarness(columns: columns, rows: 20)
        editor.placeText("Long")
        let long = "/tmp/" + String(repeating: "a-rather-long-folder-name/", count: 4) + "out.pdf"
        editor.command("w \(long)")
        editor.send(.saveFinished(.destinationExists(path: long)))
        let bottom = { (editor: EditorHarness) in editor.screen().lines.last ?? "" }
        #expect(bottom(editor).hasPrefix("(y/n) · /tmp/a-rather"), "\(bottom(editor))")
        editor.press(.character("n"))
        let conflicts: [Editor.Confirmation] = [
            .sharedConflict(local: "a", shared: "a", message: "“Twenty-four characters…” was deleted meanwhile"),
            .sharedConflict(local: "a", shared: "a", message: "“Twenty-four characters…” changed meanwhile", deletion: true),
            .quitWithUnsavedChanges, .restoreJournal(editor.state.edits),
        ]
        for question in conflicts {
            let shown = question.question(Keymaps.standard, width: columns)
            let keys = shown.components(separatedBy: " · ").prefix(question == .quitWithUnsavedChanges ? 3 : 2).joined(separator: " · ")
            #expect(CharacterWidth.of(question.question()) <= columns || shown.hasPrefix(keys) && keys.contains("y") && keys.contains("n"),
                    "\(shown)")
        }
        // Where it fits, as before: what is asked first.
        #expect(Editor.Confirmation.quitWithUnsavedChanges.question(Keymaps.standard, width: 200).hasPrefix("Unsaved changes:"))
    }

    @Test func declinedOverwriteSavesNothing() {
        var editor = EditorHarness()
        editor.placeText("Keep")
        editor.command("w /tmp/out.pdf")
        editor.send(.saveFinished(.destinationExists(path: "/tmp/out.pdf")))
        #expect(editor.press(.character("n")).isEmpty)
        #expect(editor.state.isDirty)
    }

    @Test func colonWBangOverwritesTheOriginalAndStartsAfresh() {
        var editor = EditorHarness()
        editor.placeText("Burned in")
        guard case .save(let request)? = editor.command("w!").first else { Issue.record("no save"); return }
        #expect(request.destination == "/docs/contract.pdf" && request.replacesOriginal)
        editor.send(.saveFinished(.savedOverOriginal(path: "/docs/contract.pdf", edits: request.edits, document: editor.state.document)))
        #expect(editor.state.markup.isEmpty)
        #expect(editor.state.isDirty == false)
        #expect(editor.state.message == "Saved over /docs/contract.pdf · the markup is part of the pages now: undo starts here")
        editor.press(.character("u"))
        #expect(editor.state.markup.isEmpty, "undo cannot take the markup out of the pages")
    }

    @Test func aFailedSaveKeepsTheMarkupAndSaysWhy() {
        var editor = EditorHarness()
        editor.placeText("Precious")
        editor.command("wq")
        let effects = editor.send(.saveFinished(.failed(path: "/ro/x.pdf", reason: "the folder /ro is not writable")))
        #expect(effects.isEmpty)
        #expect(editor.state.isDirty)
        #expect(editor.state.message == "Not saved: the folder /ro is not writable · x.pdf · your markup is kept")
    }

    @Test func wqQuitsOnceSaved() {
        var editor = EditorHarness()
        editor.placeText("Done")
        editor.command("wq")
        #expect(editor.send(.saveFinished(.saved(path: "/docs/contract-marked.pdf", edits: editor.state.edits))) == [.discardJournal, .quit])
    }

    @Test func qAsksWhenThereAreUnsavedChanges() {
        var editor = EditorHarness()
        #expect(editor.press(.character("q")) == [.discardJournal, .quit])
        editor = EditorHarness()
        editor.placeText("Unsaved")
        #expect(editor.press(.character("q")).isEmpty)
        #expect(editor.state.focus == .overlay(.question(.quitWithUnsavedChanges)))
        editor.press(.character("c"))
        #expect(editor.state.focus == .page)
        editor.press(.character("q"))
        guard case .save(let request)? = editor.press(.character("y")).first else { Issue.record("no save"); return }
        #expect(request.destination == "/docs/contract-marked.pdf")
        editor.press(.character("q"))
    }

    @Test func qBangDiscardsAndColonQRefusesWithUnsavedChanges() {
        var editor = EditorHarness()
        editor.placeText("Throw away")
        #expect(editor.command("q").isEmpty)
        #expect(editor.command("q!") == [.discardJournal, .quit])
    }

    @Test func aJournalFromACrashIsOfferedAndRestored() {
        var editor = EditorHarness()
        var journal = MarkupLayer()
        journal.add(pageIndex: 1, content: .text(TextMarkup(origin: Point(x: 10, y: 10), text: "Recovered")))
        journal.add(pageIndex: 9, content: .text(TextMarkup(origin: Point(x: 10, y: 10), text: "No such page")))
        editor.send(.journalFound(DocumentEdits(markup: journal)))
        editor.press(.character("y"))
        #expect(editor.state.markup.items.map(\.pageIndex) == [1])
        #expect(editor.state.isDirty)
        editor.press(.character("u"))
        #expect(editor.state.markup.isEmpty)
    }

    @Test func aDeclinedJournalIsDiscarded() {
        var editor = EditorHarness()
        var journal = MarkupLayer()
        journal.add(pageIndex: 0, content: .text(TextMarkup(origin: .zero, text: "Old")))
        editor.send(.journalFound(DocumentEdits(markup: journal)))
        #expect(editor.press(.character("n")) == [.setJournalAside])
        #expect(editor.state.markup.isEmpty)
    }
}

/// A save runs off the loop: keys go on working, and only what the save wrote counts as saved.
@Suite struct SaveWhileEditingTests {
    @Test func anEditMadeWhileASaveRunsStaysUnsaved() {
        var editor = EditorHarness()
        editor.placeText("Saved")
        guard case .save(let request)? = editor.command("w").first else { Issue.record("no save"); return }
        editor.send(.saveProgressed(step: "drawing the markup of page 1 (1 of 1)"))
        // Keys pressed while it runs are handled at once; the progress stays in the message line.
        editor.press(.tab, .right, .right)
        #expect(editor.screen().lines.last?.hasPrefix("Saving /docs/contract-marked.pdf… drawing the markup of page 1 (1 of 1)") == true)
        #expect(editor.command("w").isEmpty)
        #expect(editor.state.message == "Still saving /docs/contract-marked.pdf: wait for it to finish")
        editor.send(.saveFinished(.saved(path: request.destination, edits: request.edits)))
        #expect(editor.state.isDirty)
        #expect(editor.state.savedEdits == request.edits)
        #expect(editor.state.message == "Saved without the changes made while saving (:w saves them) · contract-marked.pdf")
        #expect(editor.screen().lines[28].contains("[modified]"))
    }

    @Test func wqDoesNotQuitOverChangesMadeWhileItSaved() {
        var editor = EditorHarness()
        editor.placeText("Saved")
        guard case .save(let request)? = editor.command("wq").first else { Issue.record("no save"); return }
        editor.press(.right)
        let effects = editor.send(.saveFinished(.saved(path: request.destination, edits: request.edits)))
        #expect(!effects.contains(.quit))
        #expect(editor.state.message == "Saved without the changes made while saving (:wq saves them and quits) · contract-marked.pdf")
    }

    @Test func aSaveOverTheOriginalCarriesLaterChangesToTheReopenedFile() {
        var editor = EditorHarness()
        editor.placeText("Burned")
        guard case .save(let request)? = editor.command("w!").first else { Issue.record("no save"); return }
        editor.press(.escape, .character("b"))
        editor.send(.saveFinished(.savedOverOriginal(path: "/docs/contract.pdf", edits: request.edits, document: editor.state.document)))
        // The text is in the pages now; the bookmark made meanwhile is still to be saved, and can be undone.
        #expect(editor.state.markup.isEmpty)
        #expect(editor.state.bookmarks.bookmarks.map(\.pageIndex) == [0] && editor.state.isDirty)
        editor.press(.character("u"))
        #expect(!editor.state.isDirty)
    }
}

@Suite struct SavingMarkupAsAnnotationsTests {
    func request(_ effects: [EditorEffect]) -> SaveRequest? {
        guard case .save(let request)? = effects.first else { return nil }
        return request
    }

    @Test func colonWAKeepsTheMarkupAsAnnotationsAndColonWFlattensIt() throws {
        var editor = EditorHarness()
        editor.placeText("Review")
        let annotated = try #require(request(editor.command("wa /tmp/review.pdf")))
        #expect(annotated.markupAs == .annotations && annotated.destination == "/tmp/review.pdf")
        #expect(annotated.author == editor.state.reviewer.author)
        editor.send(.saveFinished(.saved(path: "/tmp/review.pdf", edits: editor.state.edits)))
        #expect(editor.state.message == "Saved /tmp/review.pdf · the markup as annotations")
        editor.press(.right)
        #expect(try #require(request(editor.command("w"))).markupAs == .flatten, ":w flattens, as it always did")
    }

    @Test func saveModeAnnotationsMakesColonWWriteAnnotationsAndColonWFFlattens() throws {
        var editor = EditorHarness()
        editor.state.saveMode = .annotations
        editor.placeText("Review")
        #expect(try #require(request(editor.command("w"))).markupAs == .annotations)
        editor.send(.saveFinished(.failed(path: "/docs/contract-marked.pdf", reason: "test")))
        #expect(try #require(request(editor.command("wf"))).markupAs == .flatten)
        editor.send(.saveFinished(.failed(path: "/docs/contract-marked.pdf", reason: "test")))
        #expect(try #require(request(editor.command("wq"))).markupAs == .annotations)
    }

    @Test func anOverwriteQuestionKeepsTheModeItWasAskedFor() throws {
        var editor = EditorHarness()
        editor.placeText("Review")
        editor.command("wa /tmp/out.pdf")
        editor.send(.saveFinished(.destinationExists(path: "/tmp/out.pdf")))
        let again = try #require(request(editor.press(.character("y"))))
        #expect(again.markupAs == .annotations && again.allowOverwrite)
    }

    /// Naming the opened file is saving over it, asked first: the editor then goes on from the file written.
    @Test func colonWANamingTheOpenedFileSavesOverIt() throws {
        var editor = EditorHarness()
        editor.placeText("Review")
        let path = editor.state.documentPath
        let folder = (path as NSString).deletingLastPathComponent, name = (path as NSString).lastPathComponent
        let saved = try #require(request(editor.command("wa \(folder)/./\(name)")))
        #expect(saved.replacesOriginal && saved.destination == path && !saved.allowOverwrite, "over the opened file, asked first")
        editor.send(.saveFinished(.destinationExists(path: path)))
        let answered = try #require(request(editor.press(.character("y"))))
        #expect(answered.replacesOriginal && answered.allowOverwrite && answered.markupAs == .annotations)
    }

    @Test func colonWABangSavesOverTheOpenedFile() throws {
        var editor = EditorHarness()
        editor.placeText("Review")
        let saved = try #require(request(editor.command("wa!")))
        #expect(saved.replacesOriginal && saved.markupAs == .annotations && saved.destination == editor.state.documentPath)
    }
}
