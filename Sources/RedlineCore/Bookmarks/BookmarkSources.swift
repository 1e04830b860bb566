import Foundation

/// What the bookmark providers read of a document: its page count, its XMP packet (or why it cannot be read), its
/// permanent /ID, whether it may be changed, and the outline's folder of bookmarks and the page labels their titles use. A full `DocumentDescription` holds them; listing bookmarks reads
/// only these, not every page.
public struct BookmarkSources: Sendable, Equatable {
    public var pageCount: Int
    public var metadata: Data?
    public var metadataProblem: String?
    public var permanentID: String?
    public var allowsChanges: Bool
    public var outlineFolder: OutlineFolder?
    public var pageLabels: PageLabels?

    public init(pageCount: Int, metadata: Data?, metadataProblem: String?, permanentID: String?, allowsChanges: Bool,
                outlineFolder: OutlineFolder? = nil, pageLabels: PageLabels? = nil) {
        self.outlineFolder = outlineFolder
        self.pageLabels = pageLabels
        self.pageCount = pageCount
        self.metadata = metadata
        self.metadataProblem = metadataProblem
        self.permanentID = permanentID
        self.allowsChanges = allowsChanges
    }

    public init(_ description: DocumentDescription) {
        self.init(pageCount: description.pageCount, metadata: description.metadata, metadataProblem: description.metadataProblem,
                  permanentID: description.permanentID, allowsChanges: description.allowsChanges,
                  outlineFolder: description.outlineFolder, pageLabels: description.pageLabels)
    }
}
