import Hummingbird
import HummingbirdWebSocket
import NIOCore
import RedlineCore

/// `PUT` and `GET /v1/documents/ID/pdf`: a shared PDF streams through in parts (`StoredPDF.partSize`), so that the
/// server holds a mebibyte or two per transfer whatever the file's size (four 500 MiB uploads at once once took
/// 5.7 GB); a user runs at most `uploadsPerUser` uploads at once, and a body that stops coming for 30 s
/// (`CollabServer`'s HTTP idle timeout) ends its upload.
enum SharedPDFRoutes {
    static func add(to router: Router<BasicWebSocketRequestContext>, _ services: CollabServices,
                    authenticated: @escaping @Sendable (Request) async throws -> Principal) {
        let store = services.store
        let configuration = services.configuration
        let uploads = UploadSlots()
        router.put("/v1/documents/:id/pdf") { request, context in
            let principal = try await authenticated(request)
            let document = try documentID(context)
            let access: DocumentAccess?
            if let grant = principal.grant {
                access = grant.access(to: document)
                if access == .write { try await store.ensureDocument(document, owner: principal.name) }
            } else {
                access = try await store.join(document: document, user: principal.name, open: configuration.open)
            }
            guard access == .write else {
                throw HTTPError(.forbidden, message: "\(principal.name) may not change \(document)")
            }
            if let length = request.headers[.contentLength].flatMap(Int.init), length > configuration.largestPDF {
                throw tooLarge(configuration)
            }
            guard await uploads.claim(for: principal.name, most: configuration.uploadsPerUser) else {
                throw HTTPError(.serviceUnavailable, headers: [.retryAfter: "5"],
                                message: "\(principal.name) has \(configuration.uploadsPerUser) uploads running: send it again in a moment")
            }
            do {
                try await receive(request.body, document: document, store, configuration)
                await uploads.release(for: principal.name)
            } catch {
                await uploads.release(for: principal.name)
                throw error
            }
            return Response(status: .noContent)
        }
        router.get("/v1/documents/:id/pdf") { request, context in
            let principal = try await authenticated(request)
            let document = try documentID(context)
            let access: DocumentAccess?
            if let grant = principal.grant {
                access = grant.access(to: document)
            } else {
                access = try await store.access(document: document, user: principal.name, open: configuration.open)
            }
            guard access != nil, let pdf = try await store.pdf(document: document) else {
                throw HTTPError(.notFound, message: "no shared PDF for \(document) that \(principal.name) may see")
            }
            return Response(status: .ok, headers: [.contentType: "application/pdf"],
                            body: ResponseBody(contentLength: pdf.size) { writer in
                                for part in 0..<pdf.parts {
                                    // Replaced by a newer upload while this one was sent: the client sees a short body.
                                    guard let bytes = try await store.pdfPart(upload: pdf.upload, part: part) else {
                                        throw HTTPError(.conflict, message: "the shared PDF was replaced while it was sent")
                                    }
                                    try await writer.write(ByteBuffer(bytes: bytes))
                                }
                                try await writer.finish(nil)
                            })
        }
    }

    /// Stores the body part by part, and makes it the document's PDF only once the whole of it is stored.
    private static func receive(_ body: RequestBody, document: String, _ store: any CollabStore,
                                _ configuration: CollabServerConfiguration) async throws {
        let upload = try await store.beginPDF(document: document)
        do {
            var part: [UInt8] = []
            part.reserveCapacity(StoredPDF.partSize)
            var size = 0
            var parts = 0
            func keep(_ part: [UInt8]) async throws {
                if parts == 0, !part.starts(with: Array("%PDF-".utf8)) {
                    throw HTTPError(.badRequest, message: "the body is not a PDF (it does not start with %PDF-)")
                }
                try await store.appendPDF(upload: upload, part: parts, bytes: part)
                parts += 1
            }
            for try await var buffer in body {
                size += buffer.readableBytes
                guard size <= configuration.largestPDF else { throw tooLarge(configuration) }
                while let bytes = buffer.readBytes(length: min(StoredPDF.partSize - part.count, buffer.readableBytes)), !bytes.isEmpty {
                    part += bytes
                    if part.count == StoredPDF.partSize {
                        try await keep(part)
                        part.removeAll(keepingCapacity: true)
                    }
                }
            }
            if !part.isEmpty || parts == 0 { try await keep(part) }
            try await store.finishPDF(document: document, upload: upload, size: size, parts: parts)
        } catch {
            try? await store.abandonPDF(upload: upload)
            throw error
        }
    }

    private static func tooLarge(_ configuration: CollabServerConfiguration) -> HTTPError {
        HTTPError(.contentTooLarge, message: "a shared PDF holds at most \(configuration.largestPDF) bytes")
    }

    static func documentID(_ context: BasicWebSocketRequestContext) throws -> String {
        let id = try context.parameters.require("id")
        guard CollabFrame.Client.isDocumentID(id) else { throw HTTPError(.badRequest, message: "not a document id") }
        return id
    }
}

/// Uploads running at once, per user: one user's stalled uploads hold no one else's.
private actor UploadSlots {
    private var running: [String: Int] = [:]

    func claim(for user: String, most: Int) -> Bool {
        guard running[user, default: 0] < most else { return false }
        running[user, default: 0] += 1
        return true
    }

    func release(for user: String) {
        running[user, default: 1] -= 1
        if running[user] == 0 { running[user] = nil }
    }
}
