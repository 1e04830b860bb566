/// A side panel's list: which entry is selected and which is shown first. Every panel (annotations, bookmarks,
/// and the lists to come) moves, pages, scrolls and follows clicks through this one type, so the keys and the
/// mouse behave the same in each. Entries are named by id, so the selection survives entries coming and going;
/// each entry is one or more rows tall.
public struct PanelList<ID: Hashable & Sendable>: Sendable, Equatable {
    public typealias Entries = ListEntries<ID>

    public var selected: ID?
    /// The first entry shown.
    public private(set) var top = 0

    public init(selected: ID? = nil) {
        self.selected = selected
    }

    /// Moves the selection over `entries` (ids with their heights in rows) in a panel `height` rows tall, and
    /// scrolls just enough to keep it in view.
    public mutating func move(_ motion: ListMotion, over entries: [(id: ID, rows: Int)], height: Int) {
        move(motion, over: Entries(entries), height: height)
    }

    public mutating func move(_ motion: ListMotion, over entries: Entries, height: Int) {
        guard !entries.isEmpty else {
            selected = nil
            top = 0
            return
        }
        let current = index(in: entries)
        // A page is what the panel shows now, less one entry that stays in view for context.
        reveal(entries, height: height)
        let page = max(1, visibleCount(from: top, entries, height: height) - 1)
        let target: Int
        switch motion {
        case .next: target = (current ?? -1) + 1
        case .previous: target = (current ?? entries.count) - 1
        case .first: target = 0
        case .last: target = entries.count - 1
        case .pageDown: target = (current ?? 0) + page
        case .pageUp: target = (current ?? 0) - page
        }
        let clamped = min(max(0, target), entries.count - 1)
        selected = entries[clamped].id
        if motion == .pageDown { top = min(top + page, clamped) }
        if motion == .pageUp { top = max(0, top - page) }
        reveal(entries, height: height)
    }

    /// Keeps the selection on an entry that is still there: the one now at the place of a removed one, else the
    /// last; then scrolls it into view.
    public mutating func keepValid(_ entries: [(id: ID, rows: Int)], height: Int, formerIndex: Int? = nil) {
        keepValid(Entries(entries), height: height, formerIndex: formerIndex)
    }

    public mutating func keepValid(_ entries: Entries, height: Int, formerIndex: Int? = nil) {
        if index(in: entries) == nil {
            selected = entries.isEmpty ? nil : entries[min(max(0, formerIndex ?? 0), entries.count - 1)].id
        }
        reveal(entries, height: height)
    }

    /// The entry drawn on a row of the list (0 is its first row), if any.
    public func entry(atRow row: Int, of entries: Entries, height: Int) -> ID? {
        var used = 0
        for entry in entries.items.dropFirst(shownTop(entries, height: height)) {
            if row >= used, row < used + entry.rows { return entry.id }
            used += entry.rows
        }
        return nil
    }

    /// The entry to draw first: `top`, moved as little as needed so the selected entry fits (the terminal may
    /// have been resized since the last move).
    public func shownTop(_ entries: [(id: ID, rows: Int)], height: Int) -> Int {
        shownTop(Entries(entries), height: height)
    }

    public func shownTop(_ entries: Entries, height: Int) -> Int {
        var copy = self
        copy.reveal(entries, height: height)
        return min(copy.top, max(0, entries.count - 1))
    }

    private func index(in entries: Entries) -> Int? {
        entries.position(of: selected)
    }

    private mutating func reveal(_ entries: Entries, height: Int) {
        // Never scrolled past the point where the last entry sits at the foot: no blank rows below the end.
        top = min(top, lastTop(entries, height: height))
        guard let current = index(in: entries) else { return }
        if current < top { top = current }
        // Down until the selected entry's last row is inside the panel (or it is the first shown).
        while top < current, entries.items[top...current].reduce(0, { $0 + $1.rows }) > height { top += 1 }
    }

    /// The first entry shown when the list is scrolled to its end.
    private func lastTop(_ entries: Entries, height: Int) -> Int {
        var used = 0
        var first = entries.count
        while first > 0, used + entries[first - 1].rows <= height {
            used += entries[first - 1].rows
            first -= 1
        }
        return min(first, max(0, entries.count - 1))
    }

    /// How many entries from `start` fit in `height` rows (at least one).
    private func visibleCount(from start: Int, _ entries: Entries, height: Int) -> Int {
        var used = 0, count = 0
        for entry in entries.items.dropFirst(start) {
            guard used + entry.rows <= height else { break }
            used += entry.rows
            count += 1
        }
        return max(1, count)
    }
}

/// A list's entries (ids with their heights in rows) and where each id stands: what the list asks at every key,
/// answered without going through a list that can be 20,000 entries long.
public struct ListEntries<ID: Hashable & Sendable>: Sendable {
    public let items: [(id: ID, rows: Int)]
    private let positions: [ID: Int]

    public init(_ items: [(id: ID, rows: Int)]) {
        self.items = items
        var positions: [ID: Int] = [:]
        positions.reserveCapacity(items.count)
        for (index, item) in items.enumerated() where positions[item.id] == nil { positions[item.id] = index }
        self.positions = positions
    }

    /// Where `id` stands (its first place), if it is listed.
    public func position(of id: ID?) -> Int? { id.flatMap { positions[$0] } }
    public func contains(_ id: ID?) -> Bool { position(of: id) != nil }
    public var count: Int { items.count }
    public var isEmpty: Bool { items.isEmpty }
    public var first: (id: ID, rows: Int)? { items.first }
    public subscript(index: Int) -> (id: ID, rows: Int) { items[index] }
}

/// How a list command moves through a list.
public enum ListMotion: Sendable, Equatable {
    case next, previous, first, last, pageDown, pageUp

    init?(_ command: EditorCommand?) {
        switch command {
        case .listDown?: self = .next
        case .listUp?: self = .previous
        case .listFirst?: self = .first
        case .listLast?: self = .last
        case .listPageDown?: self = .pageDown
        case .listPageUp?: self = .pageUp
        default: return nil
        }
    }
}
