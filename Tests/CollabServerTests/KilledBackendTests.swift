@testable import CollabServer
import Foundation
import Logging
import PostgresNIO
import TestSupport
import Testing

/// A PostgreSQL backend killed (by an operator, a failover, an out-of-memory killer) while the server reads a result
/// that spans several reads of the socket must cost that statement an error, never the process: postgres-nio traps
/// when the connection closes while a streamed result waits for its reader, so the store reads every result whole.
@Suite(.serialized) struct KilledBackendTests {
    @Test func aBackendKilledInTheMiddleOfABigResultIsAnErrorAndThePoolGoesOn() async throws {
        let cluster = try ThrowawayPostgres()
        let store = try await PostgresCollabStore.connect(PostgresLocation(url: cluster.freshDatabase()), logger: .init(label: "test"))
        defer { store.close() }
        let logger = Logger(label: "test")
        for trial in 0..<3 {
            // Twenty rows of 200 KB reach the server's reader, then the statement sleeps until its backend is killed.
            let marker = "killed_in_trial_\(trial)"
            let reading = Task {
                try await store.client.rows("""
                    SELECT '\(unescaped: marker)', CASE WHEN g = 21 THEN pg_sleep(600)::text ELSE '' END || repeat('x', 200000)
                    FROM generate_series(1, 40) g
                    """, logger: logger)
            }
            try await Self.killWhenAsleep(marker, store.client, logger)
            // postgres-nio's error for the server's FATAL message, or the store's for a connection found closed.
            await #expect(throws: (any Error).self) { try await reading.value }
        }
        // The pool goes on. It may lend each killed connection once more before it notices, which fails that
        // statement; which connections the trials' statements ran on is the pool's choice, so each may be one.
        var answered: Int?
        for _ in 0..<4 where answered == nil { answered = try? await store.client.rows("SELECT 1", logger: logger).first(Int.self) }
        #expect(answered == 1)
    }

    /// A statement written to a connection that has closed is answered with an error, not left waiting for ever
    /// (postgres-nio drops the write without failing the statement).
    @Test func aStatementOnAClosedConnectionIsAnsweredWithAnError() async throws {
        let cluster = try ThrowawayPostgres()
        let location = try PostgresLocation(url: cluster.freshDatabase())
        let logger = Logger(label: "test")
        let connection = try await PostgresConnection.connect(on: PostgresClient.defaultEventLoopGroup.any(),
                                                              configuration: location.connectionConfiguration(), id: 1, logger: logger)
        #expect(try await connection.rows("SELECT 1", logger: logger).first(Int.self) == 1)
        try await connection.close()
        // Bounded only so that a regression fails instead of hanging the suite (a task group would wait for the
        // statement that never ends; a race does not).
        let race = Race<String>()
        let outcome = try await withCheckedThrowingContinuation { continuation in
            race.start(continuation)
            Task {
                do {
                    _ = try await connection.rows("SELECT 1", logger: logger)
                    race.end(with: .success("answered with rows"))
                } catch {
                    race.end(with: .success("failed: \(error)"))
                }
            }
            Task {
                try? await Task.sleep(for: .seconds(120))
                race.end(with: .success("no answer"))
            }
        }
        #expect(outcome.hasPrefix("failed"), "\(outcome)")
    }

    /// The rule that keeps the trap away holds for every statement the store runs.
    @Test func theStoreReadsNoResultAsAStream() throws {
        let folder = TestPaths.packageRoot.appendingPathComponent("Sources/CollabServer")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where name.hasSuffix(".swift") && name != "PostgresWholeRows.swift" {
            let source = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(!source.contains(".query("), "\(name) runs a statement through postgres-nio's row sequence")
            #expect(!source.contains("PostgresRowSequence"), "\(name) reads postgres-nio's row sequence")
            #expect(!source.contains("withTransaction"), "\(name) runs a transaction whose statements may go unanswered")
        }
    }

    /// Waits for the statement to be asleep in the middle of its result (an event PostgreSQL reports), then kills it.
    private static func killWhenAsleep(_ marker: String, _ client: PostgresClient, _ logger: Logger) async throws {
        for _ in 0..<6000 {
            // The pool may lend the connection of the previous trial's killed backend before it notices: that look
            // fails, the next one gets another connection.
            let killed = try? await client.rows("""
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE wait_event = 'PgSleep' AND query LIKE \("%" + marker + "%") AND pid <> pg_backend_pid()
                """, logger: logger)
            if let killed, !killed.isEmpty { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw ProcessFailure("the statement never reached its sleep")
    }
}
