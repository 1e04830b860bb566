/// Every markup of one document, in the order it was made (later markup paints over earlier).
public struct MarkupLayer: Sendable, Hashable {
    public private(set) var items: [MarkupItem] = []

    public init() {}

    public init(items: [MarkupItem]) {
        self.items = items
    }

    public var isEmpty: Bool { items.isEmpty }

    public func items(onPage pageIndex: Int) -> [MarkupItem] {
        items.filter { $0.pageIndex == pageIndex }
    }

    public func item(_ id: MarkupID) -> MarkupItem? {
        items.first { $0.id == id }
    }

    public func index(of id: MarkupID) -> Int? {
        items.firstIndex { $0.id == id }
    }

    /// Pages that carry markup, ascending.
    public var editedPages: [Int] {
        Array(Set(items.map(\.pageIndex))).sorted()
    }

    /// Appends an item, or replaces the one with its id where it stands.
    public mutating func add(_ item: MarkupItem) {
        insert(item, at: items.count)
    }

    /// Puts an item at `index` (clamped to the list): where an undone removal found it. An item whose id is
    /// already here replaces it instead, so no id is ever held twice.
    public mutating func insert(_ item: MarkupItem, at index: Int) {
        if let existing = self.index(of: item.id) {
            items[existing] = item
        } else {
            items.insert(item, at: min(max(0, index), items.count))
        }
    }

    public mutating func replace(_ item: MarkupItem) {
        guard let index = index(of: item.id) else { return }
        items[index] = item
    }

    public mutating func remove(_ id: MarkupID) {
        items.removeAll { $0.id == id }
    }
}
