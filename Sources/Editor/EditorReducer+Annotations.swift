import RedlineCore
import TerminalGrid

/// The annotation list (`a`): moving through it, the thread view, and replying, reviewing, editing and
/// deleting. Every change goes through `changeEdits`, so undo and the crash journal cover it.
extension EditorReducer {
    static func openAnnotationPanel(_ state: inout EditorState, _ env: EditorEnvironment) {
        state.selection = nil
        var panel = AnnotationPanel()
        let rows = state.annotationRows(panel)
        // The list starts at the annotation selected on the page (Tab, a click), so that `r` answers that one.
        let chosen = state.interaction.selectedAnnotation.flatMap { id in
            rows.first { $0.annotation.id == id || $0.grouped.contains { $0.id == id } }
        }
        panel.selected = (chosen ?? rows.first)?.annotation.id
        state.interaction.panel = .annotations(panel)
        if panel.selected == nil { state.message = "No annotations on this page: A lists the whole document" }
        reveal(&state, panel, env)
    }

    static func annotationPanelKey(_ state: inout EditorState, _ panel: AnnotationPanel, _ key: Key,
                                   _ env: EditorEnvironment) -> [EditorEffect] {
        state.message = nil
        var panel = panel
        if let input = panel.input { return panelInputKey(&state, &panel, input, key, env) }
        return annotationPanelCommand(&state, panel, state.keymaps.command(for: key, in: .annotations), env)
    }

