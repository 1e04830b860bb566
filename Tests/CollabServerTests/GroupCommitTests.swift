@testable import CollabServer
import CollabClient
import Foundation
import Hummingbird
import Logging
import RedlineCore
import TestSupport
import Testing

/// Group commit changes how changes reach the database, never what becomes of them: a batch's changes are decided
/// exactly as if each had its own transaction, on SQLite and on PostgreSQL, whatever the batch holds (replies to
/// annotations added in the same batch, deletions of what it added, resends, another user's operation id, stale
/// bases, a full document).
@Suite(.serialized) struct GroupCommitTests {
    @Test func aBatchOnSQLiteDecidesEveryChangeAsIfAlone() async throws {
        let folder = TemporaryFolder()
        try await Self.compare(one: SQLiteCollabStore(path: folder.file("one.sqlite")),
                               batched: SQLiteCollabStore(path: folder.file("batched.sqlite")))
    }

    @Test func aBatchOnPostgreSQLDecidesEveryChangeAsIfAlone() async throws {
        let cluster = try ThrowawayPostgres()
        let one = try await PostgresCollabStore.connect(PostgresLocation(url: cluster.freshDatabase()), logger: .init(label: "test"))
        let batched = try await PostgresCollabStore.connect(PostgresLocation(url: cluster.freshDatabase()), logger: .init(label: "test"))
        defer {
            one.close()
            batched.close()
            withExtendedLifetime(cluster) {}
        }
        try await Self.compare(one: one, batched: batched)
    }

    /// Every change of a random script, applied alone to one store and in batches of 1 to 40 to the other: the
    /// same outcomes, change for change, and the same annotations and head at the end.
    private static func compare(one: any CollabStore, batched: any CollabStore) async throws {
        for store in [one, batched] {
            for user in ["alice", "bob"] { try await store.addUser(name: user, tokenHash: "hash-\(user)") }
            #expect(try await store.join(document: "doc", user: "alice", open: true) == .write)
        }
        var random = SplitMix64(seed: 20261127)
        let script = try Self.script(&random, count: 1500)
        var alone: [StoredChangeOutcome] = []
        for change in script { alone += try await one.apply(document: "doc", changes: [change]) }
        var together: [StoredChangeOutcome] = []
        var start = 0
        var sizes: [Int] = []
        while start < script.count {
            let size = min(script.count - start, 1 + Int(random.next() % 40))
            sizes.append(size)
            together += try await batched.apply(document: "doc", changes: Array(script[start..<start + size]))
            start += size
        }
        #expect(together.count == script.count)
        for (index, (expected, got)) in zip(alone, together).enumerated() {
            #expect(expected == got, "change \(index): alone \(expected), in a batch \(got)")
        }
        let (headAlone, annotationsAlone) = try await one.snapshot(document: "doc")
        let (headTogether, annotationsTogether) = try await batched.snapshot(document: "doc")
        #expect(headAlone == headTogether)
        #expect(annotationsAlone == annotationsTogether)
        // The script exercised every outcome, so that agreement means something.
        let kinds = Set(alone.map(Self.kind))
        #expect(kinds.isSuperset(of: ["accepted", "duplicate", "exists", "stale", "not-author", "deleted", "unknown",
                                      "op-in-use", "document-full", "needs-base", "deleted-replies"]), "outcomes met: \(kinds.sorted())")
        #expect(sizes.contains { $0 > 20 })
    }

    private static func kind(_ outcome: StoredChangeOutcome) -> String {
        switch outcome {
        case .accepted(let event): event.action == .delete && event.annotations.count > 1 ? "deleted-replies" : "accepted"
        case .duplicate: "duplicate"
        case .noAccess: "noAccess"
        case .refused(let refusal): refusal.code
        }
    }

    /// Adds, replies, modifications and deletions by two users over 16 names, with resends and stale bases.
    private static func script(_ random: inout SplitMix64, count: Int) throws -> [PendingChange] {
        let names = (0..<16).map { "n\($0)" }
        var changes: [PendingChange] = []
        for index in 0..<count {
            let author = random.next() % 3 == 0 ? "bob" : "alice"
            let name = names[Int(random.next() % UInt64(names.count))]
            let roll = random.next() % 100
            if roll < 20, !changes.isEmpty {
                // A resend of an earlier operation, by its author or (half the time) by someone else.
                var again = changes[Int(random.next() % UInt64(changes.count))]
                if random.next() % 2 == 0 { again.author = again.author == "bob" ? "alice" : "bob" }
                changes.append(again)
                continue
            }
            let xfdf: String
            if roll < 50 {
                let parent = random.next() % 3 == 0 ? " inreplyto=\"\(names[Int(random.next() % UInt64(names.count))])\"" : ""
                xfdf = "<add><text name=\"\(name)\" page=\"0\" rect=\"10,10,20,20\"\(parent)><contents>\(index)</contents></text></add>"
            } else if roll < 80 {
                xfdf = "<modify><text name=\"\(name)\" page=\"1\" rect=\"10,10,30,30\"><contents>\(index)</contents></text></modify>"
            } else {
                xfdf = "<delete><id page=\"0\">\(name)</id></delete>"
            }
            let request = try SharedChangeReader.read("<xfdf xmlns=\"http://ns.adobe.com/xfdf/\">\(xfdf)</xfdf>", author: author)
            let base: Int? = random.next() % 8 == 0 ? nil : Int(random.next() % 4) + 1
            changes.append(PendingChange(operation: "op-\(index)", author: author, base: base, request: request,
                                         time: "2026-11-27T08:00:00.000Z", mostAnnotations: 10, rule: .members(open: true)))
        }
        return changes
    }
}

