import Foundation
import HummingbirdWebSocket
import Logging
import NIOCore
import RedlineCore
import ServiceLifecycle

/// What every connection of a server shares.
struct CollabServices: Sendable {
    let store: any CollabStore
    let hub: DocumentHub
    let changes: ChangeQueue
    let snapshots = SnapshotShare()
    let configuration: CollabServerConfiguration
    let metrics: CollabMetrics
    let tokens: OrganisationTokens?
    let logger: Logger
}

/// Writes one connection's frames one at a time: answers from the reading task, events from the following one.
actor FrameWriter {
    private let outbound: WebSocketOutboundWriter
    private(set) var closed = false

    init(_ outbound: WebSocketOutboundWriter) { self.outbound = outbound }

    func send(_ frame: CollabFrame.Server) async throws {
        try await send(encoded: frame.json)
    }

    /// A frame already encoded (log events are encoded once, for every recipient).
    func send(encoded text: String) async throws {
        guard !closed else { return }
        try await outbound.write(.text(text))
    }

    /// Frames already encoded, in order, for one visit to the writer.
    func send(encoded texts: [String]) async throws {
        for text in texts {
            guard !closed else { return }
            try await outbound.write(.text(text))
        }
    }

    /// Closes the connection with close code 1009, as the WebSocket layer does for a frame over its limit.
    func closeTooBig(reason: String) async {
        guard !closed else { return }
        closed = true
        try? await outbound.close(.messageTooLarge, reason: reason)
    }

    /// Sends a last error frame and closes the connection.
    func close(code: String, message: String) async {
        guard !closed else { return }
        try? await outbound.write(.text(CollabFrame.Server.error(code: code, message: message).json))
        closed = true
        try? await outbound.close(.policyViolation, reason: String(code.prefix(100)))
    }
}

/// One client's connection: its frames read, checked, applied and answered; its document's log followed.
struct CollabConnection {
    let principal: Principal
    let services: CollabServices

    private var user: String { principal.name }

    private var store: any CollabStore { services.store }
    private var configuration: CollabServerConfiguration { services.configuration }

    func run(inbound: WebSocketInboundStream, writer: FrameWriter) async {
        services.metrics.connections.increment()
        defer { services.metrics.connections.decrement() }
        // SIGTERM: every client is told and the connection closed, so the server can end; clients resume elsewhere.
        await withGracefulShutdownHandler {
            await serve(inbound: inbound, writer: writer)
        } onGracefulShutdown: {
            Task { await writer.close(code: "shutting-down", message: "the server is shutting down: reconnect and resume") }
        }
    }

    private func serve(inbound: WebSocketInboundStream, writer: FrameWriter) async {
        await withTaskGroup(of: Void.self) { group in
            let answers = AnswerLine()
            group.addTask { await answer(answers.items, writer) }
            var state = ReadingState(bucket: TokenBucket(rate: configuration.changesPerSecond, burst: configuration.changeBurst),
                                     answers: answers)
            do {
                var frames = inbound.makeAsyncIterator()
                var message: [UInt8] = []
                var oversized = false
                // A message in fragments is measured whole: past the WebSocket layer's own limit for one frame it
                // ends the connection the same way (1009), not with an error frame once it has all been read.
                var messageBytes = 0
                reading: while let frame = try await frames.next() {
                    switch frame.opcode {
                    case .text, .binary, .continuation:
                        if frame.opcode != .continuation {
                            message.removeAll(keepingCapacity: true)
                            oversized = false
                            messageBytes = 0
                        }
                        messageBytes += frame.data.readableBytes
                        if messageBytes > configuration.largestFrame * 4 {
                            services.metrics.errors.increment()
                            await writer.closeTooBig(reason: "a message holds at most \(configuration.largestFrame) bytes")
                            break reading
                        }
                        if !oversized {
                            if message.count + frame.data.readableBytes > configuration.largestFrame {
                                oversized = true
                                message = []
                            } else {
                                message += frame.data.readableBytesView
                            }
                        }
                        guard frame.fin else { continue }
                        if oversized {
                            try await violation(&state, writer, code: "too-large",
                                                message: "a frame holds at most \(configuration.largestFrame) bytes")
                        } else if frame.opcode == .binary || (frame.opcode == .continuation && state.binary) {
                            try await violation(&state, writer, code: "malformed", message: "frames are JSON text, not binary")
                        } else {
                            try await handle(String(decoding: message, as: UTF8.self), &state, writer, &group)
                        }
                        message.removeAll(keepingCapacity: true)
                    default:
                        continue
                    }
                    if frame.opcode != .continuation { state.binary = frame.opcode == .binary }
                    if await writer.closed { break }
                }
            } catch {
                services.logger.debug("connection of \(user) ended: \(error)")
            }
            answers.end()
            group.cancelAll()
        }
    }

