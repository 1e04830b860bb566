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
    /// folder cannot be made, is not safely the user's own (`folderProblem` says why), or every slot is taken; the
    /// editor then runs without a journal and says so.
    public static func claim(documentPath: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> MarkupJournal? {
        guard folderProblem(environment: environment) == nil else { return nil }
        for slot in 0..<slots {
            let unlocked = MarkupJournal(documentPath: documentPath, slot: slot, environment: environment)
            if let lock = JournalLock(path: (unlocked.journalPath as NSString).deletingPathExtension + ".lock") {
                return MarkupJournal(documentPath: unlocked.documentPath, journalPath: unlocked.journalPath, lock: lock)
            }
        }
        return nil
    }

    /// Why the journal folder cannot be trusted with unsaved work, or nil when it can: the remedy first where there
    /// is one, the folder as short as it can be said, so an 80-column message line keeps what to do. It is made 0700 when missing.
    /// A folder another user owns, or one others may write in, could hold a journal planted to be restored into the
    /// user's document (or a link that turns a journal write into a write over someone's file): it is not used.
    public static func folderProblem(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let folder = folder(environment: environment)
        var status = stat()
        if lstat(folder, &status) != 0 {
            let parent = (folder as NSString).deletingLastPathComponent
            guard (try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)) != nil,
                  mkdir(folder, 0o700) == 0 || errno == EEXIST, lstat(folder, &status) == 0 else {
                return "its folder \(shown(folder)) cannot be made: \(String(cString: strerror(errno)))"
            }
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: break
        case S_IFLNK: return "its folder \(shown(folder)) is a symbolic link"
        default: return "its folder \(shown(folder)) is not a folder"
        }
        if status.st_uid != geteuid() { return "its folder \(shown(folder)) belongs to another user (uid \(status.st_uid))" }
        if status.st_mode & 0o022 != 0 {
            return "chmod 700 \(shown(folder)) (others may write in it: mode \(String(status.st_mode & 0o777, radix: 8)))"
        }
        return nil
    }

    /// The folder as a person types it: the home folder as ~, so an 80-column line keeps the remedy whole.
    static func shown(_ folder: String) -> String {
        let home = NSHomeDirectory()
        return home.count > 1 && folder.hasPrefix(home + "/") ? "~" + folder.dropFirst(home.count) : folder
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
        guard folderProblem(environment: environment) == nil else { return nil }
        return folder(environment: environment) + "/redline.log"
    }

    /// Writes the operations since opening (the last may be a draft still being typed). Atomic, and read back
    /// before it replaces the previous journal.
    /// `shared`: in a shared session, the versions the changes were made against and the server's annotations as the
    /// session showed them (`SharedJournal`).
    public func write(_ operations: [DocumentOperation], shared: SharedJournal = SharedJournal()) throws {
        let folder = (journalPath as NSString).deletingLastPathComponent
        if access(folder, F_OK) != 0 {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        var file = JournalFile(document: documentPath, operations: operations)
        file.shared = shared.isEmpty ? nil : shared
        let data = try JournalFile.encode(file)
        // A link put where the journal goes is replaced, never written through.
        try AtomicFileWriter.write(data, to: journalPath, privately: true, throughLinks: false) { temporary in
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
        /// A journal that could not be read, or whose markup does not fit the document, moved aside (to `keptAt`)
        /// rather than lost or silently deleted.
        case unreadable(keptAt: String)
        /// A file in the journal's place that is not the user's own journal (another owner, readable by others, a
        /// link): never offered, left where it is.
        case notYours(reason: String)
    }

    /// What the journal holds, replayed onto a document whose providers hold `bookmarkBase`, and checked as `redline
    /// apply` checks a markup file against the document (`pageSizes`): a journal whose markup lies off its pages or
    /// holds numbers no markup has is set aside, not restored. A journal written by an earlier Redline (a markup file)
    /// reads too. One that cannot be read is renamed beside it, out of the way of new journals.
    public func contents(bookmarkBase: BookmarkList = BookmarkList(), pageSizes: [Size]? = nil,
                         measuredBy measurer: (any TextMeasuring)? = nil) -> Contents {
        var status = stat()
        guard lstat(journalPath, &status) == 0 else { return .none }
        if let refusal = Self.notOwnJournal(status) { return .notYours(reason: refusal) }
        if let edits = read(bookmarkBase: bookmarkBase), Self.fits(edits, pageSizes: pageSizes, measuredBy: measurer) {
            return .edits(edits)
        }
        let stamp = Int(Date().timeIntervalSince1970)
        let kept = (journalPath as NSString).deletingPathExtension + ".unreadable-\(stamp).json"
        return rename(journalPath, kept) == 0 ? .unreadable(keptAt: kept) : .unreadable(keptAt: journalPath)
    }

    /// Why a file is not a journal this user wrote: only a regular file of theirs, readable by them alone, is one.
    static func notOwnJournal(_ status: stat) -> String? {
        if status.st_mode & S_IFMT == S_IFLNK { return "it is a symbolic link" }
        if status.st_mode & S_IFMT != S_IFREG { return "it is not a regular file" }
        if status.st_uid != geteuid() { return "it belongs to another user (uid \(status.st_uid))" }
        if status.st_mode & 0o077 != 0 { return "others may read or write it (mode \(String(status.st_mode & 0o777, radix: 8)))" }
        return nil
    }

    /// Whether restored edits are markup a markup file could hold on this document: every number in range, every
    /// markup on its page, every move of an annotation within a page's reach.
    static func fits(_ edits: DocumentEdits, pageSizes: [Size]?, measuredBy measurer: (any TextMeasuring)?) -> Bool {
        // Through the markup file's own reading, which refuses what no markup holds (a size of 1e300, a NaN).
        guard (try? MarkupFile.decodeEdits(MarkupFile.encode(edits))) != nil else { return false }
        // A move is at most a page's side: from one edge to the other.
        let reach = pageSizes.map { sizes in sizes.map { Swift.max($0.width, $0.height) }.max() ?? 0 } ?? 1e7
        for move in edits.annotations.moved.values where !(abs(move.dx) <= reach && abs(move.dy) <= reach) { return false }
        for restyle in edits.annotations.restyled.values {
            if let size = restyle.fontSize, !(size > 0 && size <= 1000) { return false }
        }
        guard let pageSizes, let measurer else { return true }
        // What can be drawn, not what a commit would place: the last text may be still being typed.
        return (try? MarkupFile.validate(edits.markup, pageSizes: pageSizes, measuredBy: measurer, placing: false)) != nil
    }

    /// The journaled edits, if a journal exists, is the user's own, and can be read.
    public func read(bookmarkBase: BookmarkList = BookmarkList()) -> DocumentEdits? {
        guard let data = ownBytes() else { return nil }
        if let file = try? JSONDecoder().decode(JournalFile.self, from: data) {
            var edits = DocumentEdits()
            for operation in file.operations { edits.apply(operation, bookmarkBase: bookmarkBase) }
            return edits
        }
        return try? MarkupFile.decodeEdits(data)
    }

    /// What a shared session's journal keeps beside its operations (`write(_:shared:)`); empty for a journal of
    /// another kind, or one not the user's own.
    public func shared() -> SharedJournal {
        guard let data = ownBytes(), let file = try? JSONDecoder().decode(JournalFile.self, from: data) else { return SharedJournal() }
        return (file.shared ?? SharedJournal()).checked
    }

    /// The journal's bytes, if it is a regular file of the user's own, never read through a link.
    private func ownBytes() -> Data? {
        let descriptor = open(journalPath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0, Self.notOwnJournal(status) == nil else { return nil }
        return try? handle.readToEnd()
    }

    /// The journal on disk: the document it belongs to and the operations, oldest first.
    struct JournalFile: Codable {
        static let currentVersion = 2
        var journal = JournalFile.currentVersion
        var document: String
        var operations: [DocumentOperation]
        var shared: SharedJournal?

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
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
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
