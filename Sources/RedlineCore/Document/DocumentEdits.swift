/// Everything a session changes in a document before saving: markup to flatten into pages, and changes to
/// the annotations that stay annotations (replies, review states, deletions). One value, so one undo
/// history and one save cover both.
public struct DocumentEdits: Sendable, Hashable {
    public var markup: MarkupLayer
    public var annotations: AnnotationEdits

    public init(markup: MarkupLayer = MarkupLayer(), annotations: AnnotationEdits = AnnotationEdits()) {
        self.markup = markup
        self.annotations = annotations
    }

    public var isEmpty: Bool { markup.isEmpty && annotations.isEmpty }
}
