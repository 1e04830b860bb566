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

    public var description: String {
        switch self {
        case .appended(let bytes): "appended to the original (\(bytes < 10_240 ? "\(bytes) bytes" : "\(bytes / 1024) KB"))"
        case .unchanged: "nothing changed: the copy is the original"
        case .rewritten(let reason): "rewritten whole: \(reason)"
        }
    }
}

/// A document a writer made: its bytes, and how they were made.
public struct WrittenDocument: Sendable {
    public var bytes: Data
    public var outcome: WriteOutcome

    public init(bytes: Data, outcome: WriteOutcome) {
        self.bytes = bytes
        self.outcome = outcome
    }
}
