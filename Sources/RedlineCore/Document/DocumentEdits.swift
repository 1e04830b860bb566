/// Everything a session changes in a document before saving: markup to flatten into pages, and changes to
/// the annotations that stay annotations (replies, review states, deletions). One value, so one undo
/// history and one save cover both.
public struct DocumentEdits: Sendable, Hashable {
    public var markup: MarkupLayer
    public var annotations: AnnotationEdits
    /// The bookmarks as they should be saved; nil when they were not changed.
    public var bookmarks: BookmarkList?

    public init(markup: MarkupLayer = MarkupLayer(), annotations: AnnotationEdits = AnnotationEdits(),
                bookmarks: BookmarkList? = nil) {
        self.markup = markup
        self.annotations = annotations
        self.bookmarks = bookmarks
    }

    public var isEmpty: Bool { markup.isEmpty && annotations.isEmpty && bookmarks == nil }
}
