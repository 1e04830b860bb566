@testable import CollabServer
import Foundation
import Logging
import PostgresNIO
import RedlineCore
import TestSupport
import Testing

/// Two instances change one annotation at the same moment: the one that waited for the document's lock decides
/// against what the other committed meanwhile, never against what it read before the wait.
@Suite(.serialized) struct CrossInstanceLockTests {
    @Test func aChangeThatWaitedForTheLockSeesWhatTheHolderCommitted() async throws {
        let cluster = try ThrowawayPostgres()
        let location = try PostgresLocation(url: cluster.freshDatabase())
        let logger = Logger(label: "test")
        let first = try await PostgresCollabStore.connect(location, logger: logger)
        let second = try await PostgresCollabStore.connect(location, logger: logger)
        defer {
            first.close()
            second.close()
        }
        try await first.addUser(name: "alice", tokenHash: "hash-alice")
        #expect(try await first.join(document: "doc", user: "alice", open: false) == .write)
        let added = try await first.apply(document: "doc", changes: [Self.change("add-1", base: nil, "<add><text name=\"n\" page=\"0\" rect=\"10,10,20,20\"><contents>first</contents></text></add>")])
        guard case .accepted? = added.first else { Issue.record("the note was not added: \(added)"); return }

        // Another instance's transaction holds the document and changes the note to version 2.
        let holder = try await PostgresConnection.connect(on: PostgresClient.defaultEventLoopGroup.any(),
                                                          configuration: location.connectionConfiguration(), id: 1, logger: logger)
        try await holder.run("BEGIN", logger: logger)
        try await holder.run("SELECT head FROM documents WHERE id = 'doc' FOR UPDATE", logger: logger)
        try await holder.run("UPDATE annotations SET version = 2 WHERE document = 'doc' AND name = 'n'", logger: logger)
        let waiting = Task {
            try await second.apply(document: "doc", changes: [Self.change("modify-1", base: 1, "<modify><text name=\"n\" page=\"0\" rect=\"10,10,20,20\"><contents>second</contents></text></modify>")])
        }
        // Until the second instance's change waits for the lock (the event it needs, looked for, not slept for).
        // Asked on another connection: within a transaction, pg_stat_activity keeps answering as at its first read.
        while try await first.client.rows("""
            SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%FOR UPDATE%'
            """, logger: logger).first(Int.self) == 0 {
            try await Task.sleep(for: .milliseconds(20))
        }
        try await holder.run("COMMIT", logger: logger)
        let outcome = try await waiting.value
        try await holder.close()
        guard case .refused(let refusal)? = outcome.first else {
            Issue.record("a modify of version 1 after version 2 committed was \(outcome)")
            return
        }
        #expect(refusal.code == "stale")
    }

    private static func change(_ operation: String, base: Int?, _ xfdf: String) throws -> PendingChange {
        let request = try SharedChangeReader.read("<xfdf xmlns=\"http://ns.adobe.com/xfdf/\">\(xfdf)</xfdf>", author: "alice")
        return PendingChange(operation: operation, author: "alice", base: base, request: request, time: "2026-11-27T08:00:00.000Z",
                             mostAnnotations: 100, rule: .members(open: false))
    }
}