    struct ReadingState {
        var document: String?
        var access: DocumentAccess?
        var strikes = 0
        var bucket: TokenBucket
        let answers: AnswerLine
        var binary = false
    }

    private func violation(_ state: inout ReadingState, _ writer: FrameWriter, code: String, message: String) async throws {
        // An error answers the frame that caused it: the changes sent before it are answered first.
        await state.answers.caughtUp()
        services.metrics.errors.increment()
        state.strikes += 1
        if state.strikes >= configuration.strikes {
            await writer.close(code: code, message: message + "; closed after \(state.strikes) such frames")
        } else {
            try await writer.send(.error(code: code, message: message))
        }
    }

    private func handle(_ text: String, _ state: inout ReadingState, _ writer: FrameWriter,
                        _ group: inout TaskGroup<Void>) async throws {
        let frame: CollabFrame.Client
        do {
            frame = try CollabFrame.Client.decode(text)
        } catch {
            return try await violation(&state, writer, code: error.code, message: error.message)
        }
        switch frame {
        case .hello(let document, let since, let batches, let presence):
            await state.answers.caughtUp()
            guard state.document == nil else {
                return try await violation(&state, writer, code: "joined", message: "this connection has joined \(state.document!) already")
            }
            // The membership, the log's extent and, without `since` in the log, the whole set: sent before the
            // connection reads another frame, so that the welcome's head is the set's and no answer to the client's
            // changes comes before the set it applies them to.
            let follower = LogFollower(principal: principal, document: document, services: services, writer: writer,
                                       batches: batches, presence: presence)
            let access: DocumentAccess
            let position: LogPosition
            var set: SharedSnapshot?
            do {
                let granted: DocumentAccess?
                if let grant = principal.grant {
                    // The token is the membership: the document is made if need be, with no member rows.
                    granted = grant.access(to: document)
                    if granted != nil { try await store.ensureDocument(document, owner: user) }
                } else {
                    granted = try await store.join(document: document, user: user, open: configuration.open)
                }
                guard let granted else {
                    services.metrics.errors.increment()
                    return await writer.close(code: "forbidden", message: "\(user) is not a member of \(document)")
                }
                access = granted
                state.document = document
                state.access = access
                position = try await store.position(document: document)
                if !(since.map { $0 >= position.firstKept - 1 && $0 <= position.head } ?? false) {
                    let store = self.store
                    set = try await services.snapshots.snapshot(of: document, notBefore: position.firstKept - 1) {
                        try await store.snapshot(document: document)
                    }
                }
            } catch let error as CancellationError {
                throw error
            } catch {
                return await unavailable(joining: document, error, writer)
            }
            let start: Int
            if let set {
                try await writer.send(.welcome(document: document, user: user, access: access.rawValue, head: set.head, snapshot: true))
                // Held while sent, so that joiners meanwhile share it.
                defer { withExtendedLifetime(set) {} }
                try await follower.sendSnapshot(head: set.head, annotations: set.annotations)
                start = set.head
            } else {
                try await writer.send(.welcome(document: document, user: user, access: access.rawValue, head: position.head,
                                               snapshot: false))
                start = since ?? position.head
            }
            group.addTask { await follower.run(since: start) }
        case .change(let operation, let base, let xfdf):
            guard let document = state.document else {
                return try await violation(&state, writer, code: "hello-first", message: "send hello with a document before changes")
            }
            guard state.bucket.take(now: .now) else {
                return try await violation(&state, writer, code: "too-fast",
                                           message: "at most \(Int(configuration.changesPerSecond)) changes a second")
            }
            await change(operation: operation, base: base, xfdf: xfdf, document: document, writer, state.answers)
        }
    }

    /// The database failed a hello: the client is told, and reconnects.
    private func unavailable(joining document: String, _ error: any Error, _ writer: FrameWriter) async {
        services.logger.warning("\(user) could not join \(document): \(error)")
        await writer.close(code: "unavailable", message: "the server could not read the document: reconnect and resume")
    }

