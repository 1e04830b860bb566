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
    /// What a network library's error means to a user, in words: NIO's describe the socket, not the problem.
    static func words(for error: any Error, url: String) -> String {
        let text = "\(error)"
        if text.contains("errno: 111") || text.contains("Connection refused") {
            return "nothing answers at \(url) (is redline serve running there?)"
        }
        if text.contains("cannotUseIPAddressInSNI") {
            return "\(url): TLS needs the server's host name, not its IP address"
        }
        if text.contains("handshakeFailed") || text.contains("CERTIFICATE_VERIFY_FAILED") {
            return "\(url): the server's certificate is not trusted (\(text.prefix(160)))"
        }
        if text.contains("errno: 110") || text.contains("timeout") || text.contains("Timeout") {
            return "\(url) did not answer in time"
        }
        if text.contains("lookup") || text.contains("NXDOMAIN") || text.contains("resolve") {
            return "cannot find the host of \(url)"
        }
        return "\(url): \(text.prefix(200))"
    }

    case badURL(String)
    case refusedConnection(String)
    case closed(String)
    case server(code: String, message: String)
    case http(status: Int, message: String)

    public var description: String {
        switch self {
        case .badURL(let url): "\(url) is not a server address: give ws://HOST:PORT or wss://HOST:PORT"
        case .refusedConnection(let why): "cannot reach the server: \(why)"
        case .closed(let why): "the server closed the connection: \(why)"
        case .server(let code, let message): "the server refused (\(code)): \(message)"
        case .http(let status, let message): "the server answered \(status): \(message)"
        }
    }
}
