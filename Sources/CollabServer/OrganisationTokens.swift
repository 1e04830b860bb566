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
        guard let expiry = claims.exp?.value else { return .failure(.badClaim("has no exp (its expiry)")) }
        guard expiry > now else { return .failure(.expired) }
        // A little leeway for the minting service's clock.
        if let nbf = claims.nbf, nbf.value > now.addingTimeInterval(Self.clockLeeway) { return .failure(.notYetValid) }
        if let issuer, claims.iss?.value != issuer { return .failure(.wrongIssuer) }
        guard let name = claims.sub?.value, !name.isEmpty else { return .failure(.badClaim("names no user (its sub is missing or empty)")) }
        guard name.utf8.count <= 128, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return .failure(.badClaim("has a sub that is not a user name (at most 128 bytes, no control characters)"))
        }
        guard let documents = claims.documents else { return .failure(.badClaim("grants no documents (its documents claim is missing)")) }
        guard let access = documents.access else {
            return .failure(.badClaim("has a documents claim that is neither a list of ids nor an object of id to \"write\" or \"read\""))
        }
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

struct RedlineClaims: JWTPayload {
    var sub: SubjectClaim?
    var exp: ExpirationClaim?
    var iss: IssuerClaim?
    var nbf: NotBeforeClaim?
    var documents: DocumentClaims?

    /// The claims are checked by `verify(_:now:)`, which says which one is wrong.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// `{"ID": "write", "*": "read"}`; a list of ids grants write access to each. Anything else decodes to no access,
/// so that the refusal can say so.
struct DocumentClaims: Codable, Sendable {
    var access: [String: DocumentAccess]?

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
