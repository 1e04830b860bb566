import Foundation
import RedlineCore

/// Unsaved markup and annotation changes, written after every change so that a crash loses nothing: one markup file per
/// document under `$XDG_STATE_HOME/redline/` (by default `~/.local/state/redline/`).
public struct MarkupJournal: Sendable {
    public let documentPath: String
    public let journalPath: String

    public init(documentPath: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let absolute = URL(fileURLWithPath: documentPath).standardizedFileURL.path
        self.documentPath = absolute
        journalPath = Self.folder(environment: environment) + "/" + Self.fileName(for: absolute)
    }

    static func folder(environment: [String: String]) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/redline" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.local/state/redline"
    }

    /// Readable and unique per path: the document's name, then a hash of its full path.
    static func fileName(for absolutePath: String) -> String {
        let hash = StableHash.fnv1a64(absolutePath)
        let name = URL(fileURLWithPath: absolutePath).lastPathComponent.filter { $0.isLetter || $0.isNumber || "._-".contains($0) }
        return "\(name)-\(String(hash, radix: 16)).json"
    }

    public func write(_ edits: DocumentEdits) throws {
        try FileManager.default.createDirectory(atPath: (journalPath as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try AtomicFileWriter.write(MarkupFile.encode(edits, document: documentPath), to: journalPath)
    }

    /// The journaled edits, if a journal exists and can be read.
    public func read() -> DocumentEdits? {
        guard let data = FileManager.default.contents(atPath: journalPath) else { return nil }
        return try? MarkupFile.decodeEdits(data)
    }

    public func discard() {
        unlink(journalPath)
    }
}
