import Foundation
import RedlineCore
import XMPMetadata

/// The provider chain the configuration names, for one document.
public struct BookmarkSetup: Sendable {
    public var providerNames: [String]
    public var environment: [String: String]
    /// Whether the bookmarks are written into the document outline as well (`bookmarks_in_outline`), and what other
    /// programs did to them there is read back.
    public var inOutline: Bool

    public init(providerNames: [String] = RedlineConfiguration.defaultBookmarkProviders,
                environment: [String: String] = ProcessInfo.processInfo.environment, inOutline: Bool = false) {
        self.providerNames = providerNames
        self.environment = environment
        self.inOutline = inOutline
    }

    public init(_ configuration: RedlineConfiguration, inOutline: Bool? = nil) {
        self.init(providerNames: configuration.bookmarkProviders, inOutline: inOutline ?? configuration.bookmarksInOutline)
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
        let mirroring = inOutline ? OutlineMirroring(folder: sources.outlineFolder, labels: sources.pageLabels, pageCount: sources.pageCount) : nil
        return BookmarkManager(providers: providers, mirroring: mirroring)
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
