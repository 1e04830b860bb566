import Foundation
import HummingbirdWSClient
import Logging
import RedlineCore

/// One connection to one shared document: `hello` sent, the server's `welcome` read, every later frame handed
/// on in order through `frames`.
public final class CollabSession: Sendable {
    public struct Welcome: Sendable, Hashable {
        public var document: String
        public var user: String
        public var access: String
        public var head: Int
        public var snapshot: Bool
    }

    public let welcome: Welcome
    /// Everything the server sends after `welcome`; ends when the connection does. The session asks for batches and
    /// hands on each event of an `events` frame as an `event` of its own.
    public let frames: AsyncStream<CollabFrame.Server>
    private let outbound: WebSocketOutboundWriter
    private let connection: Task<Void, Never>

    private init(welcome: Welcome, frames: AsyncStream<CollabFrame.Server>, outbound: WebSocketOutboundWriter,
                 connection: Task<Void, Never>) {
        self.welcome = welcome
        self.frames = frames
        self.outbound = outbound
        self.connection = connection
    }

    /// Connects, joins `document` (resuming after `since` when given) and returns once the server welcomed it.
    /// `batches`: ask for `events` frames (one per frame otherwise: a benchmark's comparison).
    /// `skippingEvents`: event frames are received and dropped undecoded (a load generator, whose decoding of every
    /// event would otherwise be what it measures).
    /// `heartbeat`: how often the server is pinged; one that answers none within the period is dropped.
    /// `presence`: ask for `presence` frames (who is in the document).
    public static func open(_ endpoint: CollabEndpoint, document: String, since: Int? = nil, batches: Bool = true, presence: Bool = false,
                            skippingEvents: Bool = false, heartbeat: Duration = .seconds(20)) async throws -> CollabSession {
        let (frames, framesOut) = AsyncStream.makeStream(of: CollabFrame.Server.self)
        let (opened, openedOut) = AsyncStream.makeStream(of: Result<(Welcome, WebSocketOutboundWriter), CollabClientError>.self)
        var logger = Logger(label: "redline.collab")
        logger.logLevel = .critical
        let configuration = WebSocketClientConfiguration(maxFrameSize: 64 << 20,
                                                         additionalHeaders: [.authorization: "Bearer \(endpoint.token)"],
                                                         autoPing: .enabled(timePeriod: heartbeat))
        let connection = Task {
            do {
                try await WebSocketClient.connect(url: endpoint.socketURL, configuration: configuration, logger: logger) { inbound, outbound, _ in
                    try await outbound.write(.text(CollabFrame.Client.hello(document: document, since: since, batches: batches, presence: presence).json))
                    var welcomed = false
                    for try await message in inbound.messages(maxSize: 64 << 20) {
                        guard case .text(let text) = message else { continue }
                        // The server writes keys sorted, and only event frames have an "event" or "events" key: it
                        // comes first.
                        if skippingEvents && welcomed
                            && (text.utf8.starts(with: #"{"event":"#.utf8) || text.utf8.starts(with: #"{"events":"#.utf8)) { continue }
                        let frame: CollabFrame.Server
                        do {
                            frame = try CollabFrame.Server.decode(text)
                        } catch {
                            openedOut.yield(.failure(.closed("the server sent what this protocol does not have: \(error)")))
                            break
                        }
                        if welcomed {
                            if case .events(let events) = frame {
                                for event in events { framesOut.yield(.event(event)) }
                            } else {
                                framesOut.yield(frame)
                            }
                            continue
                        }
                        switch frame {
                        case .welcome(let document, let user, let access, let head, let snapshot):
                            welcomed = true
                            openedOut.yield(.success((Welcome(document: document, user: user, access: access, head: head,
                                                              snapshot: snapshot), outbound)))
                        case .error(let code, let message):
                            openedOut.yield(.failure(.server(code: code, message: message)))
                        default:
                            openedOut.yield(.failure(.closed("the server answered hello with something else than welcome")))
                        }
                    }
                }
                openedOut.yield(.failure(.closed("before welcoming this client")))
            } catch {
                openedOut.yield(.failure(.refusedConnection(CollabClientError.words(for: error, url: endpoint.url))))
            }
            openedOut.finish()
            framesOut.finish()
        }
        for await result in opened {
            switch result {
            case .success(let (welcome, outbound)):
                return CollabSession(welcome: welcome, frames: frames, outbound: outbound, connection: connection)
            case .failure(let error):
                connection.cancel()
                throw error
            }
        }
        throw CollabClientError.closed("before welcoming this client")
    }

    public func send(_ frame: CollabFrame.Client) async throws {
        try await outbound.write(.text(frame.json))
    }

    /// Ends the connection with a closing handshake and waits for it to end.
    public func close() async {
        try? await outbound.close(.normalClosure, reason: nil)
        await connection.value
    }
}
