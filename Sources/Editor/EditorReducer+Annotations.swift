import RedlineCore
import TerminalGrid

/// The annotation list (`a`): moving through it, the thread view, and replying, reviewing, editing and
/// deleting. Every change goes through `changeEdits`, so undo and the crash journal cover it.
extension EditorReducer {
    static func openAnnotationPanel(_ state: inout EditorState, _ env: EditorEnvironment) {
        state.selection = nil
        var panel = AnnotationPanel()
        panel.selected = state.annotationRows(panel).first?.annotation.id
        state.mode = .annotations(panel)
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

    /// A command in the list (from a key, or the wheel's list-down and list-up, whatever keys those are on).
    static func annotationPanelCommand(_ state: inout EditorState, _ panel: AnnotationPanel, _ command: EditorCommand?,
                                       _ env: EditorEnvironment) -> [EditorEffect] {
        var panel = panel
        let rows = state.annotationRows(panel)
        let index = panel.selected.flatMap { id in rows.firstIndex { $0.annotation.id == id } }
        var effects: [EditorEffect] = []
        switch command {
        case .closePanel?:
            if panel.showsThread {
                panel.showsThread = false
            } else {
                state.mode = .normal
                return []
            }
        case .commandLine?:
            // Commands (`:w`, `:q`) work from the list too: it closes, as Esc would, and the command line opens.
            state.mode = .command("")
            return []
        case .listDown?:
            if panel.showsThread { panel.threadScroll += 1 } else { select(&panel, rows, (index ?? -1) + 1) }
        case .listUp?:
            if panel.showsThread { panel.threadScroll = max(0, panel.threadScroll - 1) } else { select(&panel, rows, (index ?? rows.count) - 1) }
        case .listFirst?:
            select(&panel, rows, 0)
        case .listLast?:
            select(&panel, rows, rows.count - 1)
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
            guard threadActionsAllowed(&state), let id = panel.selected,
                  let annotation = state.annotations.first(where: { $0.id == id }) else { break }
            guard annotation.author == state.reviewer.author else {
                state.message = "\(annotation.author ?? "Someone else") wrote this: only your own replies can be edited"
                break
            }
            panel.input = .edit(id, text: annotation.contents ?? "")
            panel.draftStamp = state.newAnnotationStamp()
        case .deleteAnnotation?:
            guard let id = panel.selected else { break }
            let isReply = state.annotations.first { $0.id == id }?.isReply ?? false
            if isReply, !threadActionsAllowed(&state) { break }
            effects = perform(&state) { editing, current, edits in
                let gone = try editing.delete(id, current: current, edits: &edits)
                return gone.count == 1 ? "Deleted" : "Deleted with \(gone.count - 1) repl\(gone.count == 2 ? "y" : "ies")"
            }
            if !state.annotations.contains(where: { $0.id == id }) {
                // The row that took the deleted one's place, or the new last row.
                let remaining = state.annotationRows(panel)
                panel.selected = remaining.isEmpty ? nil : remaining[min(index ?? 0, remaining.count - 1)].annotation.id
                panel.showsThread = false
            }
        case .undo?:
            effects = undo(&state)
        case .redo?:
            effects = redo(&state)
        default:
            break
        }
        keepSelectionValid(&panel, state)
        if case .annotations = state.mode { state.mode = .annotations(panel) }
        reveal(&state, panel, env)
        return effects
    }

    /// Typing a reply or an edit, or choosing a state.
    private static func panelInputKey(_ state: inout EditorState, _ panel: inout AnnotationPanel, _ input: PanelInput,
                                      _ key: Key, _ env: EditorEnvironment) -> [EditorEffect] {
        var effects: [EditorEffect] = []
        switch (input, key) {
        case (_, .escape):
            panel.input = nil
        case (.choosingState(let id), .character(let character)):
            guard let choice = stateChoices[Character(character.lowercased())] else {
                state.message = stateChoiceHelp
                break
            }
            panel.input = nil
            let stamp = state.newAnnotationStamp()
            effects = perform(&state) { editing, current, edits in
                try editing.setState(choice, on: id, current: current, edits: &edits, stamp: stamp)
                return "\(choice.value) by \(editing.author)"
            }
        case (.reply(let target, let text), _):
            switch editText(text, key) {
            case .editing(let next): panel.input = .reply(to: target, text: next)
            case .cancelled: panel.input = nil
            case .committed:
                panel.input = nil
                // The journal written with the change must not hold the draft beside the reply it became.
                state.mode = .annotations(panel)
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
        case (.edit(let id, let text), _):
            switch editText(text, key) {
            case .editing(let next): panel.input = .edit(id, text: next)
            case .cancelled: panel.input = nil
            case .committed:
                panel.input = nil
                state.mode = .annotations(panel)
                let date = state.now
                effects = perform(&state) { editing, current, edits in
                    try editing.editReply(id, text: text, current: current, edits: &edits, date: date)
                    return "Reply changed"
                }
            }
        default:
            break
        }
        state.mode = .annotations(panel)
        // A reply or an edit being typed is journaled keystroke by keystroke, as text after `t` is.
        if effects.isEmpty, case .reply = input { return journalDue }
        if effects.isEmpty, case .edit = input { return journalDue }
        return effects
    }

    private enum TextEntry {
        case editing(String)
        case committed
        case cancelled
    }

    private static func editText(_ text: String, _ key: Key) -> TextEntry {
        switch key {
        case .enter: .committed
        case .escape: .cancelled
        case .backspace: .editing(String(text.dropLast()))
        case .character(let character): .editing(text + String(character))
        default: .editing(text)
        }
    }

    static let stateChoices: [Character: AnnotationState] = [
        "a": .accepted, "r": .rejected, "c": .cancelled, "o": .completed, "n": .none,
    ]
    static let stateChoiceHelp = "Review state: a Accepted · r Rejected · c Cancelled · o Completed · n None · Esc cancels"

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

    private static func select(_ panel: inout AnnotationPanel, _ rows: [AnnotationListRow], _ index: Int) {
        guard !rows.isEmpty else { return }
        panel.selected = rows[min(max(0, index), rows.count - 1)].annotation.id
    }

    private static func keepSelectionValid(_ panel: inout AnnotationPanel, _ state: EditorState) {
        let rows = state.annotationRows(panel)
        if !rows.contains(where: { $0.annotation.id == panel.selected }) {
            panel.selected = rows.first?.annotation.id
            panel.showsThread = false
        }
    }

    /// Turns to the selected annotation's page and brings its area into view.
    private static func reveal(_ state: inout EditorState, _ panel: AnnotationPanel, _ env: EditorEnvironment) {
        guard let id = panel.selected, let annotation = state.annotations.first(where: { $0.id == id }),
              state.document.pages.indices.contains(annotation.pageIndex) else { return }
        goToPage(&state, annotation.pageIndex, env)
        let size = state.pageSize
        state.cursor = Point(x: min(max(0, annotation.rect.minX), size.width), y: min(max(0, annotation.rect.minY), size.height))
        revealCursor(&state, env)
    }
}
