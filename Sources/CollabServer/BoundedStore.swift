import RedlineCore

/// Every call to the database ends within the deadline, answered or failed with `TransactionDeadlinePassed`: a
/// PostgreSQL backend killed in the middle of a query can leave postgres-nio waiting for ever, deaf to
/// cancellation, and whatever waited on it (a document's queue of changes, a follower, a connection's handler and so
/// the server's shutdown) would wait with it.
struct BoundedStore: CollabStore {
    let inner: any CollabStore
    let deadline: TransactionDeadline

    init(inner: any CollabStore, deadline: Duration) {
        self.inner = inner
        self.deadline = TransactionDeadline(limit: deadline)
    }

    private func bounded<Value: Sendable>(_ work: @escaping @Sendable (any CollabStore) async throws -> Value) async throws -> Value {
        let inner = self.inner
        return try await deadline.run { try await work(inner) }
    }

    func addUser(name: String, tokenHash: String) async throws { try await bounded { try await $0.addUser(name: name, tokenHash: tokenHash) } }
    func removeUser(name: String) async throws -> Bool { try await bounded { try await $0.removeUser(name: name) } }
    func users() async throws -> [CollabUser] { try await bounded { try await $0.users() } }
    func user(tokenHash: String) async throws -> String? { try await bounded { try await $0.user(tokenHash: tokenHash) } }
    func join(document: String, user: String, open: Bool) async throws -> DocumentAccess? {
        try await bounded { try await $0.join(document: document, user: user, open: open) }
    }
    func ensureDocument(_ document: String, owner: String) async throws { try await bounded { try await $0.ensureDocument(document, owner: owner) } }
    func access(document: String, user: String, open: Bool) async throws -> DocumentAccess? {
        try await bounded { try await $0.access(document: document, user: user, open: open) }
    }
    func grant(document: String, user: String, access: DocumentAccess?) async throws {
        try await bounded { try await $0.grant(document: document, user: user, access: access) }
    }
    func position(document: String) async throws -> LogPosition { try await bounded { try await $0.position(document: document) } }
    func apply(document: String, changes: [PendingChange]) async throws -> [StoredChangeOutcome] {
        try await bounded { try await $0.apply(document: document, changes: changes) }
    }
    func snapshot(document: String) async throws -> (head: Int, annotations: [SharedAnnotation]) {
        let (head, annotations) = try await bounded { store in
            let snapshot = try await store.snapshot(document: document)
            return SnapshotValue(head: snapshot.head, annotations: snapshot.annotations)
        }.pair
        return (head, annotations)
    }
    func read(document: String, user: String, rule: AccessRule, after seq: Int, limit: Int) async throws -> LogRead {
        try await bounded { try await $0.read(document: document, user: user, rule: rule, after: seq, limit: limit) }
    }
    func feed(document: String, users: [String], open: Bool, after: Int?, limit: Int) async throws -> FeedRead {
        try await bounded { try await $0.feed(document: document, users: users, open: open, after: after, limit: limit) }
    }
    func prune(document: String, keep: Int) async throws { try await bounded { try await $0.prune(document: document, keep: keep) } }
    func beginPDF(document: String) async throws -> String { try await bounded { try await $0.beginPDF(document: document) } }
    func appendPDF(upload: String, part: Int, bytes: [UInt8]) async throws {
        try await bounded { try await $0.appendPDF(upload: upload, part: part, bytes: bytes) }
    }
    func finishPDF(document: String, upload: String, size: Int, parts: Int) async throws {
        try await bounded { try await $0.finishPDF(document: document, upload: upload, size: size, parts: parts) }
    }
    func abandonPDF(upload: String) async throws { try await bounded { try await $0.abandonPDF(upload: upload) } }
    func pdf(document: String) async throws -> StoredPDF? { try await bounded { try await $0.pdf(document: document) } }
    func pdfPart(upload: String, part: Int) async throws -> [UInt8]? { try await bounded { try await $0.pdfPart(upload: upload, part: part) } }
    func followCommits(_ poke: @escaping @Sendable (CommitAnnouncement) async -> Void) async { await inner.followCommits(poke) }
    func announcePresence(_ presence: PresenceAnnouncement) async { await inner.announcePresence(presence) }
}

/// A snapshot as one Sendable value (a tuple cannot cross the deadline's task).
private struct SnapshotValue: Sendable {
    let head: Int
    let annotations: [SharedAnnotation]
    var pair: (Int, [SharedAnnotation]) { (head, annotations) }
}
