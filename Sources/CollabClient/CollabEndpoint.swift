import Foundation

/// Where a collaboration server is and who the user is there: `ws://HOST:PORT` (`wss://` with TLS) and a bearer
/// token.
public struct CollabEndpoint: Sendable, Hashable {
    public var url: String
    public var token: String

    public init(url: String, token: String) throws {
        guard let parsed = URLComponents(string: url), let scheme = parsed.scheme, ["ws", "wss", "http", "https"].contains(scheme),
              parsed.host?.isEmpty == false else {
            throw CollabClientError.badURL(url)
        }
        self.url = url.hasSuffix("/") ? String(url.dropLast()) : url
        self.token = token
    }

    var isSecure: Bool { url.hasPrefix("wss:") || url.hasPrefix("https:") }

    /// The WebSocket address of the protocol.
    var socketURL: String {
        let base = url.replacingOccurrences(of: "^http", with: "ws", options: .regularExpression)
        return base + "/v1/socket"
    }

    /// The HTTP address of a document's shared PDF.
    func pdfURL(_ document: String) -> URL? {
        URL(string: url.replacingOccurrences(of: "^ws", with: "http", options: .regularExpression) + "/v1/documents/\(document)/pdf")
    }
}

public enum CollabClientError: Error, CustomStringConvertible, Equatable {
    case badURL(String)
    case refusedConnection(String)
    case closed(String)
    case server(code: String, message: String)
    case http(status: Int, message: String)

    public var description: String {
        switch self {
        case .badURL(let url): "\(url) is not a server address: give ws://HOST:PORT or wss://HOST:PORT"
        case .refusedConnection(let why): "cannot connect: \(why)"
        case .closed(let why): "the server closed the connection: \(why)"
        case .server(let code, let message): "the server refused (\(code)): \(message)"
        case .http(let status, let message): "the server answered \(status): \(message)"
        }
    }
}
