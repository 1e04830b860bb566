import Foundation
import RedlineCore
import TerminalGrid

/// The `:` command line, yes/no questions and the end of a save.
extension EditorReducer {
    static func commandKey(_ state: inout EditorState, _ line: String, _ key: Key,
                           _ env: EditorEnvironment) -> [EditorEffect] {
        // Backspace on an empty line leaves it, as in vim.
        if line.isEmpty, state.keymaps.command(for: key, in: .typing) == .deleteBack {
            state.interaction.closeTopOverlay()
            return []
        }
        switch TextInput.edit(line, key, keymaps: state.keymaps) {
        case .cancelled:
            state.interaction.closeTopOverlay()
        case .committed(let command):
            state.interaction.closeTopOverlay()
            return run(command: command.trimmingCharacters(in: .whitespaces), &state, env)
        case .editing(let next):
            state.interaction.replaceTopOverlay(with: .commandLine(next))
        }
        return []
    }

    private static func run(command: String, _ state: inout EditorState, _ env: EditorEnvironment) -> [EditorEffect] {
        // `:5` in a book whose fifth printed page follows its front matter: the page printed 5, as Acrobat's and
        // Okular's page boxes go; else the page counted from 1.
        if Int(command) != nil, let page = labelledPage(command, state) {
            jump(&state, toPage: page, env)
            return []
        }
        if let page = Int(command) {
            guard page >= 1, page <= state.document.pageCount else {
                state.message = "No page \(page): the document has \(state.document.pageCount)"
                return []
            }
            jump(&state, toPage: page - 1, env)
            return []
        }
        let parts = command.split(separator: " ", maxSplits: 1).map(String.init)
        let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
        switch parts.first ?? "" {
        case "w":
            return save(&state, to: argument, replacingOriginal: false, quitting: false, env)
        case "w!":
            return save(&state, to: argument, replacingOriginal: argument == nil, quitting: false, env)
        case "wq", "x":
            return save(&state, to: argument, replacingOriginal: false, quitting: true, env)
        case "wa", "wf":
            return save(&state, to: argument, replacingOriginal: false, quitting: false, markupAs: command.hasPrefix("wa") ? .annotations : .flatten, env)
        case "wa!", "wf!":
            return save(&state, to: argument, replacingOriginal: argument == nil, quitting: false,
                        markupAs: command.hasPrefix("wa") ? .annotations : .flatten)
        case "q":
            if let quitting = quitShared(&state, force: false) { return quitting }
            if state.isDirty {
                state.message = "Unsaved changes: :w saves a marked copy, :q! quits without saving"
                return []
            }
            return [.discardJournal, .quit]
        case "q!":
            if let quitting = quitShared(&state, force: true) { return quitting }
            return [.discardJournal, .quit]
        case "help", "h":
            openOverlay(&state, for: .help)
            return []
        case "stamp":
            return takeStamp(&state, words: argument ?? "", env)
        case "":
            return []
        default:
            // `:xiv`, `:A-3`: a label, once no command has the name (a document lettered a, b, … keeps :q quitting).
            if let page = labelledPage(command, state) {
                jump(&state, toPage: page, env)
                return []
            }
            if !state.document.pageLabels.isEmpty, !command.contains(" ") {
                state.message = "No page is labelled \(VisibleText.line(command, limit: 40)), and no command is called :\(VisibleText.line(command, limit: 40))"
                return []
            }
            state.message = "Unknown command :\(command) (\(state.keymaps.keys(for: .help, in: .page).first.map { $0.name + " or " } ?? ""):help lists the keys)"
            return []
        }
    }

    private static func labelledPage(_ label: String, _ state: EditorState) -> Int? {
        label.isEmpty ? nil : state.document.pageLabels.page(labelled: label, pageCount: state.document.pageCount)
    }

