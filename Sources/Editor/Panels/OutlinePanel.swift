import RedlineCore

/// The outline panel (`o`): the document's table of contents as a tree, folded and unfolded entry by entry.
/// Entries are named by their path of indexes from the top (`[2, 0]` is the third entry's first child).
public struct OutlinePanel: Sendable, Equatable {
    public var list = PanelList<[Int]>()
    /// The entries shown unfolded; at first those the file marks open.
    public var unfolded: Set<[Int]> = []

    public init(outline: [OutlineEntry]) {
        func collect(_ entries: [OutlineEntry], _ path: [Int]) {
            for (index, entry) in entries.enumerated() where !entry.children.isEmpty {
                if entry.isOpen { unfolded.insert(path + [index]) }
                collect(entry.children, path + [index])
            }
        }
        collect(outline, [])
    }

    /// One row of the tree as shown.
    public struct Row: Sendable, Equatable {
        public var path: [Int]
        public var entry: OutlineEntry
        public var depth: Int { path.count - 1 }
        public var hasChildren: Bool { !entry.children.isEmpty }
    }

    /// The rows shown: every top-level entry, and the children of unfolded ones.
    public func rows(_ outline: [OutlineEntry]) -> [Row] {
        var rows: [Row] = []
        func add(_ entries: [OutlineEntry], _ path: [Int]) {
            for (index, entry) in entries.enumerated() {
                let here = path + [index]
                rows.append(Row(path: here, entry: entry))
                if unfolded.contains(here) { add(entry.children, here) }
            }
        }
        add(outline, [])
        return rows
    }

    /// The entry the current page is in: the last, in reading order, whose destination is on this page or
    /// before it; shown on the nearest row visible (a folded parent).
    public func currentRow(_ outline: [OutlineEntry], pageIndex: Int) -> [Int]? {
        var best: [Int]?
        var bestPage = -1
        func walk(_ entries: [OutlineEntry], _ path: [Int]) {
            for (index, entry) in entries.enumerated() {
                let here = path + [index]
                if let page = entry.destination?.pageIndex, page <= pageIndex, page >= bestPage {
                    best = here
                    bestPage = page
                }
                walk(entry.children, here)
            }
        }
        walk(outline, [])
        guard var path = best else { return nil }
        // A folded ancestor stands for it.
        for length in 1..<max(1, path.count) where !unfolded.contains(Array(path.prefix(length))) {
            path = Array(path.prefix(length))
            break
        }
        return path
    }
}

extension OutlineEntry {
    /// The entry at a path, if there is one.
    public static func at(_ path: [Int], in outline: [OutlineEntry]) -> OutlineEntry? {
        var entries = outline
        var found: OutlineEntry?
        for index in path {
            guard entries.indices.contains(index) else { return nil }
            found = entries[index]
            entries = entries[index].children
        }
        return found
    }
}
