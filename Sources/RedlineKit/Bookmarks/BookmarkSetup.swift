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
        let providers: [any BookmarkProvider] = try providerNames.map { name in
            switch name {
            case "xmp":
                XMPBookmarkProvider(metadata: description.metadata, pageCount: description.pageCount,
                                    documentAllowsChanges: description.allowsChanges, metadataProblem: description.metadataProblem)
            case "sidecar":
                SidecarBookmarkProvider(documentPath: path, permanentID: description.permanentID, environment: environment)
            default:
                throw BookmarkError.unknownProvider(name)
            }
        }
        return BookmarkManager(providers: providers)
    }

    /// The description with the bookmarks every provider holds, and why any could not be read.
    public func describe(_ description: DocumentDescription, path: String) throws -> DocumentDescription {
        let manager = try manager(for: description, path: path)
        var described = description
        described.bookmarks = BookmarkList(manager.list.bookmarks.filter { $0.pageIndex.map { $0 < description.pageCount } ?? true })
        described.bookmarkProblems = manager.problems
        return described
    }
}
