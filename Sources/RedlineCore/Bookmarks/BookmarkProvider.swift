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