/// The queue in front of the store: changes arriving during a transaction go together in the next, every caller
/// gets its own outcome, and a failing batch is retried change by change so that one bad change fails alone.
@Suite struct ChangeQueueTests {
    @Test func changesArrivingDuringATransactionGoTogetherAndEachGetsItsOwnOutcome() async throws {
        let folder = TemporaryFolder()
        let (inner, store) = try await Self.gatedStoreOfAlice(in: folder, named: "queue")
        let queue = ChangeQueue(store: store)
        let count = 120
        let outcomes = try await withThrowingTaskGroup(of: (Int, Result<StoredChangeOutcome, any Error>).self) { group in
            group.addTask { (0, await Result(catching: { try await queue.commit(try Self.note("first"), to: "doc") })) }
            // The first transaction is held open until every other change waits behind it.
            await store.entered.first { _ in true }
            for index in 1..<count {
                let operation = index == 60 ? GatedStore.poison : "op-\(index)"
                group.addTask { (index, await Result(catching: { try await queue.commit(try Self.note(operation), to: "doc") })) }
            }
            while await queue.waitingCount("doc") < count - 1 { await Task.yield() }
            store.open()
            var all: [Int: Result<StoredChangeOutcome, any Error>] = [:]
            for try await (index, outcome) in group { all[index] = outcome }
            return all
        }
        var seqs: [Int] = []
        for index in 0..<count {
            switch outcomes[index]! {
            case .success(.accepted(let event)):
                #expect(event.op == (index == 0 ? "first" : "op-\(index)"))
                seqs.append(event.seq)
            case .success(let other): Issue.record("change \(index): \(other)")
            case .failure(let error):
                #expect(index == 60, "change \(index) failed: \(error)")
            }
        }
        // Gapless and each once: the poisoned change took no number.
        #expect(seqs.sorted() == Array(1..<count))
        let batches = store.batches
        #expect(batches.first == 1)
        #expect(batches.dropFirst().first == ChangeQueue.mostInOneTransaction, "batches: \(batches)")
        // The poisoned change is in the second or the third batch (the waiting tasks arrive in any order): that
        // batch, and only it, is retried change by change.
        let most = ChangeQueue.mostInOneTransaction, rest = count - 1 - most
        #expect(batches == [1, most] + Array(repeating: 1, count: most) + [rest] || batches == [1, most, rest] + Array(repeating: 1, count: rest),
                "the poisoned batch is retried alone: \(batches)")
        #expect(try await inner.position(document: "doc").head == count - 1)
    }

    /// A database connection that dies mid-query can leave the driver waiting for ever: the change is answered at the
    /// deadline (the client resends it) and the document's later changes are not held behind it.
    @Test func aTransactionThatNeverEndsIsAnsweredAtItsDeadlineAndTheDocumentGoesOn() async throws {
        let folder = TemporaryFolder()
        let (_, store) = try await Self.gatedStoreOfAlice(in: folder, named: "stuck")
        defer { store.open() }
        // The deadline is passed by hand, not by the clock: a busy machine may hold any call for seconds.
        let bounded = BoundedStore(inner: store, deadline: .seconds(3600))
        let queue = ChangeQueue(store: bounded)
        let stuck = Task { try await queue.commit(try Self.note("stuck"), to: "doc") }
        await store.entered.first { _ in true }
        bounded.deadline.giveUpOverdue(now: .now + .seconds(7200))
        await #expect(throws: TransactionDeadlinePassed.self) { try await stuck.value }
        guard case .accepted(let event) = try await queue.commit(try Self.note("after"), to: "doc") else {
            Issue.record("the change after the stuck one was not accepted")
            return
        }
        #expect(event.op == "after" && event.seq == 1)
    }

    /// A real store where alice has joined "doc", behind a gate.
    private static func gatedStoreOfAlice(in folder: TemporaryFolder, named name: String) async throws -> (SQLiteCollabStore, GatedStore) {
        let inner = try SQLiteCollabStore(path: folder.file("\(name).sqlite"))
        try await inner.addUser(name: "alice", tokenHash: "hash")
        _ = try await inner.join(document: "doc", user: "alice", open: false)
        return (inner, GatedStore(inner))
    }

    private static func note(_ operation: String) throws -> PendingChange {
        let xfdf = "<xfdf xmlns=\"http://ns.adobe.com/xfdf/\"><add><text name=\"\(operation)\" page=\"0\" rect=\"1,1,2,2\"/></add></xfdf>"
        return PendingChange(operation: operation, author: "alice", base: nil,
                             request: try SharedChangeReader.read(xfdf, author: "alice"), time: "2026-11-27T08:00:00.000Z",
                             mostAnnotations: 1000, rule: .members(open: false))
    }
}

