/// Every markup of one document, in the order it was made (later markup paints over earlier).
public struct MarkupLayer: Sendable, Hashable {
    public private(set) var items: [MarkupItem] = []
    /// Where each item stands in `items`: an item is found by its id without a walk over the others (reading a
    /// markup file of 100,000 items walked the list once per item, and took minutes).
    private var positions: [MarkupID: Int] = [:]

    public init() {}

    /// Items of one id after the first replace it where it stands, as `add` does.
    public init(items: [MarkupItem]) {
        for item in items { add(item) }
    }

    public static func == (a: MarkupLayer, b: MarkupLayer) -> Bool { a.items == b.items }
    public func hash(into hasher: inout Hasher) { hasher.combine(items) }

    public var isEmpty: Bool { items.isEmpty }

    public func items(onPage pageIndex: Int) -> [MarkupItem] {
        items.filter { $0.pageIndex == pageIndex }
    }

    public func item(_ id: MarkupID) -> MarkupItem? {
        positions[id].map { items[$0] }
    }

    public func index(of id: MarkupID) -> Int? {
        positions[id]
    }

    /// How many items carry a comment: a flattened copy has no place for one (it lives in an annotation's popup).
    public var commentCount: Int { items.reduce(0) { $0 + ($1.takesComment && $1.comment != nil ? 1 : 0) } }

    /// What a flattened save says of the comments it cannot keep, `keeping` naming what would keep them.
    public func commentsLostByFlattening(keeping: String) -> String? {
        let count = commentCount
        guard count > 0 else { return nil }
        return "\(count == 1 ? "1 comment is" : "\(count) comments are") not in a flattened copy: \(keeping) keeps \(count == 1 ? "it" : "them")"
    }

    /// Pages that carry markup, ascending.
    public var editedPages: [Int] {
        Array(Set(items.map(\.pageIndex))).sorted()
    }

    /// Each page that carries markup, ascending, with its items in their order: one pass over the items, where
    /// `items(onPage:)` for every page is a pass per page.
    public var pagesWithItems: [(page: Int, items: [MarkupItem])] {
        var byPage: [Int: [MarkupItem]] = [:]
        for item in items { byPage[item.pageIndex, default: []].append(item) }
        return byPage.keys.sorted().map { ($0, byPage[$0] ?? []) }
    }

    /// Appends an item, or replaces the one with its id where it stands.
    public mutating func add(_ item: MarkupItem) {
        insert(item, at: items.count)
    }

    /// Puts an item at `index` (clamped to the list): where an undone removal found it. An item whose id is
    /// already here replaces it instead, so no id is ever held twice.
    public mutating func insert(_ item: MarkupItem, at index: Int) {
        if let existing = positions[item.id] {
            items[existing] = item
            return
        }
        let place = min(max(0, index), items.count)
        items.insert(item, at: place)
        renumber(from: place)
    }

    public mutating func replace(_ item: MarkupItem) {
        guard let index = positions[item.id] else { return }
        items[index] = item
    }

    public mutating func remove(_ id: MarkupID) {
        guard let index = positions.removeValue(forKey: id) else { return }
        items.remove(at: index)
        renumber(from: index)
    }

    /// The positions of the items from `start` on, after an insertion or a removal there moved them.
    private mutating func renumber(from start: Int) {
        for index in start..<items.count { positions[items[index].id] = index }
    }
}
