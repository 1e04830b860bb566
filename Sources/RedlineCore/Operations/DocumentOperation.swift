import Foundation

/// One change a person made to a document, as a value: what changed, who changed it and when, under an id
/// no other operation anywhere shares. Edits are the result of applying operations in order; undo applies the
/// inverse of one's own last operation; the crash journal and (later) collaborators exchange them.
public struct DocumentOperation: Sendable, Hashable, Codable, Identifiable {
    public let id: UUID
    public let author: String
    public let time: PDFDate
    public var changes: [DocumentChange]

    public init(id: UUID, author: String, time: PDFDate, changes: [DocumentChange]) {
        self.id = id
        self.author = author
        self.time = time
        self.changes = changes
    }

    /// The operation that undoes this one: each change inverted, last first.
    public func inverse(id: UUID, author: String, time: PDFDate) -> DocumentOperation {
        DocumentOperation(id: id, author: author, time: time, changes: changes.reversed().map(\.inverse))
    }
}