/// What a client meets when the server cannot read its document's log: the connection is closed with `unavailable`,
/// so that the client reconnects, rather than left open with nothing following it. (The time limit only ends a
/// regression, which would wait for ever: the server runs in this process, whose threads the suite's other tests
/// may hold for minutes on a busy machine.)
@Suite struct LostLogTests {
    @Test(.timeLimit(.minutes(10))) func aFollowerThatCannotReadTheLogClosesItsConnectionWithUnavailable() async throws {
        let folder = TemporaryFolder()
        let inner = try SQLiteCollabStore(path: folder.file("lost.sqlite"))
        let token = BearerTokens.make()
        try await inner.addUser(name: "alice", tokenHash: BearerTokens.hash(token))
        let store = GatedStore(inner)
        store.open()
        store.failingReads = true
        var configuration = CollabServerConfiguration()
        configuration.port = 0
        // Only the failing reads may fail: a busy machine can hold this in-process server's calls (and its pings'
        // answers) past any deadline.
        configuration.transactionDeadline = .seconds(3600)
        configuration.heartbeat = .seconds(3600)
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let application = try CollabServer.application(store: store, configuration: configuration, logger: Logger(label: "test"),
                                                       onListening: { listening.yield($0) })
        let running = Task { try await application.runService() }
        defer { running.cancel() }
        var waiting = ports.makeAsyncIterator()
        let port = try #require(await waiting.next())
        // Without `since` the whole set is read before the welcome, and its failure answers the hello; with one, the
        // welcome comes and the follower's failure ends the connection.
        for since in [nil, 0] as [Int?] {
            var codes: [String] = []
            do {
                let session = try await CollabSession.open(CollabEndpoint(url: "ws://127.0.0.1:\(port)", token: token),
                                                           document: "doc", since: since, heartbeat: .seconds(3600))
                for await frame in session.frames {
                    if case .error(let code, _) = frame { codes.append(code) }
                }
            } catch CollabClientError.server(let code, _) {
                codes.append("hello answered: " + code)
            }
            #expect(codes == [since == nil ? "hello answered: unavailable" : "unavailable"],
                    "since \(String(describing: since)): error frames before the connection ended: \(codes)")
        }
    }
}