    /// A command in the list, from a key or the mouse.
    static func annotationPanelCommand(_ state: inout EditorState, _ panel: AnnotationPanel, _ command: EditorCommand?,
                                       _ env: EditorEnvironment) -> [EditorEffect] {
        var panel = panel
        let entries = state.annotationEntries(panel)
        let height = state.panelListHeight
        let index = entries.position(of: panel.selected)
        let (scopeBefore, linksBefore) = (panel.scope, panel.includesLinksAndWidgets)
        var effects: [EditorEffect] = []
        switch command {
        case .closePanel?:
            if panel.showsThread {
                panel.showsThread = false
            } else {
                state.interaction.panel = nil
                return []
            }
        case .commandLine?, .help?, .toggleInterface?:
            return panelWideCommand(&state, command, env)
        case _ where panel.showsThread && ListMotion(command) != nil:
            // The thread view scrolls its text: by a line, a panel's height, or to either end.
            let limit = AnnotationPanelView.threadScrollLimit(state, panel)
            switch ListMotion(command) {
            case .next?: panel.threadScroll += 1
            case .previous?: panel.threadScroll -= 1
            case .pageDown?: panel.threadScroll += max(1, height - 1)
            case .pageUp?: panel.threadScroll -= max(1, height - 1)
            case .first?: panel.threadScroll = 0
            case .last?, nil: panel.threadScroll = limit
            }
            panel.threadScroll = min(max(0, panel.threadScroll), limit)
        case _ where ListMotion(command) != nil:
            panel.list.move(ListMotion(command) ?? .next, over: entries, height: height)
        case .selectClicked?:
            guard let clicked = clickedAnnotation(state, panel, entries, env) else { return [] }
            // A click on the page picks the annotation there: selectAnnotation's. A click in the list moves in it.
            if !(state.layout.panel?.contains(column: state.interaction.pointer.column, row: state.interaction.pointer.row) ?? false),
               let annotation = state.annotations.first(where: { $0.id == clicked }),
               !permits(&state, .selectAnnotation, context(.selectAnnotation, state, annotation: InteractionSubject(annotation)), env) {
                return []
            }
            panel.selected = clicked
            panel.showsThread = false
        case .toggleScope?:
            panel.scope = panel.scope == .page ? .document : .page
            let visible = state.annotationRows(panel)
            if !visible.contains(where: { $0.annotation.id == panel.selected }) { panel.selected = visible.first?.annotation.id }
            state.message = panel.scope == .page ? "Annotations of this page" : "Annotations of the whole document"
        case .toggleLinks?:
            panel.includesLinksAndWidgets.toggle()
            state.message = panel.includesLinksAndWidgets ? "Links and form widgets shown" : "Links and form widgets hidden"
        case .showThread?:
            guard threadActionsAllowed(&state), panel.selected != nil else { break }
            panel.showsThread.toggle()
            panel.threadScroll = 0
        case .reply?:
            guard threadActionsAllowed(&state), let target = answerTarget(state, panel) else { break }
            panel.input = .reply(to: target, text: "")
            panel.draftStamp = state.newAnnotationStamp()
        case .setState?:
            guard threadActionsAllowed(&state), let id = answerTarget(state, panel) else { break }
            panel.input = .choosingState(id)
        case .toggleMarked?:
            guard threadActionsAllowed(&state), let id = answerTarget(state, panel) else { break }
            let stamp = state.newAnnotationStamp()
            effects = perform(&state) { editing, current, edits in
                let change = try editing.toggleMarked(id, current: current, edits: &edits, stamp: stamp)
                return "\(change.state?.value ?? "Marked") by \(editing.author)"
            }
        case .editReply?:
            guard let id = panel.selected, let annotation = state.annotations.first(where: { $0.id == id }) else { break }
            // A text box or a note of the file has its words edited by anyone, as in other readers; a reply only by
            // its author.
            if annotation.isReply || !(annotation.subtype == .freeText || annotation.subtype == .text) {
                guard threadActionsAllowed(&state) else { break }
                guard annotation.author == state.reviewer.author else {
                    state.message = "\(annotation.author ?? "Someone else") wrote this: only your own replies can be edited"
                    break
                }
            }
            guard permits(&state, .editAnnotation, context(.editAnnotation, state, annotation: InteractionSubject(annotation)), env,
                          at: InteractionLocation(annotation.rect.center, in: .display)) else { break }
            panel.input = .edit(id, text: annotation.contents ?? "")
            panel.draftStamp = state.newAnnotationStamp()
        case .deleteAnnotation?:
            guard let id = panel.selected, let annotation = state.annotations.first(where: { $0.id == id }) else { break }
            if state.sharing != nil, let item = state.markup.items.first(where: { $0.annotationName == id }) {
                // The server's copy of the session's markup: deleting it deletes the markup.
                guard permits(&state, .editAnnotation, on: item, env, at: middle(of: item, env)) else { break }
                state.selection = item.id
                effects = deleteSelection(&state)
                panel.list.keepValid(state.annotationEntries(panel), height: height, formerIndex: index)
                panel.showsThread = false
                break
            }
            if annotation.isReply {
                guard threadActionsAllowed(&state) else { break }
            } else {
                guard permits(&state, .editAnnotation, onAnnotation: annotation, env, at: middle(of: annotation)) else { break }
            }
            effects = perform(&state) { editing, current, edits in
                let gone = try editing.delete(id, current: current, edits: &edits)
                return gone.count == 1 ? "Deleted" : "Deleted with \(gone.count - 1) repl\(gone.count == 2 ? "y" : "ies")"
            }
            if !state.annotations.contains(where: { $0.id == id }) {
                // The row that took the deleted one's place, or the new last row.
                panel.list.keepValid(state.annotationEntries(panel), height: height, formerIndex: index)
                panel.showsThread = false
            }
        case .filterList?:
            panel.input = .filtering(text: panel.filter.query)
        case .writeSummary?:
            panel.input = .summaryPath(text: state.defaultSummaryPath)
        case .undo?:
            effects = undo(&state)
        case .redo?:
            effects = redo(&state)
        default:
            break
        }
        // The rows are built again only when the command changed them: an edit, or what the list shows.
        let rowsChanged = !effects.isEmpty || panel.scope != scopeBefore || panel.includesLinksAndWidgets != linksBefore
        keepSelectionValid(&panel, rowsChanged ? state.annotationEntries(panel) : entries, height: height)
        if state.interaction.annotationPanel != nil { state.interaction.panel = .annotations(panel) }
        reveal(&state, panel, env)
        return effects
    }

    /// The annotation a click is on: an entry of the list, or the smallest listed annotation whose area holds
    /// the clicked cell on the page (the smallest is the one on top).
    private static func clickedAnnotation(_ state: EditorState, _ panel: AnnotationPanel,
                                          _ entries: ListEntries<AnnotationID>, _ env: EditorEnvironment) -> AnnotationID? {
        let (column, row) = state.interaction.pointer
        if let area = state.layout.panel, area.contains(column: column, row: row) {
            return panel.showsThread ? nil : clickedEntry(state, panel.list, entries)
        }
        let spot = pointerSpot(state, env)
        guard spot.onPage else { return nil }
        return state.annotations.filter { $0.pageIndex == state.pageIndex && entries.contains($0.id) && !$0.isStateChange }
            .filter { $0.rect.intersects(spot.cell) }
            .min { $0.rect.width * $0.rect.height < $1.rect.width * $1.rect.height }?.id
    }