    /// Queues the change for its document's next transaction and goes on reading; `answer` sends the outcome.
    private func change(operation: String, base: Int?, xfdf: String, document: String, _ writer: FrameWriter,
                        _ answers: AnswerLine) async {
        let request: SharedChangeRequest
        do {
            request = try SharedChangeReader.read(xfdf, author: user)
        } catch {
            return await answers.add(.refusal(operation: operation, .invalid("\(error)")))
        }
        if principal.grant?.expired() == true {
            await answers.caughtUp()
            return await writer.close(code: "token-expired", message: "the token has expired: connect with a new one")
        }
        // Access is read in the transaction that writes the change: a grant taken away since hello applies.
        let change = PendingChange(operation: operation, author: user, base: base, request: request, time: CollabClock.now(),
                                   mostAnnotations: configuration.mostAnnotations,
                                   rule: principal.rule(for: document, open: configuration.open))
        let pending = await services.changes.enqueue(change, to: document)
        await answers.add(.change(operation: operation, name: request.name, document: document, pending))
    }

    /// Sends the connection's answers in the order of its frames, each change's once its transaction ends.
    private func answer(_ items: AsyncStream<AnswerLine.Item>, _ writer: FrameWriter) async {
        for await item in items {
            switch item {
            case .caughtUp(let reader):
                reader.resume()
            case .refusal(let operation, let refusal):
                try? await refuse(refusal, operation, writer)
            case .change(let operation, let name, let document, let pending):
                do {
                    try await answer(pending.outcome(), operation: operation, name: name, document: document, writer)
                } catch is CancellationError {
                    // The connection ended first; the change is committed or not, and the client resends it.
                    services.logger.debug("a change of \(user) to \(document) left unanswered: the connection ended")
                } catch {
                    // The database failed the change: the client resends it (same operation id) on another connection.
                    services.logger.warning("a change of \(user) to \(document) failed: \(error)")
                    await writer.close(code: "unavailable", message: "the server could not store the change: reconnect and send it again")
                }
            }
        }
    }

    private func answer(_ outcome: StoredChangeOutcome, operation: String, name: String, document: String,
                        _ writer: FrameWriter) async throws {
        switch outcome {
        case .accepted(let event):
            services.metrics.accepted.increment()
            await services.hub.poke(document, committed: event.seq, at: .now)
            let first = event.annotations.first
            try await writer.send(.ack(op: operation, seq: event.seq, name: first?.name ?? name, version: first?.version ?? 0))
            if event.seq % configuration.pruneEvery == 0 { try await store.prune(document: document, keep: configuration.keptEvents) }
        case .duplicate(let seq, let name, let version):
            try await writer.send(.ack(op: operation, seq: seq, name: name, version: version))
        case .refused(let refusal):
            try await refuse(refusal, operation, writer)
        case .noAccess:
            await writer.close(code: "access-revoked", message: "\(user) may no longer see \(document)")
        }
    }

    private func refuse(_ refusal: ChangeRefusal, _ operation: String, _ writer: FrameWriter) async throws {
        services.metrics.refused.increment()
        let current = refusal.current
        try await writer.send(.refused(op: operation, code: refusal.code, message: refusal.message,
                                       current: current.map(CollabFrame.Entry.init),
                                       currentXFDF: current.map { SharedXFDF.annotations([$0.element]) }))
    }
}

/// Sends a connection its document's log: the whole set first when the client has none or is too far behind,
/// then every event after what it has, in order, each checked against the client's access when it is sent.
struct LogFollower {
    let principal: Principal
    let document: String
    let services: CollabServices
    let writer: FrameWriter
    /// The client takes `events` frames.
    let batches: Bool
    /// The client takes `presence` frames.
    let presence: Bool
    private static let page = 256
    private static let snapshotPart = 512 << 10

    private var user: String { principal.name }

