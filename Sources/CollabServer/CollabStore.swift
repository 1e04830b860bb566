import Foundation
import RedlineCore

/// What a user may do in a document.
public enum DocumentAccess: String, Sendable, Hashable, Codable {
    case write
    case read
}

public struct CollabUser: Sendable, Hashable {
    public var name: String
    public var created: String
}

/// How a store decides a principal's access to a document.
public enum AccessRule: Sendable, Hashable {
    /// The database's users and members decide (`open`: every user may write every document).
    case members(open: Bool)
    /// An organisation's token granted this, checked already.
    case granted(DocumentAccess)
    /// An organisation's token that grants nothing here.
    case denied
}

/// The outcome of a change the store was asked to apply.
public enum StoredChangeOutcome: Sendable, Hashable {
    /// Committed as this event.
    case accepted(CollabFrame.Event)
    /// The operation was applied before (a resend): its event, unchanged.
    case duplicate(seq: Int, name: String, version: Int)
    case refused(ChangeRefusal)
    /// The user may no longer see the document.
    case noAccess
}

/// A change a connection asks for, waiting for its document's transaction.
public struct PendingChange: Sendable {
    public var operation: String
    public var author: String
    public var base: Int?
    public var request: SharedChangeRequest
    public var time: String
    public var mostAnnotations: Int
    public var rule: AccessRule

    public init(operation: String, author: String, base: Int?, request: SharedChangeRequest, time: String,
                mostAnnotations: Int, rule: AccessRule) {
        self.operation = operation
        self.author = author
        self.base = base
        self.request = request
        self.time = time
        self.mostAnnotations = mostAnnotations
        self.rule = rule
    }
}

/// An event of the log as it is sent.
public struct StoredEvent: Sendable, Hashable {
    public var seq: Int
    /// The `event` frame's JSON.
    public var frame: String
    /// When this instance committed it, for the broadcast latency (the feed fills it once for all followers).
    var committed: ContinuousClock.Instant? = nil

    init(seq: Int, frame: String) {
        self.seq = seq
        self.frame = frame
    }
}

/// What a follower reads each time its document changes.
public enum LogRead: Sendable, Hashable {
    /// The user may not see the document (removed, or access taken away).
    case noAccess
    /// The first event the log keeps, and the events after the follower's cursor.
    case events(firstKept: Int, [StoredEvent])
}

/// A shared PDF as the store keeps it: in parts of at most `StoredPDF.partSize` bytes.
public struct StoredPDF: Sendable, Hashable {
    public static let partSize = 1 << 20
    public var upload: String
    public var size: Int
    public var parts: Int
}

/// Where the document stands in its log: the last sequence number and the first one the log still keeps.
public struct LogPosition: Sendable, Hashable {
    public var head: Int
    public var firstKept: Int
}

/// The server's storage: users and tokens, documents and their members, each document's event log and current
/// annotations, and shared PDFs. Changes are decided by `SharedChangeRules` inside the transaction that writes them.
public protocol CollabStore: Sendable {
    // Users
    func addUser(name: String, tokenHash: String) async throws
    func removeUser(name: String) async throws -> Bool
    func users() async throws -> [CollabUser]
    func user(tokenHash: String) async throws -> String?

    // Documents
    /// The user's access to the document, making the document (and the user its owner) when it does not exist;
    /// nil when the user may not see it. With `open`, every user may write every document.
    func join(document: String, user: String, open: Bool) async throws -> DocumentAccess?
    /// Makes the document, owned by `owner`, when it does not exist (for a principal whose token grants access).
    func ensureDocument(_ document: String, owner: String) async throws
    /// The user's access now, without making anything: nil when there is none or the user was removed.
    func access(document: String, user: String, open: Bool) async throws -> DocumentAccess?
    func grant(document: String, user: String, access: DocumentAccess?) async throws
    func position(document: String) async throws -> LogPosition

    // Changes
    /// Decides and writes a document's changes in one transaction, in order, each decided as if alone (it sees
    /// what the ones before it wrote), the authors' access read in it too. One outcome a change.
    func apply(document: String, changes: [PendingChange]) async throws -> [StoredChangeOutcome]
    /// Every annotation (deleted ones too, so that clients learn of deletions) and the head they are current at,
    /// read at one moment.
    func snapshot(document: String) async throws -> (head: Int, annotations: [SharedAnnotation])
    /// The user's access, the log's extent and the events after `seq` (each as the frame every client is sent,
    /// encoded once when it was committed), read in one transaction.
    func read(document: String, user: String, rule: AccessRule, after seq: Int, limit: Int) async throws -> LogRead
    /// For a document's feed (every follower of it on this instance at once): the access of each of `users`, the
    /// log's extent, and the events after `after` (none, with the head, when `after` is nil).
    func feed(document: String, users: [String], open: Bool, after: Int?, limit: Int) async throws -> FeedRead
    /// Keeps the last `keep` events of the document; earlier ones are answered with a snapshot.
    func prune(document: String, keep: Int) async throws

