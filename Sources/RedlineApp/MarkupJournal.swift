import Foundation
import RedlineCore

/// Unsaved markup, written after every change so that a crash loses nothing: one markup file per
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
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in absolutePath.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        let name = URL(fileURLWithPath: absolutePath).lastPathComponent.filter { $0.isLetter || $0.isNumber || "._-".contains($0) }
        return "\(name)-\(String(hash, radix: 16)).json"
    }

    public func write(_ layer: MarkupLayer) throws {
        try FileManager.default.createDirectory(atPath: (journalPath as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try AtomicFileWriter.write(MarkupFile.encode(layer, document: documentPath), to: journalPath)
    }

    /// The journaled markup, if a journal exists and can be read.
    public func read() -> MarkupLayer? {
        guard let data = FileManager.default.contents(atPath: journalPath) else { return nil }
        return try? MarkupFile.decode(data)
    }

    public func discard() {
        unlink(journalPath)
    }
}