    func run(since: Int?) async {
        let id = UUID()
        let (pokes, feed) = await services.hub.follow(document, id: id, user: user)
        let ticker = Task { [hub = services.hub, period = services.configuration.accessCheck, expires = principal.grant?.expires] in
            while !Task.isCancelled {
                // An organisation's token is looked at again the moment it expires.
                let untilExpiry = expires.map { Duration.milliseconds(max(0, Int($0.timeIntervalSinceNow * 1000)) + 1) }
                try? await Task.sleep(for: min(period, untilExpiry ?? period))
                await hub.poke(document)
            }
        }
        defer { ticker.cancel() }
        do {
            var cursor = since
            var presenceSent: [String]?
            for await _ in pokes {
                let view = try await feed.refreshed()
                if principal.grant?.expired() == true {
                    await writer.close(code: "token-expired", message: "the token has expired: connect with a new one")
                    break
                }
                let reached: Int?
                if principal.grant.map({ $0.access(to: document) == nil }) ?? (view.access[user] == nil) {
                    reached = nil
                } else if let seen = cursor, seen >= view.firstKept - 1, seen >= view.head {
                    reached = seen
                } else if let seen = cursor, seen >= view.firstKept - 1, let first = view.window.first, first.seq <= seen + 1 {
                    // The window is contiguous: what follows `seen` starts at a known place.
                    try await send(view.window[min(seen + 1 - first.seq, view.window.count)...], fromFeed: true)
                    reached = view.head
                } else {
                    // No set yet, or further behind than the feed keeps: from the store, paged.
                    reached = try await catchUp(from: cursor)
                }
                guard let reached else {
                    await writer.close(code: "access-revoked", message: "\(user) may no longer see \(document)")
                    break
                }
                cursor = reached
                if presence {
                    let now = await services.hub.presence(document)
                    if now != presenceSent {
                        presenceSent = now
                        try await writer.send(.presence(users: now))
                    }
                }
                if await writer.closed { break }
            }
        } catch {
            services.logger.debug("following \(document) for \(user) ended: \(error)")
            // A client left connected with nothing following its document would wait for events forever (a snapshot
            // cut off by a lost database connection): it is told, and reconnects with `since`.
            if !Task.isCancelled {
                await writer.close(code: "unavailable", message: "the server could not read the document's log: reconnect and resume")
            }
        }
        await services.hub.unfollow(document, id: id, user: user)
    }

    /// Everything after `cursor` (nil: the whole set first), returning where the client now is; nil when the user
    /// may no longer see the document. Access, the log's extent and the events are read in one transaction.
    private func catchUp(from cursor: Int?) async throws -> Int? {
        var seen = cursor
        while true {
            let read = try await services.store.read(document: document, user: user,
                                                     rule: principal.rule(for: document, open: services.configuration.open),
                                                     after: seen ?? Int.max, limit: Self.page)
            guard case .events(let firstKept, let events) = read else { return nil }
            guard let known = seen, known >= firstKept - 1, events.first.map({ $0.seq == known + 1 }) ?? true else {
                // No set yet, or the log was trimmed past this client: the whole set, then the events after it.
                seen = try await sendSnapshot(notBefore: firstKept - 1)
                continue
            }
            try await send(events[...], fromFeed: false)
            let reached = events.last?.seq ?? known
            if events.count < Self.page { return reached }
            seen = reached
        }
    }

    /// `fromFeed`: the feed gave each event its commit instant already (none: committed by another instance).
    private func send(_ events: ArraySlice<StoredEvent>, fromFeed: Bool) async throws {
        if batches {
            try await writer.send(encoded: EventBatches.frames(events))
        } else {
            try await writer.send(encoded: events.map(\.frame))
        }
        for event in events {
            services.metrics.delivered.increment()
            let committed = fromFeed ? event.committed : await services.hub.commitInstant(document, seq: event.seq)
            if let committed { services.metrics.delivery.record(ContinuousClock.now - committed) }
        }
    }

    private func sendSnapshot(notBefore: Int) async throws -> Int {
        let store = services.store, document = self.document
        let set = try await services.snapshots.snapshot(of: document, notBefore: notBefore) { try await store.snapshot(document: document) }
        defer { withExtendedLifetime(set) {} }
        try await sendSnapshot(head: set.head, annotations: set.annotations)
        return set.head
    }

    /// The whole set, in parts of about `snapshotPart` bytes.
    func sendSnapshot(head: Int, annotations: [SharedAnnotation]) async throws {
        var part: [SharedAnnotation] = []
        var bytes = 0
        func flush(last: Bool) async throws {
            try await writer.send(.snapshot(head: head, xfdf: SharedXFDF.annotations(part.filter { !$0.deleted }.map(\.element)),
                                            annotations: part.map(CollabFrame.Entry.init), last: last))
            part.removeAll(keepingCapacity: true)
            bytes = 0
        }
        for annotation in annotations {
            if bytes + annotation.element.utf8.count + 160 > Self.snapshotPart, !part.isEmpty { try await flush(last: false) }
            part.append(annotation)
            bytes += (annotation.deleted ? 0 : annotation.element.utf8.count) + 160
        }
        try await flush(last: true)
    }
}

/// At most `rate` a second on average, `burst` at once.
struct TokenBucket {
    let rate: Double
    let burst: Double
    private var tokens: Double
    private var last: ContinuousClock.Instant?

    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = burst
        tokens = burst
    }

    mutating func take(now: ContinuousClock.Instant) -> Bool {
        if let last {
            let elapsed = now - last
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            tokens = min(burst, tokens + seconds * rate)
        }
        last = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
