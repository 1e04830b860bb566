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
            claims = try await keys.verify(token, as: RedlineClaims.self)
        } catch let error as JWTError where error.errorType == .claimVerificationFailure {
            return .failure(.expired)
        } catch is DecodingError {
            // Signed by the key, but without the claims Redline needs.
            return .failure(.missingClaims)
        } catch {
            return .failure(.invalid)
        }
        guard claims.exp.value > now else { return .failure(.expired) }
        // A little leeway for the minting service's clock.
        if let nbf = claims.nbf, nbf.value > now.addingTimeInterval(Self.clockLeeway) { return .failure(.notYetValid) }
        if let issuer, claims.iss?.value != issuer { return .failure(.wrongIssuer) }
        let name = claims.sub.value
        guard !name.isEmpty, name.utf8.count <= 128,
              !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return .failure(.invalid)
        }
        return .success(Principal(name: name, grant: TokenGrant(expires: claims.exp.value, documents: claims.documents.access)))
    }
}

public enum TokenRefusal: Error, Sendable {
    case invalid, expired, notYetValid, wrongIssuer, missingClaims

    public var message: String {
        switch self {
        case .invalid: "the token is not one this server's key signed"
        case .missingClaims: "the token lacks a claim Redline needs: sub (the user), exp (its expiry) and documents"
        case .expired: "the token has expired"
        case .notYetValid: "the token is not valid yet (its nbf is in the future)"
        case .wrongIssuer: "the token was issued by someone this server does not trust"
        }
    }
}

struct RedlineClaims: JWTPayload {
    var sub: SubjectClaim
    var exp: ExpirationClaim
    var iss: IssuerClaim?
    var nbf: NotBeforeClaim?
    var documents: DocumentClaims

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}

/// `{"ID": "write", "*": "read"}`; a list of ids grants write access to each.
struct DocumentClaims: Codable, Sendable {
    var access: [String: DocumentAccess]

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let ids = try? container.decode([String].self) {
            access = Dictionary(ids.map { ($0, DocumentAccess.write) }, uniquingKeysWith: { first, _ in first })
        } else {
            access = try container.decode([String: DocumentAccess].self)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(access)
    }
}
