import AsyncHTTPClient
import Foundation

/// The server's HTTP side: a document's shared PDF, uploaded and fetched with the same bearer token.
public enum CollabHTTP {
    public static let largestPDF = 512 << 20

    public static func putPDF(_ bytes: Data, document: String, endpoint: CollabEndpoint) async throws {
        var request = try self.request(document: document, endpoint: endpoint)
        request.method = .PUT
        request.headers.add(name: "Content-Type", value: "application/pdf")
        request.body = .bytes(bytes)
        _ = try await send(request)
    }

    public static func getPDF(document: String, endpoint: CollabEndpoint) async throws -> Data {
        try await send(try request(document: document, endpoint: endpoint))
    }

    private static func request(document: String, endpoint: CollabEndpoint) throws -> HTTPClientRequest {
        guard let url = endpoint.pdfURL(document) else { throw CollabClientError.badURL(endpoint.url) }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Authorization", value: "Bearer \(endpoint.token)")
        return request
    }

    private static func send(_ request: HTTPClientRequest) async throws -> Data {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let response: HTTPClientResponse
            do {
                response = try await client.execute(request, timeout: .seconds(300))
            } catch {
                throw CollabClientError.refusedConnection(CollabClientError.words(for: error, url: request.url))
            }
            let body = try await response.body.collect(upTo: largestPDF)
            let data = Data(body.readableBytesView)
            guard (200..<300).contains(Int(response.status.code)) else {
                let message = (try? JSONSerialization.jsonObject(with: data) as? [String: Any]).flatMap { $0["error"] as? [String: Any] }
                    .flatMap { $0["message"] as? String } ?? String(decoding: data.prefix(200), as: UTF8.self)
                throw CollabClientError.http(status: Int(response.status.code), message: message)
            }
            try await client.shutdown()
            return data
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
}
