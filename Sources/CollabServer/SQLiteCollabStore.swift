import Foundation
import GRDB
import RedlineCore

/// The embedded store: one SQLite file in WAL mode (GRDB's `DatabasePool`: one writer, readers beside it). A
/// change is acknowledged after its transaction commits; a killed server loses nothing it acknowledged.
public final class SQLiteCollabStore: CollabStore {
    let pool: DatabasePool

    public init(path: String) throws {
        var configuration = Configuration()
        // `redline serve user add` writes while the server runs: wait for the other writer instead of failing.
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // The write-ahead log grows to what passed through it between checkpoints (a whole shared PDF): past
            // this it is cut back each time it starts over, instead of keeping the largest size it ever reached.
            try db.execute(sql: "PRAGMA journal_size_limit = \(Self.largestIdleLog)")
        }
        // Token hashes and every document's annotations: the owner's alone, like the folder it is in. Made 0600
        // before SQLite opens it, since SQLite gives its -wal and -shm files the database file's mode.
        if !FileManager.default.fileExists(atPath: path) {
            FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        try Self.reclaimFreedSpace(pool)
        try Self.migrator.migrate(pool)
    }

    /// Space a replaced or abandoned shared PDF leaves is given back to the file system (`incrementalVacuum` after
    /// each), not kept by SQLite for later: a database that once held a 500 MiB PDF would stay that size. A database
    /// without the setting (a new one, or one an earlier version made) is rewritten once, at this opening.
    private static func reclaimFreedSpace(_ pool: DatabasePool) throws {
        try pool.writeWithoutTransaction { db in
            guard try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") != 2 else { return }
            // Opening in WAL mode has written the header already: the setting takes effect through a VACUUM, which
            // costs nothing on an empty database.
            try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
            try db.execute(sql: "VACUUM")
        }
    }

    /// Gives the pages a deletion freed back to the file system (at the next checkpoint, in WAL mode).
    static func incrementalVacuum(_ db: Database) throws {
        try db.execute(sql: "PRAGMA incremental_vacuum")
    }

    static let largestIdleLog = 4 << 20

    /// After a large deletion: the log's pages go into the file (which shrinks) now, without waiting for readers,
    /// and the next write starts the log over, cut to `largestIdleLog`.
    func checkpointAfterDeletion() async {
        _ = try? await pool.writeWithoutTransaction { try $0.checkpoint(.passive) }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("1: users, documents, members, events, annotations") { db in
            try db.execute(sql: """
                CREATE TABLE users (
                    name TEXT PRIMARY KEY NOT NULL,
                    token_hash TEXT NOT NULL UNIQUE,
                    created TEXT NOT NULL);
                CREATE TABLE documents (
                    id TEXT PRIMARY KEY NOT NULL,
                    owner TEXT NOT NULL,
                    created TEXT NOT NULL,
                    head INTEGER NOT NULL DEFAULT 0,
                    first_kept INTEGER NOT NULL DEFAULT 1,
                    live INTEGER NOT NULL DEFAULT 0,
                    pdf BLOB);
                CREATE TABLE members (
                    document TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
                    user TEXT NOT NULL REFERENCES users(name) ON DELETE CASCADE,
                    access TEXT NOT NULL CHECK (access IN ('write', 'read')),
                    PRIMARY KEY (document, user));
                CREATE TABLE events (
                    document TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
                    seq INTEGER NOT NULL,
                    operation TEXT NOT NULL,
                    author TEXT NOT NULL,
                    time TEXT NOT NULL,
                    action TEXT NOT NULL,
                    annotations TEXT NOT NULL,
                    xfdf TEXT NOT NULL,
                    PRIMARY KEY (document, seq),
                    UNIQUE (document, operation));
                CREATE TABLE annotations (
                    document TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    page INTEGER NOT NULL,
                    author TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    deleted INTEGER NOT NULL,
                    in_reply_to TEXT,
                    element TEXT NOT NULL,
                    PRIMARY KEY (document, name));
                CREATE INDEX annotations_replies ON annotations (document, in_reply_to);
                """)
        }
        migrator.registerMigration("2: each event's frame, encoded once at commit") { db in
            try db.execute(sql: "ALTER TABLE events ADD COLUMN frame TEXT")
        }
        migrator.registerMigration("3: shared PDFs in parts") { db in
            try db.execute(sql: """
                CREATE TABLE pdf_uploads (
                    id TEXT PRIMARY KEY NOT NULL,
                    document TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
                    started TEXT NOT NULL,
                    size INTEGER,
                    parts INTEGER);
                CREATE TABLE pdf_parts (
                    upload TEXT NOT NULL REFERENCES pdf_uploads(id) ON DELETE CASCADE,
                    part INTEGER NOT NULL,
                    bytes BLOB NOT NULL,
                    PRIMARY KEY (upload, part));
                ALTER TABLE documents ADD COLUMN pdf_upload TEXT REFERENCES pdf_uploads(id) ON DELETE SET NULL;
                INSERT INTO pdf_uploads (id, document, started, size, parts)
                    SELECT 'stored-' || id, id, created, length(pdf), 1 FROM documents WHERE pdf IS NOT NULL;
                INSERT INTO pdf_parts (upload, part, bytes) SELECT 'stored-' || id, 0, pdf FROM documents WHERE pdf IS NOT NULL;
                UPDATE documents SET pdf_upload = 'stored-' || id, pdf = NULL WHERE pdf IS NOT NULL;
                """)
        }
        return migrator
    }