    static func save(_ state: inout EditorState, to path: String?, replacingOriginal: Bool,
                     quitting: Bool, markupAs mode: MarkupSaveMode? = nil, _ env: EditorEnvironment? = nil,
                     overwriting: Bool = false) -> [EditorEffect] {
        var destination = replacingOriginal ? state.documentPath : (path.map { ($0 as NSString).expandingTildeInPath } ?? state.defaultSavePath)
        // Naming the opened file is saving over it (asked first, as any existing file): the editor must then go on
        // from what was written.
        let namesOpenedFile = isOpenedFile(destination, state)
        if namesOpenedFile { destination = state.documentPath }
        // `:w PATH!`-style overwrites are asked for; `:w!` on the opened file is the explicit request.
        let writtenHere = !namesOpenedFile && state.writtenPaths.contains(destination)
        var request = SaveRequest(destination: destination, edits: state.edits,
                                  allowOverwrite: replacingOriginal || writtenHere || overwriting,
                                  replacesOriginal: namesOpenedFile, overwritesOnlyOwnFile: writtenHere,
                                  markupAs: mode ?? state.saveMode, author: state.reviewer.author)
        if state.sharing != nil {
            // The shared annotations live on the server; a copy holds them as they are now, as annotations.
            if namesOpenedFile {
                state.quitAfterSave = false
                state.message = "In a shared session :w PATH writes a copy with the annotations (:wf PATH flattens the markup); the opened file stays as it is"
                return []
            }
            // What changed since the pause is sent now, and the markup listed as it is: the copy holds the
            // annotations as the server will, dates included.
            let sent = env.map { flushShared(&state, $0) } ?? []
            request.markupAs = mode ?? .annotations
            let markupNames = markupNames(state)
            let sharing = state.sharing!
            // Under the names the server knows them by (an undone deletion is shared under a new one); the markup as
            // listed when it is saved as annotations, burned in from itself when flattened.
            let listed = request.markupAs == .annotations ? state.annotations : state.annotations.filter { !markupNames.contains($0.id) }
            request.sharedAnnotations = listed.map { annotation in
                var shared = annotation
                // Changed here and not yet back from the server: dated when it was changed, as the server will have it.
                if sharing.isChangedHere(annotation.id), let at = sharing.changedAt[annotation.id] { shared.modified = at }
                shared.id = sharing.sharedName(annotation.id)
                shared.inReplyTo = annotation.inReplyTo.map(sharing.sharedName)
                return shared
            }
            request.sharedMarkupNames = Dictionary(state.markup.items.map { ($0.annotationName, sharing.sharedName($0.annotationName)) },
                                                   uniquingKeysWith: { first, _ in first })
            request.sharedMarkupDates = Dictionary(state.markup.items.map { ($0.annotationName, sharing.changedAt[$0.annotationName] ?? state.now) },
                                                   uniquingKeysWith: { first, _ in first })
            return sent + finishSave(&state, request, quitting: quitting)
        }
        return finishSave(&state, request, quitting: quitting)
    }

    private static func finishSave(_ state: inout EditorState, _ request: SaveRequest, quitting: Bool) -> [EditorEffect] {
        if request.markupAs == .flatten, !request.edits.markup.items.isEmpty, !state.document.allowsChanges {
            state.quitAfterSave = false
            state.message = "Not saved: the permissions allow annotations, not changes to the pages: :wa saves the markup as annotations"
            return []
        }
        state.quitAfterSave = quitting
        return startSave(&state, request)
    }

    /// Whether `path` is the opened document, however it was written (relative, with `.` or `..`).
    static func isOpenedFile(_ path: String, _ state: EditorState) -> Bool {
        URL(fileURLWithPath: path).standardizedFileURL.path == URL(fileURLWithPath: state.documentPath).standardizedFileURL.path
    }

    /// One save at a time: the screen goes on answering while it runs, and says how far it has got.
    private static func startSave(_ state: inout EditorState, _ request: SaveRequest) -> [EditorEffect] {
        if let running = state.chrome.saving {
            state.message = "Still saving \(running.destination): wait for it to finish"
            state.quitAfterSave = false
            return []
        }
        state.chrome.saving = SaveProgress(destination: request.destination, step: "starting")
        state.editing.savingMarkupAs = request.markupAs
        state.message = "Saving \(request.destination)…"
        return [.save(request)]
    }

