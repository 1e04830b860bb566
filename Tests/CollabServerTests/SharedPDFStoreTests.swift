@testable import CollabServer
import Foundation
import GRDB
import Logging
import TestSupport
import Testing

/// Shared PDFs kept in parts: what was uploaded comes back byte for byte, a new upload replaces the old one only
/// once finished, an abandoned one leaves nothing, and a PDF stored whole by an earlier version is served in parts.
@Suite(.serialized) struct SharedPDFStoreTests {
    @Test func sqliteKeepsAPDFInPartsAndReplacesItOnlyWhenANewOneIsFinished() async throws {
        let folder = TemporaryFolder()
        try await Self.exercise(SQLiteCollabStore(path: folder.file("pdfs.sqlite")))
    }

    @Test func postgresKeepsAPDFInPartsAndReplacesItOnlyWhenANewOneIsFinished() async throws {
        let cluster = try ThrowawayPostgres()
        let store = try await PostgresCollabStore.connect(PostgresLocation(url: cluster.freshDatabase()), logger: .init(label: "test"))
        defer { store.close() }
        try await Self.exercise(store)
    }

    @Test func aPDFStoredWholeBeforePartsIsServedAfterTheMigration() async throws {
        let folder = TemporaryFolder()
        let path = folder.file("old.sqlite")
        let bytes = Array("%PDF-1.4\n% stored whole\n%%EOF\n".utf8) + (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        do {
            let pool = try DatabasePool(path: path)
            try SQLiteCollabStore.migrator.migrate(pool, upTo: "2: each event's frame, encoded once at commit")
            try await pool.write { db in
                try db.execute(sql: "INSERT INTO documents (id, owner, created, pdf) VALUES ('doc', 'alice', '2026-11-01T00:00:00.000Z', ?)",
                               arguments: [Data(bytes)])
                try db.execute(sql: "INSERT INTO documents (id, owner, created) VALUES ('bare', 'alice', '2026-11-01T00:00:00.000Z')")
            }
        }
        let store = try SQLiteCollabStore(path: path)
        let stored = try #require(try await store.pdf(document: "doc"))
        #expect(stored.size == bytes.count && stored.parts == 1)
        #expect(try await store.pdfPart(upload: stored.upload, part: 0) == bytes)
        #expect(try await store.pdf(document: "bare") == nil)
    }

    /// A replaced PDF's space goes back to the file system: the file shrinks to about the new PDF's size, for a new
    /// database and for one an earlier version made without the setting (rewritten once when opened).
    @Test func sqliteGivesAReplacedPDFsSpaceBack() async throws {
        let folder = TemporaryFolder()
        let fresh = folder.file("fresh.sqlite")
        try await Self.replaceABigPDFWithASmallOne(fresh)
        let old = folder.file("old.sqlite")
        do {
            let pool = try DatabasePool(path: old)
            try SQLiteCollabStore.migrator.migrate(pool)
            #expect(try await pool.read { try Int.fetchOne($0, sql: "PRAGMA auto_vacuum") } == 0)
        }
        try await Self.replaceABigPDFWithASmallOne(old)
    }

    private static func replaceABigPDFWithASmallOne(_ path: String) async throws {
        let store = try SQLiteCollabStore(path: path)
        try await store.ensureDocument("doc", owner: "alice")
        _ = try await upload(store, seed: 3, parts: 12)
        let big = try Self.bytesOnDisk(path)
        let small = try await upload(store, seed: 4, parts: 1)
        // The server goes on writing (any change starts the write-ahead log over).
        try await store.ensureDocument("another", owner: "alice")
        let after = try Self.bytesOnDisk(path)
        #expect(big > 11 * StoredPDF.partSize, "\(path) and its log held the big PDF (\(big) bytes)")
        #expect(after < small.count + SQLiteCollabStore.largestIdleLog + 512 * 1024,
                "\(path) and its log gave the replaced PDF's space back (\(big) → \(after) bytes)")
        #expect(try await read(store) == small)
    }

    /// The database and its write-ahead log together, as `du` would count the folder.
    private static func bytesOnDisk(_ path: String) throws -> Int {
        try [path, path + "-wal"].reduce(0) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0)
        }
    }

    private static func exercise(_ store: some CollabStore) async throws {
        try await store.ensureDocument("doc", owner: "alice")
        #expect(try await store.pdf(document: "doc") == nil)
        let first = try await upload(store, seed: 1, parts: 3)
        #expect(try await read(store) == first)
        // An upload in progress is seen by no one; abandoned, it leaves nothing; finished, it replaces the first.
        let unfinished = try await store.beginPDF(document: "doc")
        try await store.appendPDF(upload: unfinished, part: 0, bytes: Array(repeating: 7, count: 1000))
        #expect(try await read(store) == first)
        try await store.abandonPDF(upload: unfinished)
        #expect(try await store.pdfPart(upload: unfinished, part: 0) == nil)
        let firstUpload = try #require(try await store.pdf(document: "doc")).upload
        let second = try await upload(store, seed: 2, parts: 2)
        #expect(try await read(store) == second)
        #expect(try await store.pdfPart(upload: firstUpload, part: 0) == nil, "the replaced PDF's parts are dropped")
    }

    private static func upload(_ store: some CollabStore, seed: UInt64, parts: Int) async throws -> [UInt8] {
        var random = SplitMix64(seed: seed)
        let upload = try await store.beginPDF(document: "doc")
        var all: [UInt8] = []
        for part in 0..<parts {
            let size = part == parts - 1 ? Int(random.next() % 5000) + 1 : StoredPDF.partSize
            let bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            try await store.appendPDF(upload: upload, part: part, bytes: bytes)
            all += bytes
        }
        try await store.finishPDF(document: "doc", upload: upload, size: all.count, parts: parts)
        return all
    }

    private static func read(_ store: some CollabStore) async throws -> [UInt8] {
        let stored = try #require(try await store.pdf(document: "doc"))
        var all: [UInt8] = []
        for part in 0..<stored.parts { all += try #require(try await store.pdfPart(upload: stored.upload, part: part)) }
        #expect(all.count == stored.size)
        return all
    }
}
