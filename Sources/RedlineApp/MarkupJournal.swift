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

    /// Unique per path and always a valid file name: a hash of the full path, after at most 40 plain
    /// characters of the document's name so a person can tell journals apart (a 240-byte name, or one in
    /// another script, must not make the journal impossible to write).
    static func fileName(for absolutePath: String) -> String {
        let hash = StableHash.fnv1a64(absolutePath)
        let name = URL(fileURLWithPath: absolutePath).lastPathComponent
            .filter { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }.prefix(40)
        return "\(name)-\(String(hash, radix: 16)).json"
    }

    /// Where the editor sends stderr while it owns the screen: `redline.log` beside the journals.
    public static func standardErrorLog(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let folder = folder(environment: environment)
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil else { return nil }
        return folder + "/redline.log"
    }

    public func write(_ edits: DocumentEdits) throws {
        try FileManager.default.createDirectory(atPath: (journalPath as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        let data = MarkupFile.encode(edits, document: documentPath)
        try AtomicFileWriter.write(data, to: journalPath) { temporary in
            // A journal is only worth keeping if it reads back as what was written.
            guard FileManager.default.contents(atPath: temporary) == data else {
                throw DocumentError.writeFailed(path: journalPath, reason: "the journal does not read back as written")
            }
        }
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
