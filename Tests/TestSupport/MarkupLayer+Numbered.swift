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

extension DocumentEdits {
    /// The edits as the one operation that makes them from nothing: what a journal holding them contains.
    public func asOperations(author: String = "Test") -> [DocumentOperation] {
        let changes = DocumentEdits().changes(to: self, bookmarkBase: BookmarkList())
        let time = PDFDate(year: 2026, month: 11, day: 23, hour: 9, minute: 0, offsetMinutes: 0)
        return [DocumentOperation(id: StableUUID.derived(seed: 1, item: "edits"), author: author, time: time, changes: changes)]
    }
}
