import RedlineCore

/// What the keyboard is doing right now.
public enum EditorMode: Sendable, Equatable {
    case normal
    /// Typing a text markup, new (`editing` nil) or an existing one.
    case typing(TextDraft)
    /// Drawing ink with the pen cursor.
    case inking(InkSession)
    /// A `:` command line.
    case command(String)
    case confirming(Confirmation)
    /// The key overlay (`EditorState.helpScroll` says how far it is scrolled).
    case help
    /// The annotation list beside the page.
    case annotations(AnnotationPanel)
    /// The bookmarks panel beside the page.
    case bookmarks(BookmarkPanel)
}

public struct TextDraft: Sendable, Equatable {
    /// The markup being edited; nil for new text.
    public var editing: MarkupID?
    /// The id the text has, or will have once committed.
    public var id: MarkupID
    public var pageIndex: Int
    public var markup: TextMarkup

    public init(editing: MarkupID?, id: MarkupID, pageIndex: Int, markup: TextMarkup) {
        self.editing = editing
        self.id = id
        self.pageIndex = pageIndex
        self.markup = markup
    }
}

/// A yes/no question the editor is waiting on.
public enum Confirmation: Sendable, Equatable {
    case overwrite(SaveRequest)
    case quitWithUnsavedChanges
    case restoreJournal(DocumentEdits)

    public var question: String {
        switch self {
        case .overwrite(let request): "\(request.destination) exists. Overwrite it? (y/n)"
        case .quitWithUnsavedChanges: "Unsaved markup. Save a marked copy before quitting? y saves and quits · n quits without saving · c cancels"
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
