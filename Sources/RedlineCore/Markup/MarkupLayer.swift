/// Every markup of one document, in the order it was made. A value: the undo history keeps copies.
public struct MarkupLayer: Sendable, Hashable {
    public private(set) var items: [MarkupItem] = []
    private var nextRawID = 1

    public init() {}

    public init(items: [MarkupItem]) {
        self.items = items
        nextRawID = (items.map(\.id.rawValue).max() ?? 0) + 1
    }

    public var isEmpty: Bool { items.isEmpty }

    public func items(onPage pageIndex: Int) -> [MarkupItem] {
        items.filter { $0.pageIndex == pageIndex }
    }

    public func item(_ id: MarkupID) -> MarkupItem? {
        items.first { $0.id == id }
    }

    /// Pages that carry markup, ascending.
    public var editedPages: [Int] {
        Array(Set(items.map(\.pageIndex))).sorted()
    }

    @discardableResult
    public mutating func add(pageIndex: Int, content: MarkupContent) -> MarkupID {
        let id = MarkupID(nextRawID)
        nextRawID += 1
        items.append(MarkupItem(id: id, pageIndex: pageIndex, content: content))
        return id
    }

    public mutating func replace(_ item: MarkupItem) {
        guard let index = items.firstIndex(where: { $0.id == item.id }) else { return }
        items[index] = item
    }

    public mutating func remove(_ id: MarkupID) {
        items.removeAll { $0.id == id }
    }
}
