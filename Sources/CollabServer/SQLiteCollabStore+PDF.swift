import Foundation
import GRDB

/// Shared PDFs in parts of a mebibyte: each part is its own short write, so that a large upload never holds the
/// writer (every change to every document waits for it) for longer than one part takes.
extension SQLiteCollabStore {
    public func beginPDF(document: String) async throws -> String {
        let upload = UUID().uuidString.lowercased()
        try await pool.write { db in
            try Self.dropAbandonedUploads(db)
            try db.execute(sql: "INSERT INTO pdf_uploads (id, document, started) VALUES (?, ?, ?)",
                           arguments: [upload, document, CollabClock.now()])
        }
        return upload
    }

    public func appendPDF(upload: String, part: Int, bytes: [UInt8]) async throws {
        try await pool.write { db in
            try db.execute(sql: "INSERT INTO pdf_parts (upload, part, bytes) VALUES (?, ?, ?)", arguments: [upload, part, Data(bytes)])
        }
    }

    public func finishPDF(document: String, upload: String, size: Int, parts: Int) async throws {
        let replacedOne = try await pool.write { db -> Bool in
            let replaced = try String.fetchOne(db, sql: "SELECT pdf_upload FROM documents WHERE id = ?", arguments: [document])
            try db.execute(sql: "UPDATE pdf_uploads SET size = ?, parts = ? WHERE id = ?", arguments: [size, parts, upload])
            try db.execute(sql: "UPDATE documents SET pdf_upload = ? WHERE id = ?", arguments: [upload, document])
            guard let replaced else { return false }
            try db.execute(sql: "DELETE FROM pdf_uploads WHERE id = ?", arguments: [replaced])
            try Self.incrementalVacuum(db)
            return true
        }
        if replacedOne { await checkpointAfterDeletion() }
    }

    public func abandonPDF(upload: String) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM pdf_uploads WHERE id = ?", arguments: [upload])
            try Self.incrementalVacuum(db)
        }
        await checkpointAfterDeletion()
    }

    public func pdf(document: String) async throws -> StoredPDF? {
        try await pool.read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT u.id, u.size, u.parts FROM documents d JOIN pdf_uploads u ON u.id = d.pdf_upload WHERE d.id = ?
                """, arguments: [document])
            return row.map { StoredPDF(upload: $0[0], size: $0[1], parts: $0[2]) }
        }
    }

    public func pdfPart(upload: String, part: Int) async throws -> [UInt8]? {
        try await pool.read { db in
            try Data.fetchOne(db, sql: "SELECT bytes FROM pdf_parts WHERE upload = ? AND part = ?", arguments: [upload, part]).map { [UInt8]($0) }
        }
    }

    /// Uploads a killed server left unfinished: none lasts an hour (512 MiB at 150 KB/s).
    private static func dropAbandonedUploads(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM pdf_uploads WHERE size IS NULL AND started < ?
              AND id NOT IN (SELECT pdf_upload FROM documents WHERE pdf_upload IS NOT NULL)
            """, arguments: [CollabClock.iso(Date(timeIntervalSinceNow: -3600))])
        if db.changesCount > 0 { try incrementalVacuum(db) }
    }
}