    // MARK: Users

    public func addUser(name: String, tokenHash: String) async throws {
        try await pool.write { db in
            if try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM users WHERE name = ?"), arguments: [name]) == true {
                throw CollabStoreError.userExists(name)
            }
            try db.execute(sql: "INSERT INTO users (name, token_hash, created) VALUES (?, ?, ?)",
                           arguments: [name, tokenHash, CollabClock.now()])
        }
    }

    public func removeUser(name: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM members WHERE user = ?", arguments: [name])
            try db.execute(sql: "DELETE FROM users WHERE name = ?", arguments: [name])
            return db.changesCount > 0
        }
    }

    public func users() async throws -> [CollabUser] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT name, created FROM users ORDER BY name").map { CollabUser(name: $0["name"], created: $0["created"]) }
        }
    }

    public func user(tokenHash: String) async throws -> String? {
        try await pool.read { db in try String.fetchOne(db.cachedStatement(sql: "SELECT name FROM users WHERE token_hash = ?"), arguments: [tokenHash]) }
    }

    // MARK: Documents

    public func join(document: String, user: String, open: Bool) async throws -> DocumentAccess? {
        try await pool.write { db in
            guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM users WHERE name = ?"), arguments: [user]) == true else { return nil }
            if try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM documents WHERE id = ?"), arguments: [document]) != true {
                try db.execute(sql: "INSERT INTO documents (id, owner, created) VALUES (?, ?, ?)",
                               arguments: [document, user, CollabClock.now()])
                try db.execute(sql: "INSERT INTO members (document, user, access) VALUES (?, ?, 'write')", arguments: [document, user])
                return .write
            }
            return try Self.access(db, document: document, user: user, open: open)
        }
    }

    public func ensureDocument(_ document: String, owner: String) async throws {
        try await pool.write { db in
            try db.execute(sql: "INSERT INTO documents (id, owner, created) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING",
                           arguments: [document, owner, CollabClock.now()])
        }
    }

    public func access(document: String, user: String, open: Bool) async throws -> DocumentAccess? {
        try await pool.read { db in try Self.access(db, document: document, user: user, open: open) }
    }

    private static func access(_ db: Database, document: String, user: String, rule: AccessRule) throws -> DocumentAccess? {
        switch rule {
        case .granted(let access): access
        case .denied: nil
        case .members(let open): try access(db, document: document, user: user, open: open)
        }
    }

    private static func access(_ db: Database, document: String, user: String, open: Bool) throws -> DocumentAccess? {
        guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM users WHERE name = ?"), arguments: [user]) == true else { return nil }
        if let granted = try String.fetchOne(db.cachedStatement(sql: "SELECT access FROM members WHERE document = ? AND user = ?"),
                                             arguments: [document, user]) {
            return DocumentAccess(rawValue: granted)
        }
        return open ? .write : nil
    }

    public func grant(document: String, user: String, access: DocumentAccess?) async throws {
        try await pool.write { db in
            guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM users WHERE name = ?"), arguments: [user]) == true else {
                throw CollabStoreError.noSuchUser(user)
            }
            if try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM documents WHERE id = ?"), arguments: [document]) != true {
                try db.execute(sql: "INSERT INTO documents (id, owner, created) VALUES (?, ?, ?)",
                               arguments: [document, user, CollabClock.now()])
            }
            if let access {
                try db.execute(sql: """
                    INSERT INTO members (document, user, access) VALUES (?, ?, ?)
                    ON CONFLICT (document, user) DO UPDATE SET access = excluded.access
                    """, arguments: [document, user, access.rawValue])
            } else {
                try db.execute(sql: "DELETE FROM members WHERE document = ? AND user = ?", arguments: [document, user])
            }
        }
    }

    public func position(document: String) async throws -> LogPosition {
        try await pool.read { db in
            let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT head, first_kept FROM documents WHERE id = ?"), arguments: [document])
            return LogPosition(head: row?["head"] ?? 0, firstKept: row?["first_kept"] ?? 1)
        }
    }

    // MARK: Changes

    public func apply(document: String, changes: [PendingChange]) async throws -> [StoredChangeOutcome] {
        try await pool.write { db in try changes.map { try Self.apply($0, to: document, db) } }
    }

    /// One change inside the batch's transaction: it reads what the changes before it wrote.
    private static func apply(_ change: PendingChange, to document: String, _ db: Database) throws -> StoredChangeOutcome {
        let (operation, author, base, request) = (change.operation, change.author, change.base, change.request)
        switch try Self.access(db, document: document, user: author, rule: change.rule) {
        case .write: break
        case .read: return .refused(.readOnly)
        case nil: return .noAccess
        }
        if let earlier = try Row.fetchOne(db.cachedStatement(sql: "SELECT seq, author, annotations FROM events WHERE document = ? AND operation = ?"),
                                          arguments: [document, operation]) {
            // Another user's operation id is not this user's resend: answering with its event would drop this change.
            guard earlier["author"] as String == author else { return .refused(.operationInUse(operation)) }
            let entries = CollabStoreCoding.entries(earlier["annotations"])
            return .duplicate(seq: earlier["seq"], name: entries.first?.name ?? request.name, version: entries.first?.version ?? 0)
        }
        guard let documentRow = try Row.fetchOne(db.cachedStatement(sql: "SELECT head, live FROM documents WHERE id = ?"), arguments: [document]) else {
            throw CollabStoreError.noSuchDocument(document)
        }
        let current = try Self.annotation(db, document: document, name: request.name)
        let parentName = request.action == .add ? request.inReplyTo : nil
        let parent = try parentName.flatMap { try Self.annotation(db, document: document, name: $0) }
        let descendants = request.action == .delete ? try Self.descendants(db, document: document, of: request.name) : []
        let facts = SharedChangeRules.Facts(current: current, parent: parent, descendants: descendants,
                                            liveCount: documentRow["live"], mostAnnotations: change.mostAnnotations)
        switch SharedChangeRules.decide(request, base: base, author: author, canWrite: true, facts: facts) {
        case .failure(let refusal):
            return .refused(refusal)
        case .success(let accepted):
            let seq: Int = documentRow["head"] + 1
            for annotation in accepted.changed {
                try db.cachedStatement(sql: """
                    INSERT INTO annotations (document, name, page, author, version, deleted, in_reply_to, element)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (document, name) DO UPDATE SET page = excluded.page, version = excluded.version,
                        deleted = excluded.deleted, element = excluded.element
                    """).execute(arguments: [document, annotation.name, annotation.pageIndex, annotation.author, annotation.version,
                                     annotation.deleted, annotation.inReplyTo, annotation.element])
            }
            let event = CollabFrame.Event(seq: seq, op: operation, author: author, time: change.time, action: accepted.action,
                                          annotations: accepted.changed.map(CollabFrame.Entry.init), xfdf: accepted.xfdf)
            try db.cachedStatement(sql: """
                INSERT INTO events (document, seq, operation, author, time, action, annotations, xfdf, frame)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [document, seq, operation, author, change.time, accepted.action.rawValue,
                                         CollabStoreCoding.text(event.annotations), accepted.xfdf,
                                         CollabFrame.Server.event(event).json])
            try db.cachedStatement(sql: "UPDATE documents SET head = ?, live = live + ? WHERE id = ?")
                .execute(arguments: [seq, accepted.liveDelta, document])
            return .accepted(event)
        }
    }

    private static func annotation(_ db: Database, document: String, name: String) throws -> SharedAnnotation? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM annotations WHERE document = ? AND name = ?"), arguments: [document, name])
            .map(Self.annotation)
    }

    private static func annotation(_ row: Row) -> SharedAnnotation {
        SharedAnnotation(name: row["name"], pageIndex: row["page"], author: row["author"], version: row["version"],
                         deleted: row["deleted"], inReplyTo: row["in_reply_to"], element: row["element"])
    }

    /// Everything answering `name`, however deep: one indexed query a level, each annotation read once.
    private static func descendants(_ db: Database, document: String, of name: String) throws -> [SharedAnnotation] {
        var found: [SharedAnnotation] = []
        var seen: Set<String> = [name]
        var level = [name]
        while !level.isEmpty {
            var next: [String] = []
            for parent in level {
                for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM annotations WHERE document = ? AND in_reply_to = ?"),
                                            arguments: [document, parent]) {
                    let reply = annotation(row)
                    guard seen.insert(reply.name).inserted else { continue }
                    found.append(reply)
                    next.append(reply.name)
                }
            }
            level = next
        }
        return found
    }

    public func read(document: String, user: String, rule: AccessRule, after seq: Int, limit: Int) async throws -> LogRead {
        try await pool.read { db in
            guard try Self.access(db, document: document, user: user, rule: rule) != nil else { return .noAccess }
            let firstKept = try Int.fetchOne(db.cachedStatement(sql: "SELECT first_kept FROM documents WHERE id = ?"),
                                             arguments: [document]) ?? 1
            return .events(firstKept: firstKept, try Self.events(db, document: document, after: seq, limit: limit))
        }
    }

    private static func events(_ db: Database, document: String, after seq: Int, limit: Int) throws -> [StoredEvent] {
        try Row.fetchAll(db.cachedStatement(sql: """
            SELECT seq, operation, author, time, action, annotations, xfdf, frame FROM events
            WHERE document = ? AND seq > ? ORDER BY seq LIMIT ?
            """), arguments: [document, seq, limit]).map { row in
            if let frame = row["frame"] as String? { return StoredEvent(seq: row["seq"], frame: frame) }
            let event = CollabFrame.Event(seq: row["seq"], op: row["operation"], author: row["author"], time: row["time"],
                                          action: AnnotationChange.Action(rawValue: row["action"]) ?? .modify,
                                          annotations: CollabStoreCoding.entries(row["annotations"]), xfdf: row["xfdf"])
            return StoredEvent(seq: event.seq, frame: CollabFrame.Server.event(event).json)
        }
    }

    public func feed(document: String, users: [String], open: Bool, after: Int?, limit: Int) async throws -> FeedRead {
        try await pool.read { db in
            var access: [String: DocumentAccess] = [:]
            for user in users { access[user] = try Self.access(db, document: document, user: user, open: open) }
            let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT head, first_kept FROM documents WHERE id = ?"), arguments: [document])
            let head: Int = row?["head"] ?? 0
            let events = try after.map { try Self.events(db, document: document, after: $0, limit: limit) } ?? []
            return FeedRead(firstKept: row?["first_kept"] ?? 1, head: events.last?.seq ?? after ?? head, events: events,
                            access: access)
        }
    }

    public func snapshot(document: String) async throws -> (head: Int, annotations: [SharedAnnotation]) {
        try await pool.read { db in
            let head = try Int.fetchOne(db.cachedStatement(sql: "SELECT head FROM documents WHERE id = ?"), arguments: [document]) ?? 0
            let all = try Row.fetchAll(db, sql: "SELECT * FROM annotations WHERE document = ? ORDER BY rowid",
                                       arguments: [document]).map(Self.annotation)
            return (head, all)
        }
    }

    public func prune(document: String, keep: Int) async throws {
        try await pool.write { db in
            guard let head = try Int.fetchOne(db.cachedStatement(sql: "SELECT head FROM documents WHERE id = ?"), arguments: [document]) else { return }
            let firstKept = max(1, head - keep + 1)
            try db.execute(sql: "DELETE FROM events WHERE document = ? AND seq < ?", arguments: [document, firstKept])
            try db.execute(sql: "UPDATE documents SET first_kept = max(first_kept, ?) WHERE id = ?", arguments: [firstKept, document])
        }
    }
}

public enum CollabStoreError: Error, CustomStringConvertible, Equatable {
    case userExists(String)
    case noSuchUser(String)
    case noSuchDocument(String)
    case badLocation(String)
    case unreachable(String, String)

    public var description: String {
        switch self {
        case .badLocation(let problem): "not a PostgreSQL location: \(problem)"
        case .unreachable(let location, let problem): "cannot use the database at \(location): \(problem)"
        case .userExists(let name): "a user named \(name) exists already"
        case .noSuchUser(let name): "there is no user named \(name)"
        case .noSuchDocument(let id): "there is no document \(id)"
        }
    }
}

/// The entries of an event as the log row keeps them: JSON.
enum CollabStoreCoding {
    static func text(_ entries: [CollabFrame.Entry]) -> String {
        String(decoding: (try? JSONEncoder().encode(entries)) ?? Data("[]".utf8), as: UTF8.self)
    }

    static func entries(_ text: String) -> [CollabFrame.Entry] {
        (try? JSONDecoder().decode([CollabFrame.Entry].self, from: Data(text.utf8))) ?? []
    }
}

/// The server's time, for event stamps: ISO 8601 in UTC to the millisecond. Written from the C clock: making an
/// ISO8601DateFormatter for every change was a tenth of the server's time under load.
public enum CollabClock {
    public static func now() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return text(seconds: spec.tv_sec, milliseconds: Int(spec.tv_nsec / 1_000_000))
    }

    public static func iso(_ date: Date) -> String {
        let milliseconds = Int((date.timeIntervalSince1970 * 1000).rounded(.down))
        return text(seconds: milliseconds / 1000, milliseconds: milliseconds % 1000)
    }

    private static func text(seconds: Int, milliseconds: Int) -> String {
        var seconds = seconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let fraction = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(fraction)Z"
    }
}
