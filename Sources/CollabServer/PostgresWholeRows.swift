import Logging
import NIOCore
import PostgresNIO

// Every statement the store runs goes through `rows` and `transaction` below, never through postgres-nio's
// `query` returning a `PostgresRowSequence` or its `withTransaction`, for two faults of postgres-nio (1.33, and its
// main branch as of this writing) that a killed backend (an operator, a failover, an out-of-memory killer) meets:
// - It traps the whole process ("How can we receive a body part, after a channelReadComplete, but no read has been
//   forwarded yet", RowStreamStateMachine) when the server closes a connection while a streamed result waits for
//   its reader to ask for more: any result larger than one read of the socket (a page of 100 KB events, a part of a
//   shared PDF) on a busy machine. The collecting reader asks for the next rows the moment rows arrive, so it never
//   waits on a reader. The store's reads are bounded pages: holding one whole costs nothing the sequence saved.
// - A statement written to a connection that has just closed (the pool lent it a moment before it noticed) is
//   dropped without an answer, and its caller waits for ever: `channel.write(…, promise: nil)`. Looking at the
//   connection right after the write answers it with `DatabaseConnectionClosed`. `withTransaction`'s BEGIN, COMMIT and ROLLBACK
//   are written the same way, hence `transaction`.

/// The connection closed before the statement was answered: it may or may not have been carried out.
struct DatabaseConnectionClosed: Error, CustomStringConvertible {
    var description: String { "the database connection closed before the statement was answered" }
}

extension PostgresConnection {
    func rows(_ query: PostgresQuery, logger: Logger, file: String = #fileID, line: Int = #line) async throws -> [PostgresRow] {
        let whole: EventLoopFuture<PostgresQueryResult> = self.query(query, logger: logger, file: file, line: line)
        let answer = eventLoop.makePromise(of: [PostgresRow].self)
        whole.whenComplete { answer.completeWith($0.map(\.rows)) }
        // The statement's write was queued on the connection's event loop just before this check: a connection
        // closed now dropped it, or will fail it itself (a promise completed a second time keeps its first result).
        // No callback is left on the connection's closing: one per statement would pile up for its lifetime.
        eventLoop.execute { if self.isClosed { answer.fail(DatabaseConnectionClosed()) } }
        return try await answer.futureResult.get()
    }

    /// A statement whose rows, if any, say nothing; its error still comes back.
    func run(_ query: PostgresQuery, logger: Logger, file: String = #fileID, line: Int = #line) async throws {
        _ = try await rows(query, logger: logger, file: file, line: line)
    }

    /// BEGIN, the work, COMMIT; ROLLBACK when the work fails (the work's error is the one thrown).
    func transaction<Value: Sendable>(logger: Logger, _ work: @Sendable (PostgresConnection) async throws -> Value) async throws -> Value {
        try await run("BEGIN", logger: logger)
        let value: Value
        do {
            value = try await work(self)
        } catch {
            try? await run("ROLLBACK", logger: logger)
            throw error
        }
        try await run("COMMIT", logger: logger)
        return value
    }
}

extension PostgresClient {
    func rows(_ query: PostgresQuery, logger: Logger, file: String = #fileID, line: Int = #line) async throws -> [PostgresRow] {
        try await withConnection { try await $0.rows(query, logger: logger, file: file, line: line) }
    }

    func run(_ query: PostgresQuery, logger: Logger, file: String = #fileID, line: Int = #line) async throws {
        _ = try await rows(query, logger: logger, file: file, line: line)
    }

    func transaction<Value: Sendable>(logger: Logger, _ work: @Sendable (PostgresConnection) async throws -> Value) async throws -> Value {
        try await withConnection { try await $0.transaction(logger: logger, work) }
    }
}

extension Array where Element == PostgresRow {
    func decoded<each Column: PostgresDecodable>(_ columns: (repeat each Column).Type) throws -> [(repeat each Column)] {
        try map { try $0.decode(columns) }
    }

    func first<Column: PostgresDecodable>(_ column: Column.Type) throws -> Column? {
        try first.map { try $0.decode(Column.self) }
    }
}
