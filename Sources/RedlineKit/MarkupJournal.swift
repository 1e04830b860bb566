import Foundation
import RedlineCore

/// Unsaved markup and annotation changes, written so that a crash loses nothing: the operations since opening, one file per document
/// and editor under `$XDG_STATE_HOME/redline/` (by default `~/.local/state/redline/`).
///
/// A running editor holds its journal's lock (`claim`), so a second editor on the same document takes the next
/// slot (`NAME-HASH-2.json`) and never offers, or discards, a journal whose editor is still at work. A lock is
/// released when its process ends, however it ends: what a crashed editor left is offered to the next one.
public struct MarkupJournal: Sendable {
    public let documentPath: String
    public let journalPath: String
    /// The lock a claimed journal holds for as long as the process runs.
    private let lock: JournalLock?

    /// A journal at `slot` (0 for the document's first), not locked: for reading and tests.
    public init(documentPath: String, slot: Int = 0, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let absolute = URL(fileURLWithPath: documentPath).standardizedFileURL.path
        self.documentPath = absolute
        journalPath = Self.folder(environment: environment) + "/" + Self.fileName(for: absolute, slot: slot)
        lock = nil
    }

    private init(documentPath: String, journalPath: String, lock: JournalLock) {
        self.documentPath = documentPath
        self.journalPath = journalPath
        self.lock = lock
    }

    static let slots = 16

    /// The first journal of the document that no running editor holds, locked for this process. Nil when the
    /// folder cannot be made or every slot is taken; the editor then runs without a journal and says so.
    public static func claim(documentPath: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> MarkupJournal? {
        let folder = folder(environment: environment)
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil else { return nil }
        for slot in 0..<slots {
            let unlocked = MarkupJournal(documentPath: documentPath, slot: slot, environment: environment)
            if let lock = JournalLock(path: (unlocked.journalPath as NSString).deletingPathExtension + ".lock") {
                return MarkupJournal(documentPath: unlocked.documentPath, journalPath: unlocked.journalPath, lock: lock)
            }
        }
        return nil
    }

    static func folder(environment: [String: String]) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/redline" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.local/state/redline"
    }

    /// Unique per path and always a valid file name: a hash of the full path, after at most 40 plain
    /// characters of the document's name so a person can tell journals apart (a 240-byte name, or one in
    /// another script, must not make the journal impossible to write).
    static func fileName(for absolutePath: String, slot: Int = 0) -> String {
        let hash = StableHash.fnv1a64(absolutePath)
        let name = URL(fileURLWithPath: absolutePath).lastPathComponent
            .filter { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }.prefix(40)
        return "\(name)-\(String(hash, radix: 16))" + (slot == 0 ? "" : "-\(slot + 1)") + ".json"
    }

    /// Where the editor sends stderr while it owns the screen: `redline.log` beside the journals.
    public static func standardErrorLog(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let folder = folder(environment: environment)
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil else { return nil }
        return folder + "/redline.log"
    }

    /// Writes the operations since opening (the last may be a draft still being typed). Atomic, and read back
    /// before it replaces the previous journal.
    public func write(_ operations: [DocumentOperation]) throws {
        try FileManager.default.createDirectory(atPath: (journalPath as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        let data = try JournalFile.encode(JournalFile(document: documentPath, operations: operations))
        try AtomicFileWriter.write(data, to: journalPath, privately: true) { temporary in
            // A journal is only worth keeping if it reads back as what was written.
            guard FileManager.default.contents(atPath: temporary) == data else {
                throw ReadBackError("it differs from what was written")
            }
        }
    }

    public enum Contents: Equatable {
        case none
        /// What replaying the journal's operations onto the opened document gives.
        case edits(DocumentEdits)
        /// A journal that could not be read, moved aside (to `keptAt`) rather than lost or silently deleted.
        case unreadable(keptAt: String)
    }

    /// What the journal holds, replayed onto a document whose providers hold `bookmarkBase`. A journal
    /// written by an earlier Redline (a markup file) reads too. One that cannot be read is renamed beside
    /// it, out of the way of new journals.
    public func contents(bookmarkBase: BookmarkList = BookmarkList()) -> Contents {
        guard FileManager.default.fileExists(atPath: journalPath) else { return .none }
        if let edits = read(bookmarkBase: bookmarkBase) { return .edits(edits) }
        let stamp = Int(Date().timeIntervalSince1970)
        let kept = (journalPath as NSString).deletingPathExtension + ".unreadable-\(stamp).json"
        return rename(journalPath, kept) == 0 ? .unreadable(keptAt: kept) : .unreadable(keptAt: journalPath)
    }

    /// The journaled edits, if a journal exists and can be read.
    public func read(bookmarkBase: BookmarkList = BookmarkList()) -> DocumentEdits? {
        guard let data = FileManager.default.contents(atPath: journalPath) else { return nil }
        if let file = try? JSONDecoder().decode(JournalFile.self, from: data) {
            var edits = DocumentEdits()
            for operation in file.operations { edits.apply(operation, bookmarkBase: bookmarkBase) }
            return edits
        }
        return try? MarkupFile.decodeEdits(data)
    }

    /// The journal on disk: the document it belongs to and the operations, oldest first.
    struct JournalFile: Codable {
        static let currentVersion = 2
        var journal = JournalFile.currentVersion
        var document: String
        var operations: [DocumentOperation]

        init(document: String, operations: [DocumentOperation]) {
            self.document = document
            self.operations = operations
        }

        static func encode(_ file: JournalFile) throws -> Data {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return try encoder.encode(file)
        }
    }

    public func discard() {
        unlink(journalPath)
    }

    /// Moves the journal aside instead of deleting it (the user declined to restore it): returns where it went,
    /// nil when there was none or it could not be moved (then it is left in place, never lost).
    public func setAside() -> String? {
        guard FileManager.default.fileExists(atPath: journalPath) else { return nil }
        let stamp = Int(Date().timeIntervalSince1970)
        let kept = (journalPath as NSString).deletingPathExtension + ".declined-\(stamp).json"
        return rename(journalPath, kept) == 0 ? kept : nil
    }
}

/// An advisory lock on a file, held until this value (or the process) goes away.
final class JournalLock: @unchecked Sendable {
    private let descriptor: Int32

    init?(path: String) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
