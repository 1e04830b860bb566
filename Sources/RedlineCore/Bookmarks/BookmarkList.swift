/// A document's bookmarks as a value: the editor's undo keeps copies, a save writes it through the
/// providers. Every change returns through here, so the sort keys stay a clean custom order.
public struct BookmarkList: Sendable, Hashable, Codable {
    public internal(set) var bookmarks: [Bookmark]

    public init(_ bookmarks: [Bookmark] = []) {
        self.bookmarks = bookmarks.sorted { ($0.sortKey, $0.id) < ($1.sortKey, $1.id) }
    }

    public var isEmpty: Bool { bookmarks.isEmpty }

    public func sorted(_ order: BookmarkOrder) -> [Bookmark] {
        switch order {
        case .custom:
            return bookmarks
        case .page:
            // Stable: equal pages, and the page-less ones at the end, keep the custom order.
            return bookmarks.enumerated().sorted { a, b in
                (a.element.pageIndex ?? Int.max, a.offset) < (b.element.pageIndex ?? Int.max, b.offset)
            }.map(\.element)
        }
    }

    public func bookmark(_ id: String) -> Bookmark? { bookmarks.first { $0.id == id } }
    public func bookmarks(onPage pageIndex: Int) -> [Bookmark] { bookmarks.filter { $0.pageIndex == pageIndex } }

    /// Adds a bookmark at the end of the custom order, or replaces the one with the same identifier
    /// where it stands.
    public mutating func put(_ bookmark: Bookmark) {
        if let index = bookmarks.firstIndex(where: { $0.id == bookmark.id }) {
            bookmarks[index] = bookmark.withSortKey(bookmarks[index].sortKey)
        } else {
            bookmarks.append(bookmark.withSortKey((bookmarks.map(\.sortKey).max() ?? -1) + 1))
        }
    }

    public mutating func remove(_ id: String) {
        bookmarks.removeAll { $0.id == id }
    }

    /// Bookmarks the page if it is not, else removes its bookmarks. True when the page is now bookmarked.
    @discardableResult
    public mutating func toggle(page pageIndex: Int, newID: String) -> Bool {
        let existing = bookmarks(onPage: pageIndex)
        guard existing.isEmpty else {
            for bookmark in existing { remove(bookmark.id) }
            return false
        }
        put(Bookmark(id: newID, pageIndex: pageIndex, sortKey: 0))
        return true
    }

    /// Moves a bookmark one place up (-1) or down (+1) in the custom order.
    public mutating func move(_ id: String, by offset: Int) {
        guard let index = bookmarks.firstIndex(where: { $0.id == id }) else { return }
        let target = index + offset
        guard bookmarks.indices.contains(target) else { return }
        let (a, b) = (bookmarks[index], bookmarks[target])
        bookmarks[index] = b.withSortKey(a.sortKey)
        bookmarks[target] = a.withSortKey(b.sortKey)
    }
}
