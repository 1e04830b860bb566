import Foundation
import Logging
import PostgresNIO
import RedlineCore

/// The store for several instances: one PostgreSQL database shared by every `redline serve` behind a load
/// balancer. A document's changes are serialised by a lock on its row, so its log stays gapless whichever instance
/// writes; each commit sends `NOTIFY redline_events` with only the document and the sequence number (NOTIFY has no
/// replay and 8,000 bytes at most), and every instance's followers read the log from where they stopped.
public final class PostgresCollabStore: CollabStore {
    static let channel = "redline_events"
    let client: PostgresClient
    private let running: Task<Void, Never>
    let logger: Logger

    /// Connects, and runs the migrations not yet run (one instance at a time, under an advisory lock).
    public static func connect(_ location: PostgresLocation, logger: Logger) async throws -> PostgresCollabStore {
        // One connection first: a wrong address or role fails at once with the server's reason, where the pool
        // would retry for a minute before giving up with none.
        do {
            let connection = try await PostgresConnection.connect(on: PostgresClient.defaultEventLoopGroup.any(),
                                                                  configuration: location.connectionConfiguration(),
                                                                  id: 0, logger: logger).get()
            do {
                try await migrate(connection, logger: logger)
            } catch {
                try? await connection.close()
                throw error
            }
            try? await connection.close()
        } catch {
            throw CollabStoreError.unreachable(location.shown, PostgresErrorText.describe(error))
        }
        // The pool's own log is noise at the levels an operator runs (a warning that it is asked for a connection a
        // moment before its task starts); its connection failures surface as the errors of the queries.
        var poolLogger = logger
        poolLogger.logLevel = max(logger.logLevel, .error)
        return PostgresCollabStore(client: PostgresClient(configuration: location.clientConfiguration, backgroundLogger: poolLogger),
                                   logger: logger)
    }

