/// A bookmark: an immutable value with a stable identifier (an uppercase UUID, as Apple Preview and
/// PSPDFKit write it) and a sort key for the user's own order. Changing one makes a new value with
/// the same identifier, which replaces the old one.
public struct Bookmark: Sendable, Hashable, Codable, Identifiable {
    public let id: String
    /// The page it leads to, from 0; nil for a bookmark whose action is not "go to a page".
    public let pageIndex: Int?
    public let name: String?
    /// Position in the custom order; only ever compared, never shown.
    public let sortKey: Int
    /// An action other than going to a page, as the JSON PSPDFKit wrote it, kept so a save does not lose it.
    public let otherAction: String?

    public init(id: String, pageIndex: Int?, name: String? = nil, sortKey: Int, otherAction: String? = nil) {
        self.id = id.uppercased()
        self.pageIndex = pageIndex
        self.name = name.flatMap { $0.isEmpty ? nil : $0 }
        self.sortKey = sortKey
        self.otherAction = otherAction
    }

    public func renamed(_ name: String?) -> Bookmark {
        Bookmark(id: id, pageIndex: pageIndex, name: name, sortKey: sortKey, otherAction: otherAction)
    }

    public func withSortKey(_ sortKey: Int) -> Bookmark {
        Bookmark(id: id, pageIndex: pageIndex, name: name, sortKey: sortKey, otherAction: otherAction)
    }

    /// What lists show: the name, else "Page N".
    public var title: String { name ?? pageIndex.map { "Page \($0 + 1)" } ?? "Bookmark" }
}

/// The two orders bookmarks are shown in.
public enum BookmarkOrder: String, Sendable, Hashable, Codable, CaseIterable {
    /// The user's own: new bookmarks at the end, moved by hand.
    case custom
    /// By page; bookmarks without a page last, each group keeping the custom order.
    case page
}
