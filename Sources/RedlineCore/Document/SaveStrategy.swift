import Foundation

/// How a save writes the document: by appending what changed to the original's bytes (an incremental update, ISO
/// 32000-1 §7.5.6: signatures stay valid, the cost is what changed), or by rewriting it whole.
public enum SaveStrategy: String, Sendable, Hashable, CaseIterable, Codable {
    /// Append when that is right; rewrite where appending would be wrong (docs/architecture.md, "Saving").
    case append
    /// Always rewrite the whole document (`--rewrite`, `save_strategy = "rewrite"`).
    case rewrite
}

/// What a save did, for the message line and the command line.
public enum WriteOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The changes were appended to the original's bytes, `bytes` long.
    case appended(bytes: Int)
    /// Nothing differed from the original: the copy is its bytes.
    case unchanged
    /// The document was rewritten whole, for the reason given.
    case rewritten(because: String)

    /// The reason when the user asked for a rewrite (`--rewrite`, `save_strategy = "rewrite"`).
    public static let rewriteAsked = "a complete rewrite was asked for"

    public var description: String {
        switch self {
        case .appended(let bytes): "appended to the original (\(bytes < 10_240 ? "\(bytes) bytes" : "\(bytes / 1024) KB"))"
        case .unchanged: "nothing changed: the copy is the original"
        case .rewritten(let reason): "rewritten whole: \(reason)"
        }
    }
}

/// A document a writer made, and how it was made: `bytes`, after the first bytes of a file kept where they are
/// (an update appended to the original's bytes, which the file system copies rather than memory).
public struct WrittenDocument: Sendable {
    public var prefix: KeptBytes?
    public var bytes: Data
    public var outcome: WriteOutcome
    /// The file the document was made from, as it was when read: a copy finished after it changed (another program
    /// rewrote it meanwhile) could hold parts of both, so it is not put in place.
    public var readFrom: FileState?
    /// The objects an appended update holds, where it puts them: what the check after writing reads back.
    public var appendedObjects: [AppendedObject] = []

    public init(prefix: KeptBytes? = nil, bytes: Data, outcome: WriteOutcome) {
        self.prefix = prefix
        self.bytes = bytes
        self.outcome = outcome
    }

    /// How long the document is.
    public var count: Int { (prefix?.length ?? 0) + bytes.count }
}

/// One object of an appended update: its number, its generation and its offset in the whole file.
public struct AppendedObject: Sendable, Hashable {
    public var number: Int32
    public var generation: Int32
    public var offset: Int

    public init(number: Int32, generation: Int32, offset: Int) {
        self.number = number
        self.generation = generation
        self.offset = offset
    }
}

/// The first `length` bytes of the file at `path`, as it was when they were read (`identity`): a copy made from a
/// file that changed since would be another document.
public struct KeptBytes: Sendable, Hashable {
    public var path: String
    public var length: Int
    public var identity: FileIdentity

    public init(path: String, length: Int, identity: FileIdentity) {
        self.path = path
        self.length = length
        self.identity = identity
    }
}

/// A file at a path in a given state.
public struct FileState: Sendable, Hashable {
    public var path: String
    public var identity: FileIdentity

    public init(path: String, identity: FileIdentity) {
        self.path = path
        self.identity = identity
    }

    /// Why a save made from the file at `path` is not put in place: the file is no longer the one read.
    public static func changedWhileSaving(_ path: String) -> String {
        "the original \(path) changed on disk while it was being saved; save again"
    }
}

/// Which file is at a path, and in what state: device and inode say which file, size and modification time
/// whether it was rewritten. A save renames a new file into place, so another program's copy put there since
/// differs in one of them.
public struct FileIdentity: Sendable, Hashable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    /// Nanoseconds since 1970.
    public var modified: Int64

    public init(device: UInt64, inode: UInt64, size: Int64, modified: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
    }

    /// The same file, whatever was written into it.
    public func isSameFile(as other: FileIdentity) -> Bool { device == other.device && inode == other.inode }
}
