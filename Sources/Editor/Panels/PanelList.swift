/// A side panel's list: which entry is selected and which is shown first. Every panel (annotations, bookmarks,
/// and the lists to come) moves, pages, scrolls and follows clicks through this one type, so the keys and the
/// mouse behave the same in each. Entries are named by id, so the selection survives entries coming and going;
/// each entry is one or more rows tall.
public struct PanelList<ID: Hashable & Sendable>: Sendable, Equatable {
    public var selected: ID?
    /// The first entry shown.
    public private(set) var top = 0

    public init(selected: ID? = nil) {
        self.selected = selected
    }

    /// Moves the selection over `entries` (ids with their heights in rows) in a panel `height` rows tall, and
    /// scrolls just enough to keep it in view.
    public mutating func move(_ motion: ListMotion, over entries: [(id: ID, rows: Int)], height: Int) {
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
        if index(in: entries) == nil {
            selected = entries.isEmpty ? nil : entries[min(max(0, formerIndex ?? 0), entries.count - 1)].id
        }
        reveal(entries, height: height)
    }

    /// The entry drawn on a row of the list (0 is its first row), if any.
    public func entry(atRow row: Int, of entries: [(id: ID, rows: Int)], height: Int) -> ID? {
        var used = 0
        for entry in entries.dropFirst(shownTop(entries, height: height)) {
            if row >= used, row < used + entry.rows { return entry.id }
            used += entry.rows
        }
        return nil
    }

    /// The entry to draw first: `top`, moved as little as needed so the selected entry fits (the terminal may
    /// have been resized since the last move).
    public func shownTop(_ entries: [(id: ID, rows: Int)], height: Int) -> Int {
        var copy = self
        copy.reveal(entries, height: height)
        return min(copy.top, max(0, entries.count - 1))
    }

    private func index(in entries: [(id: ID, rows: Int)]) -> Int? {
        guard let selected else { return nil }
        return entries.firstIndex { $0.id == selected }
    }

    private mutating func reveal(_ entries: [(id: ID, rows: Int)], height: Int) {
        // Never scrolled past the point where the last entry sits at the foot: no blank rows below the end.
        top = min(top, lastTop(entries, height: height))
        guard let current = index(in: entries) else { return }
        if current < top { top = current }
        // Down until the selected entry's last row is inside the panel (or it is the first shown).
        while top < current, entries[top...current].reduce(0, { $0 + $1.rows }) > height { top += 1 }
    }

    /// The first entry shown when the list is scrolled to its end.
    private func lastTop(_ entries: [(id: ID, rows: Int)], height: Int) -> Int {
        var used = 0
        var first = entries.count
        while first > 0, used + entries[first - 1].rows <= height {
            used += entries[first - 1].rows
            first -= 1
        }
        return min(first, max(0, entries.count - 1))
    }

    /// How many entries from `start` fit in `height` rows (at least one).
    private func visibleCount(from start: Int, _ entries: [(id: ID, rows: Int)], height: Int) -> Int {
        var used = 0, count = 0
        for entry in entries.dropFirst(start) {
            guard used + entry.rows <= height else { break }
            used += entry.rows
            count += 1
        }
        return max(1, count)
    }
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
