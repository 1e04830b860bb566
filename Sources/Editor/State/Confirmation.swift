import RedlineCore

/// A yes/no question the editor is waiting on.
public enum Confirmation: Sendable, Equatable {
    case overwrite(SaveRequest)
    case quitWithUnsavedChanges
    case restoreJournal(DocumentEdits)

    public var question: String {
        switch self {
        case .overwrite(let request): "\(request.destination) exists. Overwrite it? (y/n)"
        case .quitWithUnsavedChanges: "Unsaved markup: y saves a marked copy and quits · n quits unsaved · c cancels"
        case .restoreJournal(let edits):
            "Unsaved changes (\(Self.count(edits))) from an earlier session. Restore them? (y/n)"
        }
    }

    private static func count(_ edits: DocumentEdits) -> String {
        let markup = edits.markup.items.count
        let threads = edits.annotations.added.count + edits.annotations.changedContents.count + edits.annotations.deleted.count
        var parts: [String] = []
        if markup > 0 { parts.append("\(markup) markup item\(markup == 1 ? "" : "s")") }
        if threads > 0 { parts.append("\(threads) annotation change\(threads == 1 ? "" : "s")") }
        if edits.bookmarks != nil { parts.append("bookmarks") }
        return parts.joined(separator: ", ")
    }
}
