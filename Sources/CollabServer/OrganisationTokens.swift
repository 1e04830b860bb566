import Foundation
import JWTKit

/// Who a connection or request is: a user of the server's database, or the subject of a token an organisation
/// signed (a JWT), whose rights are in the token itself.
public struct Principal: Sendable, Hashable {
    public let name: String
    /// Set for an organisation's token: what it grants, until when.
    public let grant: TokenGrant?

    /// How the store decides this principal's access to `document`.
    func rule(for document: String, open: Bool) -> AccessRule {
        guard let grant else { return .members(open: open) }
        return grant.access(to: document).map(AccessRule.granted) ?? .denied
    }
}

/// What an organisation's token grants: documents by id (`*` for every document) and an expiry.
public struct TokenGrant: Sendable, Hashable {
    public var expires: Date
    public var documents: [String: DocumentAccess]

    public func access(to document: String) -> DocumentAccess? { documents[document] ?? documents["*"] }
    public func expired(at now: Date = Date()) -> Bool { now >= expires }
}

/// Tokens an organisation mints for its reviewers, checked against its public key (`redline serve
/// --jwt-public-key`): claims `sub` (the user name, which becomes the author), `exp` (required), optionally `iss`
/// and `nbf` (30 seconds' leeway), and `documents`, an object from document id (or `*`) to `write` or `read`.
public struct OrganisationTokens: Sendable {
    private let keys: JWTKeyCollection
    private let issuer: String?

    /// The key is a PEM public key: ECDSA P-256/P-384/P-521 (ES256/384/512), Ed25519 (EdDSA) or RSA (RS256).
    public static func load(publicKeyPEM pem: String, issuer: String?) async throws -> OrganisationTokens {
        let keys = JWTKeyCollection()
        if let key = try? ES256PublicKey(pem: pem) {
            await keys.add(ecdsa: key)
        } else if let key = try? ES384PublicKey(pem: pem) {
            await keys.add(ecdsa: key)
        } else if let key = try? ES512PublicKey(pem: pem) {
            await keys.add(ecdsa: key)
        } else if let key = try? EdDSA.PublicKey(pem: pem) {
            await keys.add(eddsa: key)
        } else if let key = try? Insecure.RSA.PublicKey(pem: pem) {
            await keys.add(rsa: key, digestAlgorithm: .sha256)
        } else {
            throw CollabServerError("the JWT key is not a PEM public key of ECDSA (P-256, P-384, P-521), Ed25519 or RSA")
        }
        return OrganisationTokens(keys: keys, issuer: issuer)
    }

    /// Seconds a token's `nbf` may lie ahead of the server's clock.
    static let clockLeeway: TimeInterval = 30

    /// Whether a bearer token is meant for this check: three base64url parts (a server token starts with `rl_`).
    public static func looksLikeJWT(_ token: String) -> Bool {
        !token.hasPrefix("rl_") && token.split(separator: ".", omittingEmptySubsequences: false).count == 3
    }

    /// The token's principal, or why it is refused.
    public func verify(_ token: String, now: Date = Date()) async -> Result<Principal, TokenRefusal> {
        let claims: RedlineClaims
        do {
            // Every claim is optional to the decoder, so that a token the key signed is told what it lacks rather
            // than refused as if another key had signed it (jwt-kit decodes the payload before the signature).
            claims = try await keys.verify(token, as: RedlineClaims.self)
        } catch {
            return .failure(.invalid)
        }
        guard let expiry = claims.exp else {
            return .failure(.badClaim(claims.present.contains("exp") ? "has an exp that is not a time in seconds" : "has no exp (its expiry)"))
        }
        guard expiry > now else { return .failure(.expired) }
        // A little leeway for the minting service's clock.
        if let nbf = claims.nbf, nbf > now.addingTimeInterval(Self.clockLeeway) { return .failure(.notYetValid) }
        if let issuer, claims.iss != issuer {
            return .failure(claims.iss == nil ? .badClaim("has no iss, and this server takes only tokens whose iss is \(issuer)")
                                              : .wrongIssuer)
        }
        guard let name = claims.sub else {
            return .failure(.badClaim(claims.present.contains("sub") ? "has a sub that is not a string" : "names no user (its sub is missing)"))
        }
        if let problem = CollabUserName.problem(name) { return .failure(.badClaim("has a sub that is not a user name: \(problem)")) }
        guard let access = claims.documents else {
            return .failure(.badClaim(claims.present.contains("documents")
                ? "has a documents claim that is neither a list of ids nor an object of id to \"write\" or \"read\""
                : "grants no documents (its documents claim is missing)"))
        }
        guard !access.isEmpty else { return .failure(.badClaim("grants no documents (its documents claim is empty)")) }
        return .success(Principal(name: name, grant: TokenGrant(expires: expiry, documents: access)))
    }
}

