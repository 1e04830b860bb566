import Foundation
import RedlineCore

extension MarkupLayer {
    /// Adds markup under an id numbered by its place in the layer: test layers need stable ids, not fresh ones.
    @discardableResult
    public mutating func add(pageIndex: Int, content: MarkupContent) -> MarkupID {
        let id = MarkupID.numbered(items.count + 1)
        add(MarkupItem(id: id, pageIndex: pageIndex, content: content))
        return id
    }
}

extension MarkupID {
    /// The same id for the same number, in every test run.
    public static func numbered(_ number: Int) -> MarkupID {
        MarkupID(StableUUID.derived(seed: 42, item: "test markup \(number)"))
    }
}

extension DocumentOperation {
    /// The operation that turns `before` into `after`, with a fixed id, author and time.
    public static func between(_ before: DocumentEdits, _ after: DocumentEdits, bookmarkBase: BookmarkList = BookmarkList(),
                               author: String = "Test") -> DocumentOperation {
        DocumentOperation(id: StableUUID.derived(seed: 1, item: "operation"), author: author,
                          time: PDFDate(year: 2026, month: 11, day: 23, hour: 9, minute: 0, offsetMinutes: 0),
                          changes: before.changes(to: after, bookmarkBase: bookmarkBase))
    }
}

extension DocumentEdits {
    /// The edits as the one operation that makes them from nothing: what a journal holding them contains.
    public func asOperations() -> [DocumentOperation] {
        [.between(DocumentEdits(), self)]
    }
}
