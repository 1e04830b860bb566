import Foundation
import RedlineCore
import XMPMetadata

/// The provider chain the configuration names, for one document.
public struct BookmarkSetup: Sendable {
    public var providerNames: [String]
    public var environment: [String: String]

    public init(providerNames: [String] = RedlineConfiguration.defaultBookmarkProviders,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.providerNames = providerNames
        self.environment = environment
    }

    public func manager(for description: DocumentDescription, path: String) throws -> BookmarkManager {
        try manager(for: BookmarkSources(description), path: path)
    }

    public func manager(for sources: BookmarkSources, path: String) throws -> BookmarkManager {
        let providers: [any BookmarkProvider] = try providerNames.map { name in
            switch name {
            case "xmp":
                XMPBookmarkProvider(metadata: sources.metadata, pageCount: sources.pageCount,
                                    documentAllowsChanges: sources.allowsChanges, metadataProblem: sources.metadataProblem)
            case "sidecar":
                SidecarBookmarkProvider(documentPath: path, permanentID: sources.permanentID, environment: environment)
            default:
                throw BookmarkError.unknownProvider(name)
            }
        }
        return BookmarkManager(providers: providers)
    }

    /// The bookmarks every provider holds on pages the document has, and why any could not be read.
    public func list(_ sources: BookmarkSources, path: String) throws -> (bookmarks: BookmarkList, problems: [String]) {
        let manager = try manager(for: sources, path: path)
        return (BookmarkList(manager.list.bookmarks.filter { $0.pageIndex.map { $0 < sources.pageCount } ?? true }), manager.problems)
    }

    /// The description with the bookmarks every provider holds, and why any could not be read.
    public func describe(_ description: DocumentDescription, path: String) throws -> DocumentDescription {
        var described = description
        (described.bookmarks, described.bookmarkProblems) = try list(BookmarkSources(description), path: path)
        return described
    }
}