public enum TokenRefusal: Error, Sendable, Equatable {
    case invalid, expired, notYetValid, wrongIssuer
    /// Signed by the key, but a claim Redline needs is missing or not what it should be.
    case badClaim(String)

    public var message: String {
        switch self {
        case .invalid: "the token is not one this server's key signed"
        case .badClaim(let what): "the token " + what
        case .expired: "the token has expired"
        case .notYetValid: "the token is not valid yet (its nbf is in the future)"
        case .wrongIssuer: "the token was issued by someone this server does not trust"
        }
    }
}

/// The claims Redline reads, each decoded on its own: one of the wrong type is nil and named in `present`, so
/// that the refusal says which claim is wrong instead of failing the whole payload (jwt-kit decodes it before
/// checking the signature, and would report every such token as not signed).
struct RedlineClaims: JWTPayload {
    var sub: String?
    var exp: Date?
    var iss: String?
    var nbf: Date?
    var documents: [String: DocumentAccess]?
    /// The claims the payload has, of whatever type.
    var present: Set<String> = []

    private enum Key: String, CodingKey { case sub, exp, iss, nbf, documents }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        present = Set(container.allKeys.map(\.rawValue))
        sub = try? container.decodeIfPresent(String.self, forKey: .sub)
        iss = try? container.decodeIfPresent(String.self, forKey: .iss)
        exp = (try? container.decodeIfPresent(Double.self, forKey: .exp)).flatMap { $0 }.map(Date.init(timeIntervalSince1970:))
        nbf = (try? container.decodeIfPresent(Double.self, forKey: .nbf)).flatMap { $0 }.map(Date.init(timeIntervalSince1970:))
        documents = (try? container.decodeIfPresent(DocumentClaims.self, forKey: .documents)).flatMap { $0?.access }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encodeIfPresent(sub, forKey: .sub)
        try container.encodeIfPresent(exp?.timeIntervalSince1970, forKey: .exp)
        try container.encodeIfPresent(iss, forKey: .iss)
        try container.encodeIfPresent(nbf?.timeIntervalSince1970, forKey: .nbf)
        try container.encodeIfPresent(documents.map(DocumentClaims.init(access:)), forKey: .documents)
    }

    /// The claims are checked by `verify(_:now:)`, which says which one is wrong.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The rule for a user's name, the server's own users and an organisation's alike: it is the author annotations
/// carry, so it must be something a reader can see.
public enum CollabUserName {
    /// Why `name` cannot be a user's name, or nil when it can.
    public static func problem(_ name: String) -> String? {
        if name.trimmingCharacters(in: .whitespaces).isEmpty { return "it is empty or blank" }
        if name.utf8.count > 128 { return "it is longer than 128 bytes" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "it holds a control character" }
        return nil
    }
}

/// `{"ID": "write", "*": "read"}`; a list of ids grants write access to each. Anything else decodes to no access,
/// so that the refusal can say so.
struct DocumentClaims: Codable, Sendable {
    var access: [String: DocumentAccess]?

    init(access: [String: DocumentAccess]) { self.access = access }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let ids = try? container.decode([String].self) {
            access = Dictionary(ids.map { ($0, DocumentAccess.write) }, uniquingKeysWith: { first, _ in first })
        } else {
            access = try? container.decode([String: DocumentAccess].self)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(access)
    }
}
