/// One change to one thing in a document's edits: a markup, an annotation made in this session, the
/// contents or the deletion of an annotation of the file, a bookmark. Each says what was there before and
/// what is there after, so its inverse is exact and anyone applying it can tell whether it still fits.
public enum DocumentChange: Sendable, Hashable, Codable {
    case insertMarkup(item: MarkupItem, index: Int)
    case removeMarkup(item: MarkupItem, index: Int)
    case replaceMarkup(before: MarkupItem, after: MarkupItem)
    /// Annotations this session made (replies, state changes), in the order they were made.
    case insertAnnotation(annotation: Annotation, index: Int)
    case removeAnnotation(annotation: Annotation, index: Int)
    case replaceAnnotation(before: Annotation, after: Annotation)
    /// New contents for an annotation of the file; nil is "as the file has it".
    case changeContents(id: AnnotationID, before: AnnotationEdits.ContentsChange?, after: AnnotationEdits.ContentsChange?)
    /// An annotation of the file moved: how far from where the file has it (nil: not moved).
    case moveAnnotation(id: AnnotationID, before: AnnotationEdits.Move?, after: AnnotationEdits.Move?)
    /// An annotation of the file given a new colour or font size (nil: as the file has it).
    case restyleAnnotation(id: AnnotationID, before: AnnotationEdits.Restyle?, after: AnnotationEdits.Restyle?)
    /// An annotation of the file deleted (true) or kept (false).
    case deleteAnnotation(id: AnnotationID, deleted: Bool)
    /// A bookmark added (before nil), changed, or removed (after nil).
    case putBookmark(before: Bookmark?, after: Bookmark?)

    /// The change that undoes this one.
    public var inverse: DocumentChange {
        switch self {
        case .insertMarkup(let item, let index): .removeMarkup(item: item, index: index)
        case .removeMarkup(let item, let index): .insertMarkup(item: item, index: index)
        case .replaceMarkup(let before, let after): .replaceMarkup(before: after, after: before)
        case .insertAnnotation(let annotation, let index): .removeAnnotation(annotation: annotation, index: index)
        case .removeAnnotation(let annotation, let index): .insertAnnotation(annotation: annotation, index: index)
        case .replaceAnnotation(let before, let after): .replaceAnnotation(before: after, after: before)
        case .changeContents(let id, let before, let after): .changeContents(id: id, before: after, after: before)
        case .deleteAnnotation(let id, let deleted): .deleteAnnotation(id: id, deleted: !deleted)
        case .moveAnnotation(let id, let before, let after): .moveAnnotation(id: id, before: after, after: before)
        case .restyleAnnotation(let id, let before, let after): .restyleAnnotation(id: id, before: after, after: before)
        case .putBookmark(let before, let after): .putBookmark(before: after, after: before)
        }
    }

    /// This change and `next`, made right after it, as one: a markup replaced twice, an annotation moved twice.
    /// Nil when they do not continue each other.
    public func continued(by next: DocumentChange) -> DocumentChange? {
        switch (self, next) {
        case (.replaceMarkup(let start, let end), .replaceMarkup(let before, let after)) where end == before:
            .replaceMarkup(before: start, after: after)
        case (.replaceMarkup(let start, let end), .removeMarkup(let item, let index)) where end == item:
            .removeMarkup(item: start, index: index)
        case (.moveAnnotation(let id, let start, let end), .moveAnnotation(let nextID, let before, let after))
            where id == nextID && end == before:
            .moveAnnotation(id: id, before: start, after: after)
        default: nil
        }
    }

    /// The annotation the change is about, by name: a markup's is the name it has as an annotation (`:wa`, a
    /// shared session). Nil for a bookmark.
    public var annotationName: AnnotationID? {
        switch self {
        case .insertMarkup(let item, _), .removeMarkup(let item, _), .replaceMarkup(_, let item): item.annotationName
        case .insertAnnotation(let annotation, _), .removeAnnotation(let annotation, _), .replaceAnnotation(_, let annotation):
            annotation.id
        case .changeContents(let id, _, _), .deleteAnnotation(let id, _), .moveAnnotation(let id, _, _), .restyleAnnotation(let id, _, _):
            id
        case .putBookmark: nil
        }
    }

    /// What the change is about, for telling whether two changes touch the same thing.
    public var subject: String {
        switch self {
        case .insertMarkup(let item, _), .removeMarkup(let item, _), .replaceMarkup(_, let item):
            "markup \(item.id)"
        case .insertAnnotation(let annotation, _), .removeAnnotation(let annotation, _), .replaceAnnotation(_, let annotation):
            "annotation \(annotation.id.rawValue)"
        case .changeContents(let id, _, _): "contents \(id.rawValue)"
        case .deleteAnnotation(let id, _): "deletion \(id.rawValue)"
        case .moveAnnotation(let id, _, _): "place \(id.rawValue)"
        case .restyleAnnotation(let id, _, _): "look \(id.rawValue)"
        case .putBookmark(let before, let after): "bookmark \(after?.id ?? before?.id ?? "")"
        }
    }
}