    /// Typing a reply or an edit (the `typing` keymap), or choosing a state (the `states` keymap).
    private static func panelInputKey(_ state: inout EditorState, _ panel: inout AnnotationPanel, _ input: PanelInput,
                                      _ key: Key, _ env: EditorEnvironment) -> [EditorEffect] {
        var effects: [EditorEffect] = []
        switch input {
        case .choosingState(let id):
            let command = state.keymaps.command(for: key, in: .states)
            if command == .cancelInput {
                panel.input = nil
                break
            }
            guard let choice = command.flatMap({ stateChoices[$0] }) else {
                state.message = stateChoiceHelp(state.keymaps)
                break
            }
            panel.input = nil
            let stamp = state.newAnnotationStamp()
            effects = perform(&state) { editing, current, edits in
                try editing.setState(choice, on: id, current: current, edits: &edits, stamp: stamp)
                return "\(choice.value) by \(editing.author)"
            }
        case .filtering(let text):
            switch TextInput.edit(text, key, keymaps: state.keymaps) {
            case .editing(let next):
                panel.input = .filtering(text: next)
                state.message = nil
            case .cancelled: panel.input = nil
            case .committed:
                do {
                    panel.filter = try CommentFilter(query: text)
                } catch {
                    // The words stay to be corrected, the reason beside them.
                    state.message = error.description
                    break
                }
                panel.input = nil
                let entries = state.annotationEntries(panel)
                keepSelectionValid(&panel, entries, height: state.panelListHeight)
                let threads = state.annotationRows(panel).filter { $0.depth == 0 }.count
                state.message = panel.filter.isEmpty ? "Every thread listed" : "Filtered: \(threads) thread\(threads == 1 ? "" : "s") listed"
                if panel.selected == nil, !panel.filter.isEmpty {
                    state.message = "Nothing matches " + panel.filter.query + (panel.scope == .page ? " on this page (A: whole document)" : "")
                }
            }
        case .summaryPath(let text):
            switch TextInput.edit(text, key, keymaps: state.keymaps) {
            case .editing(let next):
                panel.input = .summaryPath(text: next)
                state.message = nil
            case .cancelled: panel.input = nil
            case .committed:
                let path = text.trimmingCharacters(in: .whitespaces)
                guard let format = CommentSummaryRequest.Format(fileName: path) else {
                    state.message = "A summary is written as .md, .csv or .html: the name says which"
                    break
                }
                panel.input = nil
                effects = [.writeCommentSummary(CommentSummaryRequest(path: path, format: format, filter: panel.filter,
                                                                      annotations: state.annotations, documentName: state.fileName))]
            }
        case .reply(let target, let text):
            switch TextInput.edit(text, key, keymaps: state.keymaps) {
            case .editing(let next): panel.input = .reply(to: target, text: next)
            case .cancelled: panel.input = nil
            case .committed:
                panel.input = nil
                // The journal written with the change must not hold the draft beside the reply it became.
                state.interaction.panel = .annotations(panel)
                var made: AnnotationID?
                // The stamp shown while typing is the one the reply gets: the journal's draft and the reply agree.
                let stamp = panel.draftStamp ?? state.newAnnotationStamp()
                effects = perform(&state) { editing, current, edits in
                    made = try editing.reply(to: target, text: text, current: current, edits: &edits, stamp: stamp).id
                    return "Replied"
                }
                // The selection stays on what was answered: the review keys that usually follow a reply
                // (`s`, `m`) are meant for it, not for the reviewer's own reply.
                if made != nil { panel.selected = target }
            }
        case .edit(let id, let text):
            switch TextInput.edit(text, key, keymaps: state.keymaps) {
            case .editing(let next):
                panel.input = .edit(id, text: next)
                state.message = nil
            case .cancelled: panel.input = nil
            case .committed:
                let annotation = state.annotations.first { $0.id == id }
                if let annotation, let problem = wouldLeaveThePage(annotation, text: text, fontSize: nil, state, env)
                    ?? undrawableWords(annotation, text: text, env) {
                    state.message = "Not changed: " + problem
                    break
                }
                panel.input = nil
                state.interaction.panel = .annotations(panel)
                let date = state.now
                let isReply = annotation?.isReply ?? true
                effects = perform(&state) { editing, current, edits in
                    if isReply {
                        try editing.editReply(id, text: text, current: current, edits: &edits, date: date)
                        return "Reply changed"
                    }
                    try editing.rewrite(id, text: text, at: date, current: current, edits: &edits)
                    return "Text changed" + (annotation.map { mayNotFit($0, text: text, fontSize: nil, env) } == true ? mayNotFitWarning : "")
                }
            }
        }
        if panel.closesAfterInput, panel.input == nil {
            // Back to the page, the annotation still selected, as after any other change made there.
            state.interaction.panel = nil
            return effects
        }
        state.interaction.panel = .annotations(panel)
        // A reply or an edit being typed is journaled keystroke by keystroke, as text after `t` is.
        if effects.isEmpty, case .reply = input { return journalDue }
        if effects.isEmpty, case .edit = input { return journalDue }
        return effects
    }

