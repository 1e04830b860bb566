import Foundation
import RedlineCore

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
