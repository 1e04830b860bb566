import RedlineCore
import TerminalGrid

/// Typing a text markup: shown live, committed with Enter, dropped with Esc.
extension EditorReducer {
    static func typingKey(_ state: inout EditorState, _ draft: TextDraft, _ key: Key,
                          _ env: EditorEnvironment) -> [EditorEffect] {
        var draft = draft
        switch TextInput.edit(draft.markup.text, key, keymaps: state.keymaps) {
        case .cancelled:
            state.interaction.activity = draft.resumes.map { .inking($0) } ?? .idle
            state.message = draft.resumes != nil && draft.editing == nil ? "Callout dropped" : nil
            return journalDue
        case .committed:
            let item = MarkupItem(id: draft.id, pageIndex: draft.pageIndex, content: .text(draft.markup))
            let page = state.document.pages[draft.pageIndex].displaySize
            if let problem = env.measurer.undrawable(draft.markup.text) {
                // Kept as typed, to be changed: saved, the page would show boxes and hold no word of it.
                state.message = "Still typing (change it, or Esc): \(problem)"
                return []
            }
            guard item.fits(pageSize: page, measuredBy: env.measurer) else {
                // Kept as typed: the reviewer shortens it; committing it would put words off the page.
                let width = item.bounds(measuredBy: env.measurer).width
                state.message = "Too wide for the page (\(Int(width.rounded())) of \(Int(page.width)) pt): shorten it, or Esc"
                return []
            }
            state.interaction.activity = draft.resumes.map { .inking($0) } ?? .idle
            let effects = commit(&state, draft, env)
            // Back in ink mode the pen goes on; typed in text mode, the text stays selected to be nudged.
            if draft.resumes != nil { state.selection = nil }
            return effects
        case .editing(let text):
            guard text != draft.markup.text else { return [] }
            state.message = nil
            draft.markup.text = text
        }
        state.interaction.activity = .typing(draft)
        if state.showsTextView { revealCaretInText(&state, draft, env) }
        // Every keystroke is worth keeping: the runner spaces the writes out (its journal debounce).
        return journalDue
    }
    /// A comment on an ink, a mark or a shape: Enter keeps it (emptied, the comment goes), Esc leaves it as it was.
    static func commentingKey(_ state: inout EditorState, _ draft: CommentDraft, _ key: Key) -> [EditorEffect] {
        var draft = draft
        switch TextInput.edit(draft.text, key, keymaps: state.keymaps) {
        case .cancelled:
            state.interaction.activity = draft.resumes.map { .inking($0) } ?? .idle
            state.message = draft.placing != nil ? "Note dropped" : nil
            return journalDue
        case .committed:
            state.interaction.activity = draft.resumes.map { .inking($0) } ?? .idle
            let text = draft.text.trimmingCharacters(in: .whitespacesAndNewlines)
            let comment = text.isEmpty ? nil : text
            if var note = draft.placing {
                note.comment = comment
                state.message = comment == nil ? "Note placed without words: Enter on it (Tab selects it) types them"
                    : "Note kept: :wa saves it in the file, where other readers show it in a popup"
                return change(&state) { $0.add(note) }
            }
            guard var item = state.markup.item(draft.markup) else { return journalDue }
            guard comment != item.comment else { return journalDue }
            item.comment = comment
            // Back in ink mode the pen goes on; from a selection, the markup stays selected.
            if draft.resumes == nil { state.selection = item.id }
            let effects = change(&state) { $0.replace(item) }
            let what = if case .shape(let shape) = item.content, shape.kind == .note { "Note" } else { "Comment" }
            state.message = comment == nil ? (what == "Note" ? "The note's words removed: the note stays (x deletes it)" : "Comment removed")
                : "\(what) kept: :wa saves it in the file, where other readers show it in a popup"
            return effects
        case .editing(let text):
            guard text != draft.text else { return [] }
            state.message = nil
            draft.text = text
        }
        state.interaction.activity = .commenting(draft)
        return journalDue
    }

    private static func commit(_ state: inout EditorState, _ draft: TextDraft, _ env: EditorEnvironment) -> [EditorEffect] {
        let size = state.document.pages[draft.pageIndex].displaySize
        guard let id = draft.editing else {
            guard !draft.markup.text.isEmpty else { return [] }
            // Typing past the right edge pulls the text back onto the page, as a nudge would.
            let item = MarkupItem(id: draft.id, pageIndex: draft.pageIndex, content: .text(draft.markup))
                .keptInside(pageSize: size, measuredBy: env.measurer)
            state.selection = item.id
            return change(&state) { $0.add(item) }
        }
        guard let existing = state.markup.item(id) else { return [] }
        if draft.markup.text.isEmpty {
            state.selection = nil
            return change(&state) { $0.remove(id) }
        }
        let edited = existing.with(.text(draft.markup)).keptInside(pageSize: size, measuredBy: env.measurer)
        state.selection = id
        return change(&state) { $0.replace(edited) }
    }
}