    private init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
        running = Task { await client.run() }
    }

    public func close() { running.cancel() }

    // MARK: Migrations

    static let migrations: [(name: String, statements: [String])] = [
        ("1: users, documents, members, events, annotations", [
            """
            CREATE TABLE users (
                name TEXT PRIMARY KEY,
                token_hash TEXT NOT NULL UNIQUE,
                created TEXT NOT NULL)
            """,
            """
            CREATE TABLE documents (
                id TEXT PRIMARY KEY,
                owner TEXT NOT NULL,
                created TEXT NOT NULL,
                head BIGINT NOT NULL DEFAULT 0,
                first_kept BIGINT NOT NULL DEFAULT 1,
                live BIGINT NOT NULL DEFAULT 0,
                pdf BYTEA)
            """,
            """
            CREATE TABLE members (
                document TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
                "user" TEXT NOT NULL REFERENCES users(name) ON DELETE CASCADE,
                access TEXT NOT NULL CHECK (access IN ('write', 'read')),
                PRIMARY KEY (document, "user"))
            """,
            """
            CREATE TABLE events (
                document TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
                seq BIGINT NOT NULL,
                operation TEXT NOT NULL,
                author TEXT NOT NULL,
                time TEXT NOT NULL,
                action TEXT NOT NULL,
                annotations TEXT NOT NULL,
                xfdf TEXT NOT NULL,
                frame TEXT NOT NULL,
                PRIMARY KEY (document, seq),
                UNIQUE (document, operation))
            """,
            """
            CREATE TABLE annotations (
                document TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                ord BIGSERIAL,
                page BIGINT NOT NULL,
                author TEXT NOT NULL,
                version BIGINT NOT NULL,
                deleted BOOLEAN NOT NULL,
                in_reply_to TEXT,
                element TEXT NOT NULL,
                PRIMARY KEY (document, name))
            """,
            "CREATE INDEX annotations_replies ON annotations (document, in_reply_to)",
        ]),
        ("2: shared PDFs in parts", [
            """
            CREATE TABLE pdf_uploads (
                id TEXT PRIMARY KEY,
                document TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
                started TEXT NOT NULL,
                size BIGINT,
                parts BIGINT)
            """,
            """
            CREATE TABLE pdf_parts (
                upload TEXT NOT NULL REFERENCES pdf_uploads(id) ON DELETE CASCADE,
                part BIGINT NOT NULL,
                bytes BYTEA NOT NULL,
                PRIMARY KEY (upload, part))
            """,
            "ALTER TABLE documents ADD COLUMN pdf_upload TEXT REFERENCES pdf_uploads(id) ON DELETE SET NULL",
            """
            INSERT INTO pdf_uploads (id, document, started, size, parts)
            SELECT 'stored-' || id, id, created, length(pdf), 1 FROM documents WHERE pdf IS NOT NULL
            """,
            "INSERT INTO pdf_parts (upload, part, bytes) SELECT 'stored-' || id, 0, pdf FROM documents WHERE pdf IS NOT NULL",
            "UPDATE documents SET pdf_upload = 'stored-' || id, pdf = NULL WHERE pdf IS NOT NULL",
        ]),
    ]

    private static func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.transaction(logger: logger) { connection in
            // Instances starting together take turns; the lock ends with the transaction.
            try await connection.run("SELECT pg_advisory_xact_lock(7270617261)", logger: logger)
            try await connection.run("""
                CREATE TABLE IF NOT EXISTS redline_migrations (name TEXT PRIMARY KEY, applied TEXT NOT NULL)
                """, logger: logger)
            var applied: Set<String> = []
            for name in try await connection.rows("SELECT name FROM redline_migrations", logger: logger).decoded(String.self) {
                applied.insert(name)
            }
            for migration in migrations where !applied.contains(migration.name) {
                for statement in migration.statements {
                    try await connection.run(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.run("INSERT INTO redline_migrations (name, applied) VALUES (\(migration.name), \(CollabClock.now()))",
                                           logger: logger)
            }
        }
    }

    // MARK: Users

    public func addUser(name: String, tokenHash: String) async throws {
        let rows = try await client.rows("""
            INSERT INTO users (name, token_hash, created) VALUES (\(name), \(tokenHash), \(CollabClock.now()))
            ON CONFLICT (name) DO NOTHING RETURNING name
            """, logger: logger)
        if rows.isEmpty { throw CollabStoreError.userExists(name) }
    }

    public func removeUser(name: String) async throws -> Bool {
        try await client.transaction(logger: logger) { connection in
            try await connection.run(#"DELETE FROM members WHERE "user" = \#(name)"#, logger: logger)
            let removed = try await connection.rows("DELETE FROM users WHERE name = \(name) RETURNING name", logger: logger)
            // Every instance checks its connections of this user again now, not at the next periodic check.
            try await connection.run("SELECT pg_notify(\(Self.channel), '*')", logger: logger)
            return !removed.isEmpty
        }
    }

    public func users() async throws -> [CollabUser] {
        try await client.rows("SELECT name, created FROM users ORDER BY name", logger: logger)
            .decoded((String, String).self).map { CollabUser(name: $0, created: $1) }
    }

    public func user(tokenHash: String) async throws -> String? {
        try await client.rows("SELECT name FROM users WHERE token_hash = \(tokenHash)", logger: logger).first(String.self)
    }

    // MARK: Documents

    public func join(document: String, user: String, open: Bool) async throws -> DocumentAccess? {
        try await client.transaction(logger: logger) { connection in
            guard try await Self.userExists(connection, user, logger) else { return nil }
            let made = try await connection.rows("""
                INSERT INTO documents (id, owner, created) VALUES (\(document), \(user), \(CollabClock.now()))
                ON CONFLICT (id) DO NOTHING RETURNING id
                """, logger: logger)
            if !made.isEmpty {
                try await connection.run(#"INSERT INTO members (document, "user", access) VALUES (\#(document), \#(user), 'write')"#,
                                         logger: logger)
                return .write
            }
            return try await Self.access(connection, document: document, user: user, open: open, logger)
        }
    }

    public func ensureDocument(_ document: String, owner: String) async throws {
        try await client.run("""
            INSERT INTO documents (id, owner, created) VALUES (\(document), \(owner), \(CollabClock.now())) ON CONFLICT (id) DO NOTHING
            """, logger: logger)
    }

    public func access(document: String, user: String, open: Bool) async throws -> DocumentAccess? {
        try await client.withConnection { connection in
            try await Self.access(connection, document: document, user: user, open: open, logger)
        }
    }

    private static func userExists(_ connection: PostgresConnection, _ user: String, _ logger: Logger) async throws -> Bool {
        try await !connection.rows("SELECT 1 FROM users WHERE name = \(user)", logger: logger).isEmpty
    }

    /// One query: whether the user exists, and what the document's membership grants them.
    private static func access(_ connection: PostgresConnection, document: String, user: String, open: Bool,
                               _ logger: Logger) async throws -> DocumentAccess? {
        let rows = try await connection.rows("""
            SELECT m.access FROM users u LEFT JOIN members m ON m.document = \(document) AND m."user" = u.name
            WHERE u.name = \(user)
            """, logger: logger)
        guard let granted = try rows.first(String?.self) else { return nil }
        if let granted { return DocumentAccess(rawValue: granted) }
        return open ? .write : nil
    }

    public func grant(document: String, user: String, access: DocumentAccess?) async throws {
        try await client.transaction(logger: logger) { connection in
            guard try await Self.userExists(connection, user, logger) else { throw CollabStoreError.noSuchUser(user) }
            try await connection.run("""
                INSERT INTO documents (id, owner, created) VALUES (\(document), \(user), \(CollabClock.now()))
                ON CONFLICT (id) DO NOTHING
                """, logger: logger)
            if let access {
                try await connection.run(#"""
                    INSERT INTO members (document, "user", access) VALUES (\#(document), \#(user), \#(access.rawValue))
                    ON CONFLICT (document, "user") DO UPDATE SET access = excluded.access
                    """#, logger: logger)
            } else {
                try await connection.run(#"DELETE FROM members WHERE document = \#(document) AND "user" = \#(user)"#, logger: logger)
            }
            // A revoked member's connections on every instance are closed now.
            try await connection.run("SELECT pg_notify(\(Self.channel), \(document + " 0"))", logger: logger)
        }
    }

    public func position(document: String) async throws -> LogPosition {
        let rows = try await client.rows("SELECT head, first_kept FROM documents WHERE id = \(document)", logger: logger)
        guard let (head, firstKept) = try rows.first.map({ try $0.decode((Int, Int).self) }) else { return LogPosition(head: 0, firstKept: 1) }
        return LogPosition(head: head, firstKept: firstKept)
    }

    // MARK: Changes

    /// A batch of a document's changes in one transaction, whatever its size: BEGIN; the document's row locked; every
    /// fact the rules need; every write and the announcement in one statement; COMMIT. A deletion reads what answers
    /// the annotation after writing what the batch changed before it, so that it sees it.
    public func apply(document: String, changes: [PendingChange]) async throws -> [StoredChangeOutcome] {
        try await client.transaction(logger: logger) { connection in
            // The lock first, in a statement of its own: it orders the document's changes across instances (the next
            // seq is head + 1, gapless). Under READ COMMITTED a statement reads as of its start, so facts read in the
            // statement that waited for the lock would be those from before the change that held it: another
            // instance's commit would go unseen (two modifies of one version both accepted, an operation id used twice).
            let locked = try await connection.rows("SELECT head, live FROM documents WHERE id = \(document) FOR UPDATE", logger: logger)
                .decoded((Int, Int).self).first.map { (head: $0, live: $1) }
            // A document that is gone is no longer visible to anyone.
            guard let locked else { return changes.map { _ in .noAccess } }
            // In one round trip, as of now: each author's membership, earlier uses of the operation ids, and the
            // annotations the changes name or answer (as JSON, so that they ride on one row).
            let authors = Array(Set(changes.map(\.author)))
            var names = Set(changes.map(\.request.name))
            for change in changes where change.request.action == .add { if let parent = change.request.inReplyTo { names.insert(parent) } }
            let facts: (authors: String?, earlier: String?, annotations: String?) = try await connection.rows(#"""
                SELECT
                    (SELECT json_agg(json_build_array(u.name, m.access))::text FROM users u
                     LEFT JOIN members m ON m.document = \#(document) AND m."user" = u.name WHERE u.name = ANY(\#(authors)::text[])),
                    (SELECT json_agg(json_build_array(ev.operation, ev.seq, ev.author, ev.annotations))::text FROM events ev
                     WHERE ev.document = \#(document) AND ev.operation = ANY(\#(changes.map(\.operation))::text[])),
                    (SELECT json_agg(json_build_array(a.name, a.page, a.author, a.version, a.deleted, a.in_reply_to, a.element))::text
                     FROM annotations a WHERE a.document = \#(document) AND a.name = ANY(\#(Array(names))::text[]))
                """#, logger: logger).decoded((String?, String?, String?).self).first ?? (nil, nil, nil)
            let decoder = JSONDecoder()
            var batch = ChangeBatch(document: document, head: locked.head, live: locked.live)
            for row in try facts.authors.map({ try decoder.decode([AuthorRow].self, from: Data($0.utf8)) }) ?? [] {
                batch.members[row.name] = .some(row.access)
            }
            for row in try facts.earlier.map({ try decoder.decode([EarlierRow].self, from: Data($0.utf8)) }) ?? [] {
                let first = CollabStoreCoding.entries(row.entries).first
                batch.earlier[row.operation] = (row.seq, row.author, first?.name, first?.version ?? 0)
            }
            for row in try facts.annotations.map({ try decoder.decode([AnnotationRow].self, from: Data($0.utf8)) }) ?? [] {
                batch.known[row.annotation.name] = row.annotation
            }
            var outcomes: [StoredChangeOutcome] = []
            outcomes.reserveCapacity(changes.count)
            for change in changes {
                var descendants: [SharedAnnotation] = []
                if change.request.action == .delete, batch.known[change.request.name] != nil {
                    try await write(&batch, connection)
                    descendants = try await Self.descendants(connection, document: document, of: change.request.name, logger)
                }
                outcomes.append(batch.decide(change, descendants: descendants))
            }
            try await write(&batch, connection)
            return outcomes
        }
    }

    /// What a batch changed and has not written yet, written in one statement (announced with the last event).
    private func write(_ batch: inout ChangeBatch, _ connection: PostgresConnection) async throws {
        guard !batch.events.isEmpty else { return }
        let document = batch.document
        let changed = batch.unwritten.map { batch.known[$0]! }
        let events = batch.events
        // Data-modifying WITH parts run once and to completion whether or not the final SELECT reads them.
        // An empty in_reply_to stands for none (a name is never empty).
        try await connection.run("""
            WITH changed AS (
                INSERT INTO annotations (document, name, page, author, version, deleted, in_reply_to, element)
                SELECT \(document), n, p, a, v, d, NULLIF(r, ''), e
                FROM unnest(\(changed.map(\.name))::text[], \(changed.map(\.pageIndex))::bigint[],
                            \(changed.map(\.author))::text[], \(changed.map(\.version))::bigint[],
                            \(changed.map(\.deleted))::boolean[], \(changed.map { $0.inReplyTo ?? "" })::text[],
                            \(changed.map(\.element))::text[]) WITH ORDINALITY AS c(n, p, a, v, d, r, e, o)
                ORDER BY o
                ON CONFLICT (document, name) DO UPDATE SET page = excluded.page, version = excluded.version,
                    deleted = excluded.deleted, element = excluded.element
                RETURNING 1),
            logged AS (
                INSERT INTO events (document, seq, operation, author, time, action, annotations, xfdf, frame)
                SELECT \(document), s, o, a, t, c, n, x, f
                FROM unnest(\(events.map(\.event.seq))::bigint[], \(events.map(\.event.op))::text[],
                            \(events.map(\.event.author))::text[], \(events.map(\.event.time))::text[],
                            \(events.map(\.event.action.rawValue))::text[], \(events.map { CollabStoreCoding.text($0.event.annotations) })::text[],
                            \(events.map(\.event.xfdf))::text[], \(events.map(\.frame))::text[]) AS e(s, o, a, t, c, n, x, f)
                RETURNING 1),
            moved AS (
                UPDATE documents SET head = \(batch.head), live = \(batch.live) WHERE id = \(document)
                RETURNING 1)
            SELECT pg_notify(\(Self.channel), \(document + " \(batch.head) \(events.count)"))
            """, logger: logger)
        batch.written()
    }

    private static let annotationColumns = "name, page, author, version, deleted, in_reply_to, element"

    private static func annotations(_ rows: [PostgresRow]) throws -> [SharedAnnotation] {
        try rows.decoded((String, Int, String, Int, Bool, String?, String).self).map { name, page, author, version, deleted, inReplyTo, element in
            SharedAnnotation(name: name, pageIndex: page, author: author, version: version, deleted: deleted,
                             inReplyTo: inReplyTo, element: element)
        }
    }

    /// Everything answering `name`, however deep, in one recursive query (UNION drops a name met twice).
    private static func descendants(_ connection: PostgresConnection, document: String, of name: String,
                                    _ logger: Logger) async throws -> [SharedAnnotation] {
        try await annotations(connection.rows("""
            WITH RECURSIVE below(name) AS (
                SELECT name FROM annotations WHERE document = \(document) AND in_reply_to = \(name)
                UNION
                SELECT a.name FROM annotations a JOIN below b ON a.document = \(document) AND a.in_reply_to = b.name)
            SELECT \(unescaped: annotationColumns) FROM annotations
            WHERE document = \(document) AND name IN (SELECT name FROM below) AND name <> \(name) ORDER BY ord
            """, logger: logger))
    }

    /// One round trip: the user's access, the log's extent and the events after `seq`, from one snapshot.
    public func read(document: String, user: String, rule: AccessRule, after seq: Int, limit: Int) async throws -> LogRead {
        let open: Bool
        switch rule {
        case .denied: return .noAccess
        case .granted: return try await readGranted(document: document, after: seq, limit: limit)
        case .members(let isOpen): open = isOpen
        }
        let rows = try await client.rows("""
            SELECT m.access, COALESCE(d.first_kept, 1), e.seq, e.frame
            FROM users u
            LEFT JOIN members m ON m.document = \(document) AND m."user" = u.name
            LEFT JOIN documents d ON d.id = \(document)
            LEFT JOIN LATERAL (SELECT seq, frame FROM events WHERE document = \(document) AND seq > \(seq)
                               ORDER BY seq LIMIT \(limit)) e ON true
            WHERE u.name = \(user)
            ORDER BY e.seq
            """, logger: logger)
        var firstKept: Int?
        var events: [StoredEvent] = []
        for (granted, kept, eventSeq, frame) in try rows.decoded((String?, Int, Int?, String?).self) {
            guard granted != nil || open else { return .noAccess }
            firstKept = kept
            if let eventSeq, let frame { events.append(StoredEvent(seq: eventSeq, frame: frame)) }
        }
        guard let firstKept else { return .noAccess }
        return .events(firstKept: firstKept, events)
    }

    /// For a principal whose token granted access: the log's extent and events, no membership read.
    private func readGranted(document: String, after seq: Int, limit: Int) async throws -> LogRead {
        let rows = try await client.rows("""
            SELECT d.first_kept, e.seq, e.frame FROM documents d
            LEFT JOIN LATERAL (SELECT seq, frame FROM events WHERE document = \(document) AND seq > \(seq)
                               ORDER BY seq LIMIT \(limit)) e ON true
            WHERE d.id = \(document)
            ORDER BY e.seq
            """, logger: logger)
        var firstKept = 1
        var events: [StoredEvent] = []
        for (kept, eventSeq, frame) in try rows.decoded((Int, Int?, String?).self) {
            firstKept = kept
            if let eventSeq, let frame { events.append(StoredEvent(seq: eventSeq, frame: frame)) }
        }
        return .events(firstKept: firstKept, events)
    }

    public func feed(document: String, users: [String], open: Bool, after: Int?, limit: Int) async throws -> FeedRead {
        try await client.withConnection { connection in
            var access: [String: DocumentAccess] = [:]
            var firstKept = 1
            var head = 0
            // The log's extent and every follower's access in one round trip (a user removed has no row).
            for (kept, top, user, granted) in try await connection.rows(#"""
                SELECT d.first_kept, d.head, u.name, m.access
                FROM (SELECT first_kept, head FROM documents WHERE id = \#(document)) d
                LEFT JOIN users u ON u.name = ANY(\#(users)::text[])
                LEFT JOIN members m ON m.document = \#(document) AND m."user" = u.name
                """#, logger: logger).decoded((Int, Int, String?, String?).self) {
                firstKept = kept
                head = top
                if let user { access[user] = granted.flatMap(DocumentAccess.init(rawValue:)) ?? (open ? .write : nil) }
            }
            var events: [StoredEvent] = []
            if let after {
                for (seq, frame) in try await connection.rows("""
                    SELECT seq, frame FROM events WHERE document = \(document) AND seq > \(after) ORDER BY seq LIMIT \(limit)
                    """, logger: logger).decoded((Int, String).self) {
                    events.append(StoredEvent(seq: seq, frame: frame))
                }
            }
            return FeedRead(firstKept: firstKept, head: events.last?.seq ?? after ?? head, events: events, access: access)
        }
    }

    public func snapshot(document: String) async throws -> (head: Int, annotations: [SharedAnnotation]) {
        try await client.transaction(logger: logger) { connection in
            // One snapshot for both reads: the head the annotations are current at.
            try await connection.run("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            let head = try await connection.rows("SELECT head FROM documents WHERE id = \(document)", logger: logger).first(Int.self) ?? 0
            let all = try await Self.annotations(connection.rows("""
                SELECT \(unescaped: Self.annotationColumns) FROM annotations WHERE document = \(document) ORDER BY ord
                """, logger: logger))
            return (head, all)
        }
    }

    public func prune(document: String, keep: Int) async throws {
        try await client.transaction(logger: logger) { connection in
            guard let head = try await connection.rows("SELECT head FROM documents WHERE id = \(document) FOR UPDATE", logger: logger)
                .first(Int.self) else { return }
            let firstKept = max(1, head - keep + 1)
            try await connection.run("DELETE FROM events WHERE document = \(document) AND seq < \(firstKept)", logger: logger)
            try await connection.run("UPDATE documents SET first_kept = GREATEST(first_kept, \(firstKept)) WHERE id = \(document)",
                                     logger: logger)
        }
    }

    // MARK: Other instances

    /// Announces each commit of any instance, and "everything" when every document should be read again (a user
    /// was removed, or the feed was interrupted and notifications may have been missed). Runs until cancelled,
    /// listening again after a lost connection.
    public func followCommits(_ poke: @escaping @Sendable (CommitAnnouncement) async -> Void) async {
        // A LISTEN whose connection was killed can wait for ever, deaf to cancellation: shutting down must not.
        await Abandoning.run { await self.listen(poke) }
    }

    /// A presence is a hint: when it cannot be sent, the next period's goes.
    public func announcePresence(_ presence: PresenceAnnouncement) async {
        do {
            try await client.withConnection { connection in
                try await connection.run("SELECT pg_notify(\(Self.channel), \(presence.payload))", logger: logger)
            }
        } catch {
            logger.debug("announcing who is in \(presence.document) failed: \(PostgresErrorText.describe(error))")
        }
    }

    private func listen(_ poke: @escaping @Sendable (CommitAnnouncement) async -> Void) async {
        var delay: Duration = .milliseconds(100)
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        // Listening again may have missed commits: every follower reads from its cursor.
                        await poke(.everything)
                        delay = .milliseconds(100)
                        for try await notification in notifications {
                            await poke(CommitAnnouncement(payload: notification.payload))
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("listening for other instances' commits failed (\(PostgresErrorText.describe(error))); again in \(delay)")
            }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(5))
        }
    }
}

/// An author as the batch's facts give it: the name and the membership, if any.
private struct AuthorRow: Decodable {
    let name: String
    let access: DocumentAccess?

    init(from decoder: any Decoder) throws {
        var row = try decoder.unkeyedContainer()
        name = try row.decode(String.self)
        access = try row.decodeNil() ? nil : DocumentAccess(rawValue: try row.decode(String.self))
    }
}

/// An earlier use of an operation id: the operation, its event's number and author, and the entries it changed.
private struct EarlierRow: Decodable {
    let operation: String
    let seq: Int
    let author: String
    let entries: String

    init(from decoder: any Decoder) throws {
        var row = try decoder.unkeyedContainer()
        operation = try row.decode(String.self)
        seq = try row.decode(Int.self)
        author = try row.decode(String.self)
        entries = try row.decode(String.self)
    }
}

/// An annotation as `json_build_array` gives it: name, page, author, version, deleted, in_reply_to, element.
private struct AnnotationRow: Decodable {
    let annotation: SharedAnnotation

    init(from decoder: any Decoder) throws {
        var row = try decoder.unkeyedContainer()
        let name = try row.decode(String.self)
        let page = try row.decode(Int.self)
        let author = try row.decode(String.self)
        let version = try row.decode(Int.self)
        let deleted = try row.decode(Bool.self)
        let inReplyTo = try row.decodeNil() ? nil : try row.decode(String.self)
        let element = try row.decode(String.self)
        annotation = SharedAnnotation(name: name, pageIndex: page, author: author, version: version, deleted: deleted,
                                      inReplyTo: inReplyTo, element: element)
    }
}

/// Where the PostgreSQL database is: a `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=…]` URL, or
/// `?host=/run/postgresql` for the Unix socket in that folder.
public struct PostgresLocation: Sendable {
    enum Endpoint { case tcp(host: String, port: Int), socket(path: String) }
    enum Encryption { case disable, prefer(TLSConfiguration), require(TLSConfiguration) }
    let endpoint: Endpoint
    let encryption: Encryption
    let user: String
    let password: String?
    let database: String?
    /// The URL without its password, for messages.
    public let shown: String

    public init(url: String) throws {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? "") else {
            throw CollabStoreError.badLocation("expected postgres://USER@HOST:PORT/DATABASE")
        }
        user = components.percentEncodedUser.flatMap { $0.removingPercentEncoding } ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
        // As libpq: PGPASSWORD when the URL has none, so that the password need not be on a command line.
        password = components.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
            ?? ProcessInfo.processInfo.environment["PGPASSWORD"]
        database = components.path.isEmpty ? nil : String(components.path.dropFirst()).removingPercentEncoding
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        let port = components.port ?? 5432
        if let socketFolder = query["host"], socketFolder.hasPrefix("/") {
            endpoint = .socket(path: "\(socketFolder)/.s.PGSQL.\(port)")
            encryption = .disable
        } else {
            guard let host = components.host, !host.isEmpty else { throw CollabStoreError.badLocation("the URL names no host") }
            endpoint = .tcp(host: host, port: port)
            switch query["sslmode"] ?? "prefer" {
            case "disable": encryption = .disable
            case "prefer", "allow": encryption = .prefer(Self.tls(verifying: .none))
            // As libpq reads them: require encrypts, verify-ca checks the chain, verify-full the host name too.
            case "require": encryption = .require(Self.tls(verifying: .none))
            case "verify-ca": encryption = .require(Self.tls(verifying: .noHostnameVerification))
            case "verify-full": encryption = .require(Self.tls(verifying: .fullVerification))
            case let other: throw CollabStoreError.badLocation("sslmode=\(other) is not one of disable, prefer, require, verify-ca, verify-full")
            }
        }
        var withoutPassword = components
        if withoutPassword.password != nil { withoutPassword.password = "xxxxx" }
        shown = withoutPassword.string ?? "postgres://…"
    }

    private static func tls(verifying: CertificateVerification) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = verifying
        return configuration
    }

    var clientConfiguration: PostgresClient.Configuration {
        switch endpoint {
        case .socket(let path):
            return .init(unixSocketPath: path, username: user, password: password, database: database)
        case .tcp(let host, let port):
            let tls: PostgresClient.Configuration.TLS = switch encryption {
            case .disable: .disable
            case .prefer(let settings): .prefer(settings)
            case .require(let settings): .require(settings)
            }
            return .init(host: host, port: port, username: user, password: password, database: database, tls: tls)
        }
    }

    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        switch endpoint {
        case .socket(let path):
            return .init(unixSocketPath: path, username: user, password: password, database: database)
        case .tcp(let host, let port):
            let tls: PostgresConnection.Configuration.TLS = switch encryption {
            case .disable: .disable
            case .prefer(let settings): .prefer(try NIOSSLContext(configuration: settings))
            case .require(let settings): .require(try NIOSSLContext(configuration: settings))
            }
            return .init(host: host, port: port, username: user, password: password, database: database, tls: tls)
        }
    }
}

/// postgres-nio's errors hide the server's message from `description` (it may carry data); an operator starting
/// a server needs it.
enum PostgresErrorText {
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            if error.code == .sslUnsupported { return "the server does not offer TLS (sslmode=disable or prefer connects without it)" }
            if error.code == .connectionError, let underlying = error.underlying { return connectionProblem(underlying) }
            return "\(error.code)" + (error.underlying.map { ": \($0)" } ?? "")
        }
        return "\(error)"
    }

    /// NIO's connection errors in words: the errno's text, or the host that has no address.
    private static func connectionProblem(_ error: any Error) -> String {
        let text = "\(error)"
        if text.contains("UnknownHost") || text.contains("DNS error") { return "the host name has no address" }
        if let errnoRange = text.range(of: "(errno: "), let end = text[errnoRange.upperBound...].firstIndex(of: ")"),
           let code = Int32(text[errnoRange.upperBound..<end]) {
            return "cannot connect: " + String(cString: strerror(code))
        }
        return "cannot connect: \(text)"
    }
}
