import Foundation
import NIOCore
import PostgresNIO

/// Shared PDFs in parts of a mebibyte, each part its own statement: neither an upload nor a download is held whole
/// in the server's memory (nor in one bind of the driver's).
extension PostgresCollabStore {
    public func beginPDF(document: String) async throws -> String {
        let upload = UUID().uuidString.lowercased()
        let abandoned = CollabClock.iso(Date(timeIntervalSinceNow: -3600))
        // Uploads a killed instance left unfinished: none lasts an hour (512 MiB at 150 KB/s).
        try await client.run("""
            DELETE FROM pdf_uploads WHERE size IS NULL AND started < \(abandoned)
              AND id NOT IN (SELECT pdf_upload FROM documents WHERE pdf_upload IS NOT NULL)
            """, logger: logger)
        try await client.run("INSERT INTO pdf_uploads (id, document, started) VALUES (\(upload), \(document), \(CollabClock.now()))",
                               logger: logger)
        return upload
    }

    public func appendPDF(upload: String, part: Int, bytes: [UInt8]) async throws {
        try await client.run("INSERT INTO pdf_parts (upload, part, bytes) VALUES (\(upload), \(part), \(ByteBuffer(bytes: bytes)))",
                               logger: logger)
    }

    public func finishPDF(document: String, upload: String, size: Int, parts: Int) async throws {
        try await client.transaction(logger: logger) { connection in
            let replaced = try await connection.rows("SELECT pdf_upload FROM documents WHERE id = \(document) FOR UPDATE", logger: logger)
                .first(String?.self) ?? nil
            try await connection.run("UPDATE pdf_uploads SET size = \(size), parts = \(parts) WHERE id = \(upload)", logger: logger)
            try await connection.run("UPDATE documents SET pdf_upload = \(upload) WHERE id = \(document)", logger: logger)
            if let replaced { try await connection.run("DELETE FROM pdf_uploads WHERE id = \(replaced)", logger: logger) }
        }
    }

    public func abandonPDF(upload: String) async throws {
        try await client.run("DELETE FROM pdf_uploads WHERE id = \(upload)", logger: logger)
    }

    public func pdf(document: String) async throws -> StoredPDF? {
        let rows = try await client.rows("""
            SELECT u.id, u.size, u.parts FROM documents d JOIN pdf_uploads u ON u.id = d.pdf_upload WHERE d.id = \(document)
            """, logger: logger)
        return try rows.decoded((String, Int, Int).self).first.map { StoredPDF(upload: $0, size: $1, parts: $2) }
    }

    public func pdfPart(upload: String, part: Int) async throws -> [UInt8]? {
        let rows = try await client.rows("SELECT bytes FROM pdf_parts WHERE upload = \(upload) AND part = \(part)", logger: logger)
        return try rows.first(ByteBuffer.self).map { Array($0.readableBytesView) }
    }
}
