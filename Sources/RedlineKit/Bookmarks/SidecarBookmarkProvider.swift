import Foundation
import RedlineCore

/// Bookmarks in a JSON file of Redline's own, for documents the user does not want changed or cannot
/// write: `$XDG_DATA_HOME/redline/bookmarks/ID.json` (by default under `~/.local/share/`), keyed by the
/// document's identity (`DocumentIdentity`), so every copy saved from it shares them. It accepts every
/// bookmark.
public struct SidecarBookmarkProvider: BookmarkProvider {
    public let identifier = "sidecar"
    public let filePath: String
    public let documentPath: String

    public init(documentPath: String, permanentID: String?,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        let absolute = URL(fileURLWithPath: documentPath).standardizedFileURL.path
        self.documentPath = absolute
        filePath = Self.folder(environment: environment) + "/" + Self.fileName(for: DocumentIdentity.of(permanentID: permanentID, path: absolute))
    }

    static func folder(environment: [String: String]) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/redline/bookmarks" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share/redline/bookmarks"
    }

    /// The identity itself when it is an ordinary one (16 bytes of /ID in hex, as every writer makes it),
    /// else a hash of it: a document may carry a 200-byte /ID, and a file name has 255 bytes at most.
    static func fileName(for identity: String) -> String {
        if identity.count <= 64, identity.allSatisfy(\.isHexDigit) { return identity + ".json" }
        return "id-" + StableHash.hex(identity) + StableHash.hex("redline-sidecar:" + identity) + ".json"
    }

    struct File: Codable {
        var version = 1
        var document: String
        var bookmarks: [Bookmark]
    }

    public func load() throws -> [Bookmark] {
        guard let data = FileManager.default.contents(atPath: filePath) else { return [] }
        do {
            return try JSONDecoder().decode(File.self, from: data).bookmarks
        } catch {
            throw SidecarError(path: filePath, reason: "not a Redline bookmark file")
        }
    }

    public func accepts(_ bookmark: Bookmark) -> Bool { true }

    public func save(_ bookmarks: [Bookmark], into write: inout DocumentWrite) throws {
        let exists = FileManager.default.fileExists(atPath: filePath)
        guard !bookmarks.isEmpty || exists else { return }
        if (try? load()).map({ BookmarkList($0) == BookmarkList(bookmarks) }) == true { return }
        try FileManager.default.createDirectory(atPath: (filePath as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try AtomicFileWriter.write(try encoder.encode(File(document: documentPath, bookmarks: bookmarks)), to: filePath)
    }

    struct SidecarError: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "\(path): \(reason)" }
    }
}