    /// Enter on the page with a text box or a note of the file selected: its words, ready to edit on the annotation
    /// list's edit line (Enter keeps them, Esc leaves them).
    static func editFileAnnotationText(_ state: inout EditorState, _ annotation: Annotation, _ env: EditorEnvironment,
                                       at location: InteractionLocation) {
        guard annotation.subtype.isMarkup else {
            state.message = "Not changed: \(AnnotationEditError.hasNoText(annotation.id, subtype: annotation.subtype))"
            return
        }
        guard permits(&state, .editAnnotation, onAnnotation: annotation, env, at: location) else { return }
        guard annotation.flags & Annotation.lockedContentsFlag == 0 else {
            state.message = "Not changed: annotation \"\(annotation.id)\"'s text is locked"
            return
        }
        var panel = AnnotationPanel()
        panel.selected = annotation.id
        panel.input = .edit(annotation.id, text: annotation.contents ?? "")
        panel.draftStamp = state.newAnnotationStamp()
        panel.closesAfterInput = true
        state.interaction.panel = .annotations(panel)
        state.interaction.selectedAnnotation = annotation.id
        reveal(&state, panel, env)
    }

    static let stateChoices: [EditorCommand: AnnotationState] = [
        .stateAccepted: .accepted, .stateRejected: .rejected, .stateCancelled: .cancelled, .stateCompleted: .completed, .stateNone: .none,
    ]

    static func stateChoiceHelp(_ keymaps: Keymaps) -> String {
        "Review state: " + keymaps.hints([([.stateAccepted], "Accepted"), ([.stateRejected], "Rejected"), ([.stateCancelled], "Cancelled"),
                                          ([.stateCompleted], "Completed"), ([.stateNone], "None"), ([.cancelInput], "cancels")], in: .states)
    }
    /// Runs one thread change as one undo step; a refusal becomes the message and changes nothing.
    private static func perform(_ state: inout EditorState,
                                _ change: (ThreadEditing, [Annotation], inout AnnotationEdits) throws -> String)
        -> [EditorEffect] {
        let editing = ThreadEditing(author: state.reviewer.author, path: state.fileName,
                                    allowsChanges: state.document.allowsAnnotationChanges)
        let current = state.annotations
        var message = ""
        var failure: String?
        let effects = changeEdits(&state) { edits in
            var annotations = edits.annotations
            do {
                message = try change(editing, current, &annotations)
                edits.annotations = annotations
            } catch {
                failure = "\(error)"
            }
        }
        state.message = failure.map { "Not changed: " + $0 } ?? message
        return effects
    }

    private static func threadActionsAllowed(_ state: inout EditorState) -> Bool {
        guard state.reviewer.threadActionsEnabled else {
            state.message = "Replies and reviews are turned off (replies = false in config.toml)"
            return false
        }
        return true
    }

    /// A reply or a review acts on the selected annotation; on a state-change row, on what the state was set on.
    private static func answerTarget(_ state: EditorState, _ panel: AnnotationPanel) -> AnnotationID? {
        guard let id = panel.selected, let annotation = state.annotations.first(where: { $0.id == id }) else { return nil }
        guard annotation.isStateChange else { return id }
        return state.thread(containing: id)?.stateChanges.first { $0.value.contains { $0.id == id } }?.key ?? annotation.inReplyTo
    }

    private static func keepSelectionValid(_ panel: inout AnnotationPanel, _ entries: ListEntries<AnnotationID>,
                                           height: Int) {
        if !entries.contains(panel.selected) {
            panel.selected = entries.first?.id
            panel.showsThread = false
        }
        panel.list.keepValid(entries, height: height)
    }

    /// Turns to the selected annotation's page and brings its area into view.
    private static func reveal(_ state: inout EditorState, _ panel: AnnotationPanel, _ env: EditorEnvironment) {
        guard let id = panel.selected, let annotation = state.annotation(id),
              state.document.pages.indices.contains(annotation.pageIndex) else { return }
        goToPage(&state, annotation.pageIndex, env)
        let size = state.pageSize
        state.cursor = Point(x: min(max(0, annotation.rect.minX), size.width), y: min(max(0, annotation.rect.minY), size.height))
        revealCursor(&state, env)
    }
}
