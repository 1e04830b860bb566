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
    public static func application(store: any CollabStore, configuration: CollabServerConfiguration, logger: Logger,
                                   onListening: @escaping @Sendable (Int) async -> Void = { _ in }) throws
        -> some ApplicationProtocol
    {
        let services = CollabServices(store: store, hub: DocumentHub(store: store, open: configuration.open), configuration: configuration, metrics: CollabMetrics(),
                                      logger: logger)
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
        router.put("/v1/documents/:id/pdf") { request, context in
            let user = try await authenticated(request, services)
            let document = try documentID(context)
            guard try await store.join(document: document, user: user, open: configuration.open) == .write else {
                throw HTTPError(.forbidden, message: "\(user) may not change \(document)")
            }
            let body = try await request.body.collect(upTo: configuration.largestPDF)
            let bytes = Array(body.readableBytesView)
            guard bytes.starts(with: Array("%PDF-".utf8)) else {
                throw HTTPError(.badRequest, message: "the body is not a PDF (it does not start with %PDF-)")
            }
            try await store.storePDF(document: document, bytes: bytes)
            return Response(status: .noContent)
        }
        router.get("/v1/documents/:id/pdf") { request, context in
            let user = try await authenticated(request, services)
            let document = try documentID(context)
            guard try await store.access(document: document, user: user, open: configuration.open) != nil,
                  let pdf = try await store.pdf(document: document) else {
                throw HTTPError(.notFound, message: "no shared PDF for \(document) that \(user) may see")
            }
            return Response(status: .ok, headers: [.contentType: "application/pdf"],
                            body: .init(byteBuffer: ByteBuffer(bytes: pdf)))
        }
        // Every upgrade is accepted, so that a refusal reaches the client as a frame that says why (NIO's upgrader
        // could answer only a bare 400): a bad token or too many connections get one error frame and a close.
        let sockets = Router(context: BasicWebSocketRequestContext.self)
        sockets.ws(RouterPath(socketPath)) { _, _ in .upgrade([:]) } onUpgrade: { inbound, outbound, context in
            let writer = FrameWriter(outbound)
            let token = BearerTokens.token(fromAuthorization: context.request.headers[.authorization])
            guard let token, let user = try await store.user(tokenHash: BearerTokens.hash(token)) else {
                services.metrics.errors.increment()
                return await writer.close(code: "unauthorized", message: token == nil
                    ? "a bearer token is needed (Authorization: Bearer TOKEN)" : "the token is unknown or was revoked")
            }
            guard await services.hub.claimConnection(for: user, most: configuration.connectionsPerUser) else {
                services.metrics.errors.increment()
                return await writer.close(code: "too-many-connections",
                                          message: "\(user) has \(configuration.connectionsPerUser) connections open already")
            }
            await CollabConnection(user: user, services: services).run(inbound: inbound, writer: writer)
            await services.hub.releaseConnection(for: user)
        }
        router.get(RouterPath(socketPath)) { request, _ -> Response in
            let user = try await authenticated(request, services)
            if await !services.hub.hasRoom(for: user, most: configuration.connectionsPerUser) {
                throw HTTPError(.tooManyRequests, message: "\(user) has \(configuration.connectionsPerUser) connections open already")
            }
            throw HTTPError(.upgradeRequired, message: "this is a WebSocket: send the upgrade headers")
        }
        // A frame a little over the limit is read and answered with an error frame; a much larger one ends the
        // connection at the WebSocket layer (close code 1009).
        let webSocket = WebSocketServerConfiguration(maxFrameSize: configuration.largestFrame * 4,
                                                     autoPing: .enabled(timePeriod: configuration.heartbeat))
        var server = HTTPServerBuilder.http1WebSocketUpgrade(webSocketRouter: sockets, configuration: .init(ws: webSocket))
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

    private static func authenticated(_ request: Request, _ services: CollabServices) async throws -> String {
        guard let token = BearerTokens.token(fromAuthorization: request.headers[.authorization]) else {
            throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: "Bearer"], message: "a bearer token is needed (Authorization: Bearer TOKEN)")
        }
        guard let user = try await services.store.user(tokenHash: BearerTokens.hash(token)) else {
            throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: "Bearer error=\"invalid_token\""], message: "the token is unknown or was revoked")
        }
        return user
    }

    private static func documentID(_ context: BasicWebSocketRequestContext) throws -> String {
        let id = try context.parameters.require("id")
        guard CollabFrame.Client.isDocumentID(id) else { throw HTTPError(.badRequest, message: "not a document id") }
        return id
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
            await store.followCommits { [hub, metrics] announcement in
                if announcement.seq != nil { metrics.announced.increment() }
                await hub.commitAnnounced(announcement)
            }
        }
        // An embedded store's feed ends at once; the service must not, or the group would shut down.
        if !Task.isCancelled && !Task.isShuttingDownGracefully { try? await gracefulShutdown() }
    }
}
