import Foundation

/// Redline's bookmarks as the document outline shows them, for the readers that show only the outline (Acrobat,
/// Okular, zathura, mupdf): one entry, "Bookmarks", after the document's own top-level entries, holding an entry
/// per bookmark in the user's order. Each entry remembers what Redline wrote (its bookmark's id, title and page),
/// and the folder which bookmarks it was written with, so what another program did to the folder since (renamed,
/// moved, deleted, added an entry) is told apart from what Preview or PSPDFKit did to the metadata.
public struct OutlineFolder: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        /// The bookmark Redline wrote the entry for; nil for one another program added to the folder.
        public var bookmarkID: String?
        public var title: String
        /// The page its destination leads to, from 0; nil when it leads nowhere Redline can tell.
        public var pageIndex: Int?
        /// The title and page as Redline wrote them.
        public var writtenTitle: String?
        public var writtenPage: Int?

        public init(bookmarkID: String?, title: String, pageIndex: Int?, writtenTitle: String? = nil, writtenPage: Int? = nil) {
            self.bookmarkID = bookmarkID
            self.title = title
            self.pageIndex = pageIndex
            self.writtenTitle = writtenTitle
            self.writtenPage = writtenPage
        }
    }

    public static let title = "Bookmarks"

    public var entries: [Entry]
    /// The bookmarks the folder was last written with, in its order.
    public var written: [String]

    public init(entries: [Entry], written: [String]) {
        self.entries = entries
        self.written = written
    }

    /// The folder `list` is written as: every bookmark that leads to a page, in the custom order, titled by its
    /// name or its page as printed.
    public init(for list: BookmarkList, labels: PageLabels? = nil) {
        let placed = list.sorted(.custom).filter { $0.pageIndex != nil }
        entries = placed.map { bookmark in
            let title = Self.title(of: bookmark, labels: labels)
            return Entry(bookmarkID: bookmark.id, title: title, pageIndex: bookmark.pageIndex, writtenTitle: title,
                         writtenPage: bookmark.pageIndex)
        }
        written = placed.map(\.id)
    }

    public static func title(of bookmark: Bookmark, labels: PageLabels?) -> String {
        if let name = bookmark.name { return name }
        guard let page = bookmark.pageIndex else { return bookmark.title }
        return "Page " + (labels?.label(ofPage: page).flatMap { $0.isEmpty ? nil : $0 } ?? "\(page + 1)")
    }

    /// Whether writing `list` would change the folder: another entry, title, page or order.
    public func isInStep(with list: BookmarkList, labels: PageLabels?) -> Bool {
        let wanted = OutlineFolder(for: list, labels: labels)
        return written == wanted.written && entries.count == wanted.entries.count
            && zip(entries, wanted.entries).allSatisfy { $0.bookmarkID == $1.bookmarkID && $0.title == $1.title && $0.pageIndex == $1.pageIndex }
    }

    /// The bookmarks once what happened to the folder since Redline wrote it is taken in: an entry renamed or
    /// moved renames or moves its bookmark, an entry removed removes it, an entry added is a new bookmark, and the
    /// folder's order is the custom order. Bookmarks the folder was not written with (added in Preview since) stay,
    /// after the folder's; a bookmark changed on both sides takes the folder's change. Entries leading to no page of
    /// the document are passed over.
    public func reconciled(_ list: BookmarkList, pageCount: Int) -> BookmarkList {
        let byID = Dictionary(list.bookmarks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let writtenIDs = Set(written)
        var result: [Bookmark] = []
        var placed: Set<String> = []
        for (index, entry) in entries.enumerated() {
            guard let page = entry.pageIndex, page >= 0, page < pageCount else { continue }
            if let id = entry.bookmarkID?.uppercased(), let bookmark = byID[id] {
                guard placed.insert(id).inserted else { continue }
                let renamed = entry.title != entry.writtenTitle
                let moved = entry.pageIndex != entry.writtenPage
                result.append(Bookmark(id: id, pageIndex: moved ? page : bookmark.pageIndex,
                                       name: renamed ? entry.title : bookmark.name, sortKey: result.count,
                                       otherAction: bookmark.otherAction))
            } else if let id = entry.bookmarkID?.uppercased(), writtenIDs.contains(id) {
                // Written with it, and the metadata no longer has it: removed there (Preview) since.
                continue
            } else {
                // Added in another program: an id it keeps as long as the entry keeps its place and title.
                let id = StableUUID.derived(seed: StableHash.fnv1a64(entry.title), item: "outline \(index) \(page)").uuidString
                guard placed.insert(id).inserted else { continue }
                result.append(Bookmark(id: id, pageIndex: page, name: entry.title, sortKey: result.count))
            }
        }
        let inFolder = Set(entries.compactMap { $0.bookmarkID?.uppercased() })
        for bookmark in list.sorted(.custom) where !placed.contains(bookmark.id) {
            // Written into the folder and gone from it: removed there.
            if writtenIDs.contains(bookmark.id), !inFolder.contains(bookmark.id), bookmark.pageIndex != nil { continue }
            placed.insert(bookmark.id)
            result.append(bookmark.withSortKey(result.count))
        }
        return BookmarkList(result)
    }
}