    /// A question takes its answer through the `questions` keymap; other keys leave it waiting.
    static func confirmKey(_ state: inout EditorState, _ question: Confirmation, _ key: Key) -> [EditorEffect] {
        var command = state.keymaps.command(for: key, in: .questions)
        // Y and N answer as y and n do, unless bound to something themselves.
        if command == nil, case .character(let character) = key, character.isUppercase {
            command = state.keymaps.command(for: .character(Character(character.lowercased())), in: .questions)
        }
        guard let command, command != .unbound else { return [] }
        switch (question, command) {
        case (.overwrite(var request), .answerYes):
            state.interaction.closeTopOverlay()
            if state.sharing != nil, !request.replacesOriginal {
                // A shared session's copy holds the annotations as the session shows them now, as any copy it writes.
                return save(&state, to: request.destination, replacingOriginal: false, quitting: state.quitAfterSave,
                            markupAs: request.markupAs, overwriting: true)
            }
            request.allowOverwrite = true
            request.overwritesOnlyOwnFile = false
            return startSave(&state, request)
        case (.overwrite, .answerNo), (.overwrite, .answerCancel):
            state.interaction.closeTopOverlay()
            state.quitAfterSave = false
            state.message = "Not saved"
        case (.quitWithUnsavedChanges, .answerYes):
            state.interaction.closeTopOverlay()
            return save(&state, to: nil, replacingOriginal: false, quitting: true)
        case (.quitWithUnsavedChanges, .answerNo):
            return [.discardJournal, .quit]
        case (.quitWithUnsavedChanges, .answerCancel):
            state.interaction.closeTopOverlay()
        case (.sharedConflict(let local, let shared, _, true), .answerYes):
            state.interaction.closeTopOverlay()
            return deleteAllTheSame(&state, local: local, shared: shared)
        case (.sharedConflict(let local, let shared, _, false), .answerYes):
            state.interaction.closeTopOverlay()
            return keepAsNew(&state, local: local, shared: shared)
        case (.sharedConflict(let local, let shared, _, _), .answerNo), (.sharedConflict(let local, let shared, _, _), .answerCancel):
            state.interaction.closeTopOverlay()
            takeTheServers(&state, local: local, shared: shared)
            return [.journalChanged]
        case (.restoreJournal(let journaled, let shared), .answerYes):
            state.interaction.closeTopOverlay()
            let bases = shared.bases
            // Sent against the versions they were made on: what another session changed since is asked about, and
            // keeping one's own keeps it as it was shown before.
            if let sharing = state.sharing {
                for (name, base) in bases { state.sharing?.editBase[sharing.sharedName(AnnotationID(name))] = base }
                let pages = state.document.pages
                for name in shared.shown.keys { state.sharing?.restoredShown[AnnotationID(name)] = shared.shownAnnotation(name, pages: pages) }
                for (name, time) in shared.changedAt ?? [:] { state.sharing?.restoredAt[AnnotationID(name)] = time }
                for (name, time) in shared.madeAt ?? [:] { state.sharing?.restoredMadeAt[AnnotationID(name)] = time }
            }
            let markup = MarkupLayer(items: journaled.markup.items.filter { state.document.pages.indices.contains($0.pageIndex) })
            // Annotation changes only make sense against the annotations they were made on.
            var known = Set(state.document.annotations.map(\.id))
            var restorable = journaled.annotations
            if state.sharing != nil {
                // In a shared session they may name the server's annotations, which come with its snapshot (perhaps
                // not yet, offline): those the server did not have yet are kept, and compared with the server's once
                // they are in; those it took are in its version already (made again they would move twice).
                // (A journal written outside a shared session sent nothing: the file's own are all kept.)
                let unsent = Set((shared.unsent ?? []).map { AnnotationID($0) })
                restorable = restorable.keepingChanges(of: shared.unsent == nil ? known : unsent)
                known.formUnion(unsent.union(restorable.added.compactMap(\.inReplyTo)))
            }
            let annotations = restorable.refersOnly(to: known, pageCount: state.document.pageCount)
                ? restorable : AnnotationEdits()
            let bookmarks = journaled.bookmarks.map { list in
                BookmarkList(list.bookmarks.filter { $0.pageIndex.map { $0 < state.document.pageCount } ?? true })
            }
            let effects = changeEdits(&state) { $0 = DocumentEdits(markup: markup, annotations: annotations, bookmarks: bookmarks) }
            // In a shared session the restored replies and states are the session's own again: the server's copies of
            // those it already has are listed once, not beside them.
            if let sharing = state.sharing {
                // A base of a change the restore did not bring back would make the next change there look stale.
                let restored = Set(state.markup.items.map(\.annotationName)).union(touchedByEdits(state))
                    .union(state.edits.annotations.added.map(\.id))
                for name in bases.keys.map({ AnnotationID($0) }) where !restored.contains(name) {
                    state.sharing?.editBase[sharing.sharedName(name)] = nil
                }
                layOutShared(&state)
            }
            var restored: [String] = []
            if !markup.isEmpty { restored.append("\(markup.items.count) unsaved markup item\(markup.items.count == 1 ? "" : "s")") }
            if !annotations.isEmpty { restored.append("the unsaved annotation changes") }
            if bookmarks != nil { restored.append("the unsaved bookmarks") }
            state.message = restored.isEmpty ? "Nothing in the journal fits this document" : "Restored " + restored.joined(separator: " and ")
            return effects.isEmpty ? [.discardJournal] : effects
        case (.restoreJournal, .answerNo), (.restoreJournal, .answerCancel):
            state.interaction.closeTopOverlay()
            state.message = "Earlier unsaved changes not restored"
            return [.setJournalAside]
        default:
            break
        }
        return []
    }

