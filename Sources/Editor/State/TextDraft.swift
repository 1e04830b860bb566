import RedlineCore

/// Text markup being typed: a new one (`editing` nil) or an existing one's new text.
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
