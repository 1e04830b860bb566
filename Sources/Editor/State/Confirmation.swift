import RedlineCore
import TerminalGrid

/// A yes/no question the editor is waiting on.
public enum Confirmation: Sendable, Equatable {
    case overwrite(SaveRequest)
    case quitWithUnsavedChanges
    /// `shared`: in a shared session, what the journal keeps beside the edits (`EditorState.journalShared`).
    case restoreJournal(DocumentEdits, shared: SharedJournal = SharedJournal())
    /// A shared session's change to the user's own annotation the server refused (changed or deleted in another
    /// session of theirs): keep this one as a new annotation, or take the server's. `local` is its name here, `shared`
    /// its name on the server. A refused deletion (`deletion`): delete it all the same, or keep the server's.
    case sharedConflict(local: AnnotationID, shared: AnnotationID, message: String, deletion: Bool = false)

    /// The question with the answers' keys as the `questions` keymap has them (`y`, `n` and `c` as standard).
    public func question(_ keymaps: Keymaps = .standard) -> String {
        let (what, separator, answers) = parts(keymaps)
        return what + separator + answers
    }

    /// The question in `width` columns: when it is wider, the answers' keys come first, so that a long file name or
    /// the words of a note never cut them off.
    public func question(_ keymaps: Keymaps = .standard, width: Int) -> String {
        let whole = question(keymaps)
        guard CharacterWidth.of(whole) > width else { return whole }
        let (what, _, answers) = parts(keymaps)
        return answers + " · " + what
    }

    /// What is asked, what joins it to the answers, and the answers with their keys.
    private func parts(_ keymaps: Keymaps) -> (what: String, separator: String, answers: String) {
        func key(_ command: EditorCommand) -> String { keymaps.keys(for: command, in: .questions).first?.name ?? "(no key)" }
        let yesNo = "(\(key(.answerYes))/\(key(.answerNo)))"
        switch self {
        case .overwrite(let request): return ("\(request.destination) exists. Overwrite it?", " ", yesNo)
        case .quitWithUnsavedChanges:
            return ("Unsaved changes:", " ",
                    "\(key(.answerYes)) saves a marked copy and quits · \(key(.answerNo)) quits unsaved · \(key(.answerCancel)) cancels")
        case .restoreJournal(let edits, _):
            return ("Unsaved changes (\(Self.count(edits))) from an earlier session. Restore them?", " ", yesNo)
        case .sharedConflict(_, _, let message, true):
            return ("Deletion not shared, \(message)", ": ", "\(key(.answerYes)) deletes it all the same · \(key(.answerNo)) keeps the server's")
        case .sharedConflict(_, _, let message, false):
            return ("Not shared, \(message)", ": ",
                    "\(key(.answerYes)) keeps yours as new · \(key(.answerNo)) takes the server's")
        }
    }

    private static func count(_ edits: DocumentEdits) -> String {
        let markup = edits.markup.items.count
        let annotations = edits.annotations
        let threads = annotations.added.count + annotations.changedContents.count + annotations.deleted.count + annotations.moved.count
            + annotations.restyled.count
        var parts: [String] = []
        if markup > 0 { parts.append("\(markup) markup item\(markup == 1 ? "" : "s")") }
        if threads > 0 { parts.append("\(threads) annotation change\(threads == 1 ? "" : "s")") }
        if edits.bookmarks != nil { parts.append("bookmarks") }
        return parts.joined(separator: ", ")
    }
}