    // Shared PDFs, kept in parts so that neither an upload nor a download is ever held whole in memory
    /// Starts an upload to the document; its parts are seen by no one until `finishPDF`.
    func beginPDF(document: String) async throws -> String
    func appendPDF(upload: String, part: Int, bytes: [UInt8]) async throws
    /// Makes the upload the document's PDF and drops the one it replaces, in one transaction.
    func finishPDF(document: String, upload: String, size: Int, parts: Int) async throws
    /// Drops an upload that did not finish (uploads left by a killed server go when one starts an hour later).
    func abandonPDF(upload: String) async throws
    /// The document's PDF: which upload it is, its size in bytes and its number of parts; nil when none.
    func pdf(document: String) async throws -> StoredPDF?
    func pdfPart(upload: String, part: Int) async throws -> [UInt8]?

    // Other instances
    /// Calls `poke` with each commit announced by any instance sharing the database, until cancelled.
    func followCommits(_ poke: @escaping @Sendable (CommitAnnouncement) async -> Void) async
    /// Tells the other instances sharing the database who is in a document here (`followCommits` brings theirs).
    func announcePresence(_ presence: PresenceAnnouncement) async
}

/// Who is in a document on one instance: announced when it changes and every `PresenceAnnouncement.period`, and
/// forgotten by the others when not heard of for three periods (an instance that died).
public struct PresenceAnnouncement: Sendable, Hashable {
    public static let period = Duration.seconds(10)
    public var instance: String
    public var document: String
    public var users: [String]

    /// The NOTIFY payload: `presence INSTANCE DOCUMENT ["user", …]`, cut to what NOTIFY carries (8,000 bytes).
    var payload: String {
        var kept = users
        while true {
            let list = String(decoding: (try? JSONEncoder().encode(kept)) ?? Data("[]".utf8), as: UTF8.self)
            let text = "presence \(instance) \(document) \(list)"
            if text.utf8.count <= 7_900 || kept.isEmpty { return text }
            kept.removeLast(max(1, kept.count / 4))
        }
    }

    init(instance: String, document: String, users: [String]) {
        self.instance = instance
        self.document = document
        self.users = users
    }

    init?(payload: String) {
        let parts = payload.split(separator: " ", maxSplits: 3)
        guard parts.count == 4, parts[0] == "presence",
              let users = try? JSONDecoder().decode([String].self, from: Data(parts[3].utf8)) else { return nil }
        self.init(instance: String(parts[1]), document: String(parts[2]), users: users)
    }
}

/// Commits another instance (or this one) announced: the document and the last event's number with how many
/// events the transaction committed, or every document (`seq` nil, document `"*"`) when followers should read again
/// (a user removed, a missed notification).
public struct CommitAnnouncement: Sendable, Hashable {
    public var document: String
    public var seq: Int?
    public var count: Int
    /// Not a commit: who is in a document on another instance.
    public var presence: PresenceAnnouncement?

    public static let everything = CommitAnnouncement(document: "*", seq: nil)

    /// The NOTIFY payload: `DOCUMENT SEQ COUNT` (`DOCUMENT SEQ` for one), or `*`; or a presence's.
    init(payload: String) {
        if payload.hasPrefix("presence "), let presence = PresenceAnnouncement(payload: payload) {
            self.init(document: presence.document, seq: nil)
            self.presence = presence
            return
        }
        let parts = payload.split(separator: " ")
        if parts.count == 2 || parts.count == 3, let seq = Int(parts[1]) {
            self.init(document: String(parts[0]), seq: seq, count: parts.count == 3 ? max(1, Int(parts[2]) ?? 1) : 1)
        } else {
            self = .everything
        }
    }

    init(document: String, seq: Int?, count: Int = 1) {
        self.document = document
        self.seq = seq
        self.count = count
    }
}

extension CollabStore {
    /// One instance owns an embedded database: its own commits poke its followers directly.
    public func followCommits(_ poke: @escaping @Sendable (CommitAnnouncement) async -> Void) async {}
    /// ... and it has no other instance to tell who is there.
    public func announcePresence(_ presence: PresenceAnnouncement) async {}
}
