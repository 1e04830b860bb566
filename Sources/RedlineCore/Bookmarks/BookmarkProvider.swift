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

    public init(originalMetadata: Data?) {
        self.originalMetadata = originalMetadata
    }
}

/// The chain of providers for one document: which provider holds which bookmark, and the merged list.
public struct BookmarkManager: Sendable {
    public let providers: [any BookmarkProvider]
    /// What was read, merged in provider order (a bookmark two providers hold counts once, the first's).
    public private(set) var list: BookmarkList
    /// Why a provider could not be read; its bookmarks are then missing and the rest still work.
    public private(set) var problems: [String] = []
    private var owners: [String: String] = [:]

    public init(providers: [any BookmarkProvider]) {
        self.providers = providers
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
        list = BookmarkList(merged)
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
        return write
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

/// Bookmarks in the document's own XMP metadata, where Apple Preview and PSPDFKit read them.
/// It declines new bookmarks when the metadata cannot be read (rewriting it would lose it) or the
/// document may not be changed; the next provider then keeps them.
public struct XMPBookmarkProvider: BookmarkProvider {
    public let identifier = "xmp"
    public let metadata: Data?
    public let pageCount: Int
    public let documentAllowsChanges: Bool
    /// Whether the packet could be read: one that cannot is never rewritten.
    private let metadataIsReadable: Bool

    /// Why the metadata stream could not be read at all, when it could not.
    public let metadataProblem: String?

    public init(metadata: Data?, pageCount: Int, documentAllowsChanges: Bool = true, metadataProblem: String? = nil) {
        self.metadata = metadata
        self.pageCount = pageCount
        self.documentAllowsChanges = documentAllowsChanges
        self.metadataProblem = metadataProblem
        // Readable means it can be rewritten too: a well-formed packet without rdf:RDF has nowhere to put them.
        metadataIsReadable = metadataProblem == nil && metadata.map {
            (try? XMPBookmarks.read($0, pageCount: pageCount)) != nil
                && (try? XMPBookmarks.write([Bookmark(id: "00000000-0000-0000-0000-000000000000", pageIndex: 0, sortKey: 0)], into: $0)) != nil
        } ?? true
    }

    public func load() throws -> [Bookmark] {
        if let metadataProblem { throw XMPBookmarks.Malformed(reason: metadataProblem) }
        guard let metadata else { return [] }
        return try XMPBookmarks.read(metadata, pageCount: pageCount)
    }

    public func accepts(_ bookmark: Bookmark) -> Bool {
        documentAllowsChanges && metadataIsReadable
    }

    public func save(_ bookmarks: [Bookmark], into write: inout DocumentWrite) throws {
        let current = write.metadata ?? write.originalMetadata
        // Its share unchanged (or nothing to add where nothing could be read): the metadata is left untouched.
        let stored = try? load()
        if current == metadata, stored.map({ BookmarkList($0) == BookmarkList(bookmarks) }) ?? bookmarks.isEmpty { return }
        write.metadata = try XMPBookmarks.write(bookmarks, into: current)
    }
}
