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
        /// The page its destination leads to, from 0; nil when it leads to no page (a web link): such an entry is
        /// another program's, kept in the folder as it is.
        public var pageIndex: Int?
        /// The title and page as Redline wrote them; nil when Redline did not write the entry.
        public var writtenTitle: String?
        public var writtenPage: Int?
        /// The entry's object in the file (nil for one not written yet): a rewrite of the folder changes it in place,
        /// so what other programs gave it (a colour, a style, entries under it) stays.
        public var object: Int?

        public init(bookmarkID: String?, title: String, pageIndex: Int?, writtenTitle: String? = nil, writtenPage: Int? = nil,
                    object: Int? = nil) {
            self.bookmarkID = bookmarkID
            self.title = title
            self.pageIndex = pageIndex
            self.writtenTitle = writtenTitle
            self.writtenPage = writtenPage
            self.object = object
        }

        /// What another program did to an entry Redline wrote: a new title or another page.
        var changedInTheOutline: Bool { writtenTitle != nil && (title != writtenTitle || pageIndex != writtenPage) }
    }

    public static let title = "Bookmarks"

    public var entries: [Entry]
    /// The bookmarks the folder was last written with, in its order.
    public var written: [String]
    /// The folder's object in the file; nil when it is to be made.
    public var object: Int?
    /// A top-level "Bookmarks" entry without Redline's keys: the folder after a program that rewrote the outline
    /// (PyMuPDF's `set_toc`, `mutool merge`) dropped them. It is Redline's when its entries match bookmarks.
    public var adopted: Bool

    public init(entries: [Entry], written: [String], object: Int? = nil, adopted: Bool = false) {
        self.entries = entries
        self.written = written
        self.object = object
        self.adopted = adopted
    }

    /// The folder `list` is written as: every bookmark that leads to a page, in the custom order, titled by its
    /// name or its page as printed, each in the entry that held it before; then the entries of `previous` that lead
    /// to no page, as they were.
    public init(for list: BookmarkList, labels: PageLabels? = nil, previous: OutlineFolder? = nil) {
        let objects = Dictionary((previous?.entries ?? []).compactMap { entry in entry.bookmarkID.flatMap { id in entry.object.map { (id, $0) } } },
                                 uniquingKeysWith: { first, _ in first })
        let placed = list.sorted(.custom).filter { $0.pageIndex != nil }
        entries = placed.map { bookmark in
            let title = Self.title(of: bookmark, labels: labels)
            return Entry(bookmarkID: bookmark.id, title: title, pageIndex: bookmark.pageIndex, writtenTitle: title,
                         writtenPage: bookmark.pageIndex, object: objects[bookmark.id])
        }
        entries += (previous?.entries ?? []).filter { $0.pageIndex == nil && $0.object != nil }
        written = placed.map(\.id)
        object = previous?.object
        adopted = false
    }

    public static func title(of bookmark: Bookmark, labels: PageLabels?) -> String {
        if let name = bookmark.name { return name }
        guard let page = bookmark.pageIndex else { return bookmark.title }
        return unnamedTitle(page: page, labels: labels)
    }

    /// An unnamed bookmark's title: its page as printed (`label(ofPage:)` gives no empty label), else counted from 1.
    static func unnamedTitle(page: Int, labels: PageLabels?) -> String {
        "Page " + (labels?.label(ofPage: page) ?? "\(page + 1)")
    }

    /// Whether writing `list` would change the folder: another entry, title, page or order, or keys to put back.
    public func isInStep(with list: BookmarkList, labels: PageLabels?) -> Bool {
        let wanted = OutlineFolder(for: list, labels: labels, previous: self)
        return !adopted && written == wanted.written && entries == wanted.entries
    }

    /// The bookmarks once what happened to the folder since Redline wrote it is taken in, and the folder with each
    /// of its entries paired with its bookmark (nil when an adopted folder turns out not to be Redline's).
    ///
    /// An entry renamed or moved renames or moves its bookmark, an entry removed removes it, an entry added is a new
    /// bookmark, and the folder's order is the custom order. A bookmark the folder was written with and the metadata
    /// no longer holds was removed there (Preview) and goes, unless the outline changed it too (the outline's change
    /// wins) or the metadata cannot be trusted to say: `trustsAbsence` false (a provider could not be read), or it
    /// holds none of the folder's bookmarks (stripped by a metadata scrubber, a sidecar on another machine). Bookmarks
    /// the folder was not written with (added in Preview since) stay, after the folder's.
    public func reconciled(_ list: BookmarkList, pageCount: Int, labels: PageLabels? = nil,
                           trustsAbsence: Bool = true) -> (list: BookmarkList, folder: OutlineFolder?) {
        var folder = self
        let held = Dictionary(list.bookmarks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        if adopted {
            guard let paired = folder.pairingEntries(with: list, labels: labels) else { return (list, nil) }
            folder = paired
        }
        let writtenIDs = Set(folder.written)
        let metadataKnowsFolder = trustsAbsence && folder.written.contains { held[$0] != nil }
        var result: [Bookmark] = []
        var placed: Set<String> = []
        for (index, entry) in folder.entries.enumerated() {
            guard let page = entry.pageIndex, page >= 0, page < pageCount else { continue }
            let id = entry.bookmarkID?.uppercased()
            if let id, let bookmark = held[id], !placed.contains(id) {
                placed.insert(id)
                let renamed = entry.title != entry.writtenTitle, moved = entry.pageIndex != entry.writtenPage
                result.append(Bookmark(id: id, pageIndex: moved ? page : bookmark.pageIndex, name: renamed ? Self.name(entry, labels) : bookmark.name,
                                       sortKey: result.count, otherAction: bookmark.otherAction))
                folder.entries[index].bookmarkID = id
                continue
            }
            if let id, writtenIDs.contains(id), !placed.contains(id), metadataKnowsFolder, !entry.changedInTheOutline {
                // Written with it, and the metadata no longer has it: removed there (Preview) since.
                continue
            }
            // Added in another program, a copy of another entry, or kept because the metadata cannot say it went: an
            // id of its own that stays as long as the entry keeps its place and title.
            let newID = id.flatMap { placed.contains($0) ? nil : $0 }
                ?? StableUUID.derived(seed: StableHash.fnv1a64(entry.title), item: "outline \(index) \(page)").uuidString
            guard placed.insert(newID).inserted else { continue }
            result.append(Bookmark(id: newID, pageIndex: page, name: Self.name(entry, labels), sortKey: result.count))
            folder.entries[index].bookmarkID = newID
        }
        let inFolder = Set(folder.entries.compactMap { $0.bookmarkID?.uppercased() })
        for bookmark in list.sorted(.custom) where !placed.contains(bookmark.id) {
            // Written into the folder and gone from it: removed there.
            if writtenIDs.contains(bookmark.id), !inFolder.contains(bookmark.id), bookmark.pageIndex != nil { continue }
            placed.insert(bookmark.id)
            result.append(bookmark.withSortKey(result.count))
        }
        return (BookmarkList(result), folder)
    }

    /// An entry's title as a bookmark's name: none when it is the title an unnamed bookmark on its page gets.
    private static func name(_ entry: Entry, _ labels: PageLabels?) -> String? {
        guard let page = entry.pageIndex else { return entry.title }
        return entry.title == unnamedTitle(page: page, labels: labels) ? nil : entry.title
    }

    /// An adopted folder's entries paired with the bookmarks they show (same page, and the bookmark's title), as if
    /// Redline had written them: nil when none pairs, and the folder is the document's own "Bookmarks".
    private func pairingEntries(with list: BookmarkList, labels: PageLabels?) -> OutlineFolder? {
        var unpaired = list.sorted(.custom).filter { $0.pageIndex != nil }
        var folder = self
        var pairs = 0
        for index in folder.entries.indices where folder.entries[index].bookmarkID == nil {
            let entry = folder.entries[index]
            guard let match = unpaired.firstIndex(where: { $0.pageIndex == entry.pageIndex && Self.title(of: $0, labels: labels) == entry.title }) else {
                continue
            }
            folder.entries[index].bookmarkID = unpaired[match].id
            folder.entries[index].writtenTitle = entry.title
            folder.entries[index].writtenPage = entry.pageIndex
            unpaired.remove(at: match)
            pairs += 1
        }
        guard pairs > 0 else { return nil }
        // Its entries were Redline's bookmarks when the keys were dropped: one no entry shows was removed there.
        folder.written = list.sorted(.custom).filter { $0.pageIndex != nil }.map(\.id)
        return folder
    }
}
