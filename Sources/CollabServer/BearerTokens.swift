import Crypto
import Foundation

/// Bearer tokens: 256 random bits, shown once; the server keeps only their SHA-256.
public enum BearerTokens {
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return "rl_" + Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    public static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// The token of an `Authorization: Bearer …` header value.
    public static func token(fromAuthorization value: String?) -> String? {
        guard let value else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        // An organisation's JWT may carry many document ids; a header holds 8 KB.
        return token.isEmpty || token.utf8.count > 8192 ? nil : token
    }
}
