import RedlineCore

/// Text markup being typed: a new one (`editing` nil) or an existing one's new text.
public struct TextDraft: Sendable, Equatable {
    /// The markup being edited; nil for new text.
    public var editing: MarkupID?
    /// The id the text has, or will have once committed.
    public var id: MarkupID
    public var pageIndex: Int
    public var markup: TextMarkup
    /// The ink session to come back to when the words are done: a callout's are typed once its spot is placed.
    public var resumes: InkSession?

    public init(editing: MarkupID?, id: MarkupID, pageIndex: Int, markup: TextMarkup, resumes: InkSession? = nil) {
        self.editing = editing
        self.id = id
        self.pageIndex = pageIndex
        self.markup = markup
        self.resumes = resumes
    }
}

/// A comment being typed on a markup that is not text (an ink, a mark over words, a shape): its annotation's
/// /Contents once saved with `:wa`.
public struct CommentDraft: Sendable, Equatable {
    public var markup: MarkupID
    public var text: String
    /// The ink session to come back to when the comment is done: a note's words are typed as it is placed.
    public var resumes: InkSession?
    /// A note being placed: made with its words by Enter (one undo step), dropped by Esc.
    public var placing: MarkupItem?

    public init(markup: MarkupID, text: String, resumes: InkSession? = nil, placing: MarkupItem? = nil) {
        self.markup = markup
        self.text = text
        self.resumes = resumes
        self.placing = placing
    }
}
