/// Why a reply, state change or deletion cannot be made, in words for the user.
public enum AnnotationEditError: Error, Equatable, CustomStringConvertible {
    case unknownAnnotation(AnnotationID, path: String)
    case readOnly(AnnotationID)
    case locked(AnnotationID)
    case movesWithItsThread(AnnotationID)
    case notMovable(AnnotationID, subtype: AnnotationSubtype)
    case notPermitted(path: String)
    case notTheAuthor(AnnotationID, author: String)
    case emptyText
    case notAComment(AnnotationID, subtype: AnnotationSubtype)
    /// What cannot be given a new look: a stamp's look is its picture; only a FreeText has a font size.
    case keepsItsLook(AnnotationID, subtype: AnnotationSubtype, what: String, why: String? = nil)
    /// A text box without words: nothing to draw in a new colour or size until it has some.
    case emptyTextBox(AnnotationID, what: String)
    /// Only a FreeText and a note hold text of their own to edit.
    case hasNoText(AnnotationID, subtype: AnnotationSubtype)

    /// "a square", "an ink": the subtype as the sentence needs it.
    static func aOrAn(_ subtype: AnnotationSubtype) -> String {
        let word = subtype.label.lowercased()
        return (word.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + word
    }

    public var description: String {
        switch self {
        case .unknownAnnotation(let id, let path):
            "\(path): no annotation with id \"\(id)\" (redline annotations \(path) lists them)"
        case .readOnly(let id): "annotation \"\(id)\" is read-only: it cannot be answered or changed"
        case .locked(let id): "annotation \"\(id)\" is locked: it cannot be moved, changed or deleted"
        case .movesWithItsThread(let id): "annotation \"\(id)\" is a reply: it moves with the annotation it answers"
        case .notMovable(let id, let subtype): "annotation \"\(id)\" is \(Self.aOrAn(subtype)): only markup annotations move"
        case .notPermitted(let path): "\(path): the document's permissions do not allow changing annotations"
        case .notTheAuthor(let id, let author): "annotation \"\(id)\" is \(author)'s: only your own replies can be edited or deleted"
        case .emptyText: "the text is empty"
        case .notAComment(let id, let subtype):
            "annotation \"\(id)\" is \(Self.aOrAn(subtype)), not a comment: it cannot be answered or reviewed"
        case .keepsItsLook(let id, let subtype, let what, let why):
            "annotation \"\(id)\" is \(Self.aOrAn(subtype)): its \(what) stays as it is" + (why.map { " (\($0))" } ?? "")
        case .emptyTextBox(let id, let what):
            "annotation \"\(id)\" is an empty text box: its \(what) stays as it is until it has words (Enter gives it some)"
        case .hasNoText(let id, let subtype):
            "annotation \"\(id)\" is \(Self.aOrAn(subtype)): only markup (notes, text boxes, highlights, shapes, stamps…) has text to edit"
        }
    }
}