    static func finishSave(_ state: inout EditorState, _ outcome: SaveOutcome) -> [EditorEffect] {
        state.chrome.saving = nil
        switch outcome {
        case .saved(let path, let saved, let how):
            state.writtenPaths.insert(path)
            state.editing.markSaved(saved)
            let kept = state.editing.savingMarkupAs == .annotations && !saved.markup.isEmpty ? " · the markup as annotations" : ""
            let signed = state.editing.savingMarkupAs == .flatten
                ? state.document.signatureWarning(flattening: Set(saved.markup.editedPages)).map { " · " + $0 } ?? "" : ""
            let comments = state.editing.savingMarkupAs == .flatten ? saved.markup.commentsLostByFlattening(keeping: ":wa").map { " · " + $0 } ?? "" : ""
            // What was not kept goes before how it was written, which matters less, at the line's end.
            return afterSave(&state, message: "Saved \(path)\(comments)\(kept)\(how.isEmpty ? "" : " · " + how)\(signed)", path: path)
        case .savedOverOriginal(let path, let saved, let document, let how):
            let place = state.editing.savingMarkupAs == .annotations ? "annotations in the file" : "part of the pages"
            let what = saved.markup.isEmpty ? "the changes are in the file" : "the markup is \(place)"
            // The markup is now part of the pages themselves: editing goes on from the new file.
            state.editing.rebase(onto: document, saved: saved, id: state.freshID(), time: state.now)
            state.selection = nil
            state.interaction.selectedAnnotation = nil
            state.writtenPaths.insert(path)
            // Undo cannot take markup back out of the pages: say so rather than let `u` do nothing unexplained.
            return afterSave(&state, message: "Saved over \(path) · \(what) now: undo starts here\(how.isEmpty ? "" : " · " + how)", path: path)
        case .destinationExists(let path):
            state.interaction.overlays.append(.question(.overwrite(SaveRequest(destination: path, edits: state.edits,
                                                                               allowOverwrite: true,
                                                                               replacesOriginal: isOpenedFile(path, state),
                                                                               markupAs: state.editing.savingMarkupAs,
                                                                               author: state.reviewer.author))))
            state.message = nil
            return []
        case .failed(let path, let reason):
            state.quitAfterSave = false
            // The reason first: on a narrow terminal the end of the line is what gets cut.
            let kept = state.edits.markup.isEmpty ? "your changes are kept" : "your markup is kept"
            state.message = "Not saved: \(reason) · \(path.split(separator: "/").last.map(String.init) ?? path) · \(kept)"
            return []
        }
    }

    /// What was saved is saved; what changed while the save ran is not, and keeps the journal and the editor.
    private static func afterSave(_ state: inout EditorState, message: String, path: String) -> [EditorEffect] {
        guard state.isDirty else {
            state.message = message
            return [.discardJournal] + (state.quitAfterSave ? [.quit] : [])
        }
        // What is not saved first: on a narrow terminal the end of the line is what gets cut.
        let name = path.split(separator: "/").last.map(String.init) ?? path
        state.message = "Saved without the changes made while saving (\(state.quitAfterSave ? ":wq saves them and quits" : ":w saves them")) · \(name)"
        state.quitAfterSave = false
        return [.journalChanged]
    }
}
