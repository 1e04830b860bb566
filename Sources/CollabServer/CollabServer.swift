import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle
import RedlineCore

/// The collaboration server: a WebSocket per client at `/v1/socket` (docs/collaboration-protocol.md), shared PDFs
/// at `/v1/documents/ID/pdf`, `/health` and `/metrics`.
/// A reason the server cannot start, in words.
public struct CollabServerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

public enum CollabServer {
    public static let socketPath = "/v1/socket"

    /// The application, ready to run as a service (SIGTERM and SIGINT close it after its connections end).
    /// `onListening` gets the port it listens on (useful with port 0).
    /// `tokens`: an organisation's key, when its JWTs are accepted beside the server's own tokens.
    public static func application(store: any CollabStore, configuration: CollabServerConfiguration, tokens: OrganisationTokens? = nil,
                                   logger: Logger, onListening: @escaping @Sendable (Int) async -> Void = { _ in }) throws
        -> some ApplicationProtocol
    {
        let store = BoundedStore(inner: store, deadline: configuration.transactionDeadline)
        let services = CollabServices(store: store, hub: DocumentHub(store: store, open: configuration.open),
                                      changes: ChangeQueue(store: store), configuration: configuration,
                                      metrics: CollabMetrics(), tokens: tokens, logger: logger)
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.get("/health") { _, _ in
            _ = try await store.position(document: "-")
            return Response(status: .ok, headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(string: "{\"status\":\"ok\"}\n")))
        }
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                     body: .init(byteBuffer: ByteBuffer(string: services.metrics.text())))
        }
        SharedPDFRoutes.add(to: router, services) { try await authenticated($0, services) }
        // Every upgrade is accepted, so that a refusal reaches the client as a frame that says why (NIO's upgrader
        // could answer only a bare 400): a bad token or too many connections get one error frame and a close.
        let sockets = Router(context: BasicWebSocketRequestContext.self)
        sockets.ws(RouterPath(socketPath)) { _, _ in .upgrade([:]) } onUpgrade: { inbound, outbound, context in
            let writer = FrameWriter(outbound)
            let principal: Principal
            switch try await authenticate(authorization: context.request.headers[.authorization], services) {
            case .success(let found): principal = found
            case .failure(let refusal):
                services.metrics.errors.increment()
                return await writer.close(code: refusal.code, message: refusal.message)
            }
            let user = principal.name
            guard await services.hub.claimConnection(for: user, most: configuration.connectionsPerUser) else {
                services.metrics.errors.increment()
                return await writer.close(code: "too-many-connections",
                                          message: "\(user) has \(configuration.connectionsPerUser) connections open already")
            }
            await CollabConnection(principal: principal, services: services).run(inbound: inbound, writer: writer)
            await services.hub.releaseConnection(for: user)
        }
        router.get(RouterPath(socketPath)) { request, _ -> Response in
            let user = try await authenticated(request, services).name
            if await !services.hub.hasRoom(for: user, most: configuration.connectionsPerUser) {
                throw HTTPError(.tooManyRequests, message: "\(user) has \(configuration.connectionsPerUser) connections open already")
            }
            throw HTTPError(.upgradeRequired, message: "this is a WebSocket: send the upgrade headers")
        }
        // A frame a little over the limit is read and answered with an error frame; a much larger one ends the
        // connection at the WebSocket layer (close code 1009).
        let webSocket = WebSocketServerConfiguration(maxFrameSize: configuration.largestFrame * 4,
                                                     autoPing: .enabled(timePeriod: configuration.heartbeat))
        // The idle timeout ends plain HTTP requests whose body stops coming (a stalled upload holding its slot);
        // upgraded WebSocket connections have their own heartbeat instead.
        let idle = configuration.idleRequest.components
        let http1 = HTTP1Channel.Configuration(idleTimeout: .nanoseconds(idle.seconds * 1_000_000_000 + idle.attoseconds / 1_000_000_000))
        var server = HTTPServerBuilder.http1WebSocketUpgrade(webSocketRouter: sockets, configuration: .init(http1: http1, ws: webSocket))
        if let tls = configuration.tls {
            let chain: [NIOSSLCertificate]
            let key: NIOSSLPrivateKey
            do { chain = try NIOSSLCertificate.fromPEMFile(tls.certificate) } catch {
                throw CollabServerError("cannot read the certificate chain \(tls.certificate) as PEM: \(error)")
            }
            do { key = try NIOSSLPrivateKey(file: tls.key, format: .pem) } catch {
                throw CollabServerError("cannot read the private key \(tls.key) as PEM: \(error)")
            }
            let settings = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) },
                                                                    privateKey: .privateKey(key))
            server = try .tls(server, tlsConfiguration: settings)
        }
        return Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "redline"),
            services: [CommitFeed(store: store, hub: services.hub, metrics: services.metrics)],
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
    }

    private static func authenticated(_ request: Request, _ services: CollabServices) async throws -> Principal {
        switch try await authenticate(authorization: request.headers[.authorization], services) {
        case .success(let principal): return principal
        case .failure(let refusal):
            let challenge = refusal.code == "unauthorized" && refusal.message.hasPrefix("a bearer") ? "Bearer" : "Bearer error=\"invalid_token\""
            throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: challenge], message: refusal.message)
        }
    }

    struct AuthenticationRefusal: Error {
        let code: String
        let message: String
    }

    /// The server's own tokens are looked up by hash; a JWT is checked against the organisation's key when one is
    /// configured.
    private static func authenticate(authorization: String?, _ services: CollabServices) async throws
        -> Result<Principal, AuthenticationRefusal>
    {
        guard let token = BearerTokens.token(fromAuthorization: authorization) else {
            return .failure(.init(code: "unauthorized", message: "a bearer token is needed (Authorization: Bearer TOKEN)"))
        }
        if let tokens = services.tokens, OrganisationTokens.looksLikeJWT(token) {
            return await tokens.verify(token).mapError { refusal in
                AuthenticationRefusal(code: refusal == .expired ? "token-expired" : "unauthorized", message: refusal.message)
            }
        }
        guard let user = try await services.store.user(tokenHash: BearerTokens.hash(token)) else {
            return .failure(.init(code: "unauthorized", message: "the token is unknown or was revoked"))
        }
        return .success(Principal(name: user, grant: nil))
    }
}

/// Brings other instances' commits to this instance's followers (a store shared by several instances announces
/// them; an embedded one has nothing to announce and this ends at once).
struct CommitFeed: Service {
    let store: any CollabStore
    let hub: DocumentHub
    let metrics: CollabMetrics

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    await store.followCommits { [hub, metrics] announcement in
                        if let presence = announcement.presence { return await hub.presenceAnnounced(presence) }
                        if announcement.seq != nil { metrics.announced.increment(by: Int64(announcement.count)) }
                        await hub.commitAnnounced(announcement)
                    }
                }
                // Who is where, said again each period for the other instances (nothing to say with an embedded store).
                group.addTask { [hub] in
                    while !Task.isCancelled {
                        try? await Task.sleep(for: PresenceAnnouncement.period)
                        await hub.announcePresenceAgain()
                    }
                }
                await group.next()
                group.cancelAll()
            }
        }
        // An embedded store's feed ends at once; the service must not, or the group would shut down.
        if !Task.isCancelled && !Task.isShuttingDownGracefully { try? await gracefulShutdown() }
    }
}
