import Foundation

/// Where bookmarks are kept. A manager asks an ordered chain of providers: reading merges what they all
/// hold, and a new bookmark goes to the first that accepts it. Redline ships two (the document's XMP
/// metadata and a sidecar file); others can conform.
public protocol BookmarkProvider: Sendable {
    /// The name the configuration uses for it (`xmp`, `sidecar`).
    var identifier: String { get }
    /// The bookmarks it holds for the document.
    func load() throws -> [Bookmark]
    /// Whether it will keep this bookmark; declining passes it to the next provider.
    func accepts(_ bookmark: Bookmark) -> Bool
    /// Keeps exactly these bookmarks, its share of the manager's. Runs when the document is saved, before
    /// the document is written, so a provider that stores into the document can say what to write.
    func save(_ bookmarks: [Bookmark], into write: inout DocumentWrite) throws
}

/// What a save writes into the document besides markup and annotations.
public struct DocumentWrite: Sendable, Equatable {
    /// The document's XMP packet as it is now (nil when it has none).
    public let originalMetadata: Data?
    /// A new packet to write, or nil to leave the metadata alone.
    public var metadata: Data?
    /// The outline's folder of bookmarks as it is to be written (without entries: removed), or nil to leave the
    /// outline alone.
    public var outline: OutlineFolder?

    public init(originalMetadata: Data?) {
        self.originalMetadata = originalMetadata
    }
}

/// The chain of providers for one document: which provider holds which bookmark, and the merged list.
public struct BookmarkManager: Sendable {
    public let providers: [any BookmarkProvider]
    /// What was read, merged in provider order (a bookmark two providers hold counts once, the first's), and, when
    /// the outline mirrors the bookmarks, with what other programs did to its folder taken in.
    public private(set) var list: BookmarkList
    /// Whether the bookmarks are written into the document outline as well, and its folder as read, its entries
    /// paired with the bookmarks.
    public private(set) var mirroring: OutlineMirroring?
    /// What the providers hold, before the outline's folder is taken in.
    private var held: BookmarkList
    /// Why a provider could not be read; its bookmarks are then missing and the rest still work.
    public private(set) var problems: [String] = []
    private var owners: [String: String] = [:]

    public init(providers: [any BookmarkProvider], mirroring: OutlineMirroring? = nil) {
        self.providers = providers
        self.mirroring = mirroring
        var merged: [Bookmark] = []
        for provider in providers {
            do {
                for bookmark in try provider.load() where owners[bookmark.id] == nil {
                    owners[bookmark.id] = provider.identifier
                    merged.append(bookmark.withSortKey(merged.count))
                }
            } catch {
                problems.append("\(error)")
            }
        }
        let held = BookmarkList(merged)
        self.held = held
        if let folder = mirroring?.folder, let mirroring {
            // A provider that could not be read cannot say a bookmark was removed from it.
            let reconciled = folder.reconciled(held, pageCount: mirroring.pageCount, labels: mirroring.labels, trustsAbsence: problems.isEmpty)
            list = reconciled.list
            self.mirroring?.folder = reconciled.folder
        } else {
            list = held
        }
    }

    /// Whether a save must write the bookmarks though the user changed none: the outline mirrors them and its
    /// folder, or what the providers hold, is out of step with `list`.
    public var needsWriting: Bool {
        guard let mirroring else { return false }
        return list != held || !mirroring.isInStep(with: list)
    }

    /// Which provider keeps each bookmark of `list`: the one it was read from, else the first that accepts it.
    /// A bookmark no provider accepts is reported, never silently dropped.
    public func shares(of list: BookmarkList) throws -> [(provider: any BookmarkProvider, bookmarks: [Bookmark])] {
        var shares = providers.map { (provider: $0, bookmarks: [Bookmark]()) }
        for bookmark in list.bookmarks {
            let owner = owners[bookmark.id].flatMap { id in providers.firstIndex { $0.identifier == id } }
                ?? providers.firstIndex { $0.accepts(bookmark) }
            guard let owner else { throw BookmarkError.noProviderAccepts(bookmark.title) }
            shares[owner].bookmarks.append(bookmark)
        }
        return shares
    }

    /// Has every provider keep its share of `list`; returns what the document write must carry.
    public func save(_ list: BookmarkList, originalMetadata: Data?) throws -> DocumentWrite {
        var write = DocumentWrite(originalMetadata: originalMetadata)
        for share in try shares(of: list) {
            try share.provider.save(share.bookmarks, into: &write)
        }
        if let mirroring, !mirroring.isInStep(with: list) {
            write.outline = OutlineFolder(for: list, labels: mirroring.labels, previous: mirroring.folder)
        }
        return write
    }
}

/// Bookmarks written into the document outline as well: its folder as the document holds it, and what titles
/// and pages are told by.
public struct OutlineMirroring: Sendable {
    /// Nil when the outline has no folder of Redline's.
    public var folder: OutlineFolder?
    public var labels: PageLabels?
    public var pageCount: Int

    public init(folder: OutlineFolder?, labels: PageLabels?, pageCount: Int) {
        self.folder = folder
        self.labels = labels
        self.pageCount = pageCount
    }

    /// Whether the folder already is what `list` would be written as (no folder and nothing to put in one is).
    public func isInStep(with list: BookmarkList) -> Bool {
        guard let folder else { return !list.bookmarks.contains { $0.pageIndex != nil } }
        return folder.isInStep(with: list, labels: labels)
    }
}

public enum BookmarkError: Error, Equatable, CustomStringConvertible {
    case noProviderAccepts(String)
    case unknownProvider(String)

    public var description: String {
        switch self {
        case .noProviderAccepts(let title): "no bookmark provider accepts \"\(title)\""
        case .unknownProvider(let name): "unknown bookmark provider \"\(name)\" (known: xmp, sidecar)"
        }
    }
}