/// A real store whose first transaction waits to be let through, and which fails any transaction holding the
/// poisoned operation, recording the size of every batch it was given; with `failingReads`, every read of a
/// document's log fails as a lost database connection would.
final class GatedStore: CollabStore, @unchecked Sendable {
    static let poison = "poison"
    let inner: any CollabStore
    var failingReads = false
    let entered: AsyncStream<Void>
    private let enteredContinuation: AsyncStream<Void>.Continuation
    private let lock = NSLock()
    private var gate: CheckedContinuation<Void, Never>?
    private var opened = false
    private var sizes: [Int] = []

    init(_ inner: any CollabStore) {
        self.inner = inner
        (entered, enteredContinuation) = AsyncStream.makeStream()
    }

    var batches: [Int] { lock.withLock { sizes } }

    func open() {
        let waiting = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            opened = true
            defer { gate = nil }
            return gate
        }
        waiting?.resume()
    }

    func apply(document: String, changes: [PendingChange]) async throws -> [StoredChangeOutcome] {
        let first = lock.withLock { sizes.append(changes.count); return sizes.count == 1 }
        if first {
            await withCheckedContinuation { continuation in
                let already = lock.withLock { () -> Bool in
                    if opened { return true }
                    gate = continuation
                    return false
                }
                if already { continuation.resume() }
                enteredContinuation.yield()
            }
        }
        if changes.contains(where: { $0.operation == Self.poison }) { throw ProcessFailure("the poisoned change") }
        return try await inner.apply(document: document, changes: changes)
    }

    func addUser(name: String, tokenHash: String) async throws { try await inner.addUser(name: name, tokenHash: tokenHash) }
    func removeUser(name: String) async throws -> Bool { try await inner.removeUser(name: name) }
    func users() async throws -> [CollabUser] { try await inner.users() }
    func user(tokenHash: String) async throws -> String? { try await inner.user(tokenHash: tokenHash) }
    func join(document: String, user: String, open: Bool) async throws -> DocumentAccess? {
        try await inner.join(document: document, user: user, open: open)
    }
    func ensureDocument(_ document: String, owner: String) async throws { try await inner.ensureDocument(document, owner: owner) }
    func access(document: String, user: String, open: Bool) async throws -> DocumentAccess? {
        try await inner.access(document: document, user: user, open: open)
    }
    func grant(document: String, user: String, access: DocumentAccess?) async throws {
        try await inner.grant(document: document, user: user, access: access)
    }
    func position(document: String) async throws -> LogPosition { try await inner.position(document: document) }
    func snapshot(document: String) async throws -> (head: Int, annotations: [SharedAnnotation]) {
        if failingReads { throw ProcessFailure("the database connection was lost") }
        return try await inner.snapshot(document: document)
    }
    func read(document: String, user: String, rule: AccessRule, after seq: Int, limit: Int) async throws -> LogRead {
        if failingReads { throw ProcessFailure("the database connection was lost") }
        return try await inner.read(document: document, user: user, rule: rule, after: seq, limit: limit)
    }
    func feed(document: String, users: [String], open: Bool, after: Int?, limit: Int) async throws -> FeedRead {
        if failingReads { throw ProcessFailure("the database connection was lost") }
        return try await inner.feed(document: document, users: users, open: open, after: after, limit: limit)
    }
    func prune(document: String, keep: Int) async throws { try await inner.prune(document: document, keep: keep) }
    func beginPDF(document: String) async throws -> String { try await inner.beginPDF(document: document) }
    func appendPDF(upload: String, part: Int, bytes: [UInt8]) async throws {
        try await inner.appendPDF(upload: upload, part: part, bytes: bytes)
    }
    func finishPDF(document: String, upload: String, size: Int, parts: Int) async throws {
        try await inner.finishPDF(document: document, upload: upload, size: size, parts: parts)
    }
    func abandonPDF(upload: String) async throws { try await inner.abandonPDF(upload: upload) }
    func pdf(document: String) async throws -> StoredPDF? { try await inner.pdf(document: document) }
    func pdfPart(upload: String, part: Int) async throws -> [UInt8]? { try await inner.pdfPart(upload: upload, part: part) }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
