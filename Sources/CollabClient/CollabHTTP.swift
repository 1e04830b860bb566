import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The server's HTTP side: a document's shared PDF, uploaded and fetched with the same bearer token.
public enum CollabHTTP {
    public static func putPDF(_ bytes: Data, document: String, endpoint: CollabEndpoint) async throws {
        var request = try self.request(document: document, endpoint: endpoint)
        request.httpMethod = "PUT"
        request.setValue("application/pdf", forHTTPHeaderField: "Content-Type")
        let (body, response) = try await send(request, upload: bytes)
        try check(response, body)
    }

    public static func getPDF(document: String, endpoint: CollabEndpoint) async throws -> Data {
        let request = try self.request(document: document, endpoint: endpoint)
        let (body, response) = try await send(request, upload: nil)
        try check(response, body)
        return body
    }

    private static func request(document: String, endpoint: CollabEndpoint) throws -> URLRequest {
        guard let url = endpoint.pdfURL(document) else { throw CollabClientError.badURL(endpoint.url) }
        var request = URLRequest(url: url)
        request.setValue("Bearer \(endpoint.token)", forHTTPHeaderField: "Authorization")
        request.timeoutInterval = 300
        return request
    }

    private static func send(_ request: URLRequest, upload: Data?) async throws -> (Data, URLResponse) {
        do {
            if let upload { return try await URLSession.shared.upload(for: request, from: upload) }
            return try await URLSession.shared.data(for: request)
        } catch {
            throw CollabClientError.refusedConnection(error.localizedDescription)
        }
    }

    private static func check(_ response: URLResponse, _ body: Data) throws {
        guard let http = response as? HTTPURLResponse else { throw CollabClientError.refusedConnection("no HTTP answer") }
        guard (200..<300).contains(http.statusCode) else {
            let message = (try? JSONSerialization.jsonObject(with: body) as? [String: Any]).flatMap { $0["error"] as? [String: Any] }
                .flatMap { $0["message"] as? String } ?? String(decoding: body.prefix(200), as: UTF8.self)
            throw CollabClientError.http(status: http.statusCode, message: message)
        }
    }
}
