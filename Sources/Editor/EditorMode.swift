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
    case help
}

public struct TextDraft: Sendable, Equatable {
    public var editing: MarkupID?
    public var pageIndex: Int
    public var markup: TextMarkup

    public init(editing: MarkupID?, pageIndex: Int, markup: TextMarkup) {
        self.editing = editing
        self.pageIndex = pageIndex
        self.markup = markup
    }
}

/// A yes/no question the editor is waiting on.
public enum Confirmation: Sendable, Equatable {
    case overwrite(SaveRequest)
    case quitWithUnsavedChanges
    case restoreJournal(MarkupLayer)

    public var question: String {
        switch self {
        case .overwrite(let request): "\(request.destination) exists. Overwrite it? (y/n)"
        case .quitWithUnsavedChanges: "Unsaved markup. Save a marked copy before quitting? y saves and quits · n quits without saving · c cancels"
        case .restoreJournal(let layer):
            "Unsaved markup (\(layer.items.count) item\(layer.items.count == 1 ? "" : "s")) from an earlier session. Restore it? (y/n)"
        }
    }
}
