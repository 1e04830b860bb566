import Editor
import Foundation
import RedlineCore

/// The collaboration server's rules (`SharedChangeRules`, what `redline serve` decides with) over a dictionary:
/// editors in a test talk to it through their effects and events, as the runner's link would carry them.
struct MemoryCollabServer {
    private(set) var annotations: [String: SharedAnnotation] = [:]
    private(set) var log: [CollabFrame.Event] = []
    private var answered: [String: CollabFrame.Server] = [:]

    /// `welcome`, then the whole current set (a snapshot), as the server answers a `hello` without `since`.
    func join(as user: String) -> [CollabFrame.Server] {
        let live = annotations.values.filter { !$0.deleted }.sorted { $0.name < $1.name }
        return [.welcome(document: "doc", user: user, access: "write", head: log.count, snapshot: true),
                .snapshot(head: log.count, xfdf: SharedXFDF.annotations(live.map(\.element)),
                          annotations: annotations.values.sorted { $0.name < $1.name }.map(CollabFrame.Entry.init), last: true)]
    }

    /// `welcome` for a client resuming after `since`, then the events it missed.
    func resume(as user: String, since: Int) -> [CollabFrame.Server] {
        [.welcome(document: "doc", user: user, access: "write", head: log.count, snapshot: false)] + log.dropFirst(since).map { .event($0) }
    }

    /// The answer to one change frame of `user`'s, and the event everyone receives when it is applied.
    mutating func receive(_ frame: CollabFrame.Client, from user: String) -> (answer: CollabFrame.Server, event: CollabFrame.Event?) {
        guard case .change(let op, let base, let xfdf) = frame else { return (.error(code: "joined", message: "joined already"), nil) }
        if let again = answered[op] { return (again, nil) }
        let request: SharedChangeRequest
        do {
            request = try SharedChangeReader.read(xfdf, author: user)
        } catch {
            return (.refused(op: op, code: "invalid", message: "\(error)", current: nil, currentXFDF: nil), nil)
        }
        let descendants = annotations.values.filter { answers($0, request.name) }
        let facts = SharedChangeRules.Facts(current: annotations[request.name], parent: request.inReplyTo.flatMap { annotations[$0] },
                                            descendants: descendants, liveCount: annotations.values.filter { !$0.deleted }.count,
                                            mostAnnotations: 100_000)
        switch SharedChangeRules.decide(request, base: base, author: user, canWrite: true, facts: facts) {
        case .failure(let refusal):
            return (.refused(op: op, code: refusal.code, message: refusal.message, current: refusal.current.map(CollabFrame.Entry.init),
                             currentXFDF: nil), nil)
        case .success(let accepted):
            for annotation in accepted.changed { annotations[annotation.name] = annotation }
            let event = CollabFrame.Event(seq: log.count + 1, op: op, author: user, time: "2026-11-27T20:00:00Z", action: accepted.action,
                                          annotations: accepted.changed.map(CollabFrame.Entry.init), xfdf: accepted.xfdf)
            log.append(event)
            let ack = CollabFrame.Server.ack(op: op, seq: event.seq, name: request.name, version: accepted.changed[0].version)
            answered[op] = ack
            return (ack, event)
        }
    }

    private func answers(_ annotation: SharedAnnotation, _ name: String) -> Bool {
        var current = annotation.inReplyTo
        var seen: Set<String> = []
        while let parent = current, seen.insert(parent).inserted {
            if parent == name { return true }
            current = annotations[parent]?.inReplyTo
        }
        return false
    }

    var live: [SharedAnnotation] { annotations.values.filter { !$0.deleted }.sorted { $0.name < $1.name } }
}

/// Editors sharing one `MemoryCollabServer`: what each sends reaches the server when `deliver` is called, and the
/// server's answers and events reach every connected editor, as over the network.
struct SharedRoom {
    var server = MemoryCollabServer()
    var editors: [String: EditorHarness] = [:]
    var connected: Set<String> = []
    /// Frames each editor sent that have not reached the server yet.
    private var outgoing: [String: [CollabFrame.Client]] = [:]
    private var seen: [String: Int] = [:]
    /// Editors joined so far: each new one mints ids of its own.
    private var sessions: UInt64 = 0
    /// Every frame each editor sent while connected, in order.
    private(set) var sent: [String: [CollabFrame.Client]] = [:]

    /// The server's user of each editor, when it is not the editor's own key (one user in two sessions).
    private var accounts: [String: String] = [:]

    /// `as`: the user the server knows the editor as (another session of one user's), the key itself by default.
    mutating func join(_ user: String, as account: String? = nil, annotations: [Annotation] = []) {
        accounts[user] = account
        var editor = EditorHarness(columns: 120, rows: 40, annotations: annotations, reviewer: Reviewer(author: account ?? user))
        editor.seedBase = StableHash.fnv1a64(user) &+ UInt64(sessions)
        sessions += 1
        EditorReducer.startSharing(&editor.state, document: "doc")
        editor.environment.interactions.selectAnnotation.addActivationCondition(.sharedAuthorOnly)
        editor.environment.interactions.transformAnnotation.addActivationCondition(.sharedAuthorOnly)
        editor.environment.interactions.editAnnotation.addActivationCondition(.sharedAuthorOnly)
        editors[user] = editor
        connect(user)
    }

    /// The user's editor quits: a later `join` is a new session, which gets the whole set.
    mutating func leave(_ user: String) {
        editors[user] = nil
        connected.remove(user)
        seen[user] = nil
        outgoing[user] = nil
    }

    mutating func connect(_ user: String) {
        connected.insert(user)
        let account = accounts[user] ?? user
        let frames = seen[user].map { server.resume(as: account, since: $0) } ?? server.join(as: account)
        for frame in frames { receive(user, frame) }
    }

    mutating func disconnect(_ user: String) {
        connected.remove(user)
        outgoing[user] = []
        editors[user]!.send(.shared(.link(.offline(reason: "the connection ended", retryIn: 2))))
        collect(user)
    }

    /// Alice and Bob in the document, Alice's link down, and a text she placed then, at `time`.
    static func aliceOffline(placing text: String, at time: PDFDate) -> SharedRoom {
        var room = SharedRoom()
        room.join("alice")
        room.join("bob")
        room.deliver()
        room.disconnect("alice")
        room.act("alice") { editor in
            editor.time = time
            editor.placeText(text)
        }
        return room
    }

    /// The user's editor acts; what it sends is kept until `deliver`.
    mutating func act(_ user: String, _ action: (inout EditorHarness) -> Void) {
        action(&editors[user]!)
        collect(user)
    }

    /// The pause after the last change passed in the user's editor.
    mutating func pause(_ user: String) {
        editors[user]!.send(.shared(.flushDue))
        collect(user)
    }

    /// How many times each editor asked for its crash journal to be written.
    var journalWrites: [String: Int] = [:]

    private mutating func collect(_ user: String) {
        guard var editor = editors[user] else { return }
        for effect in editor.effects {
            if effect == .journalChanged { journalWrites[user, default: 0] += 1 }
            guard case .sendShared(let frames) = effect else { continue }
            sent[user, default: []] += frames
            if connected.contains(user) { outgoing[user, default: []] += frames }
        }
        editor.clearEffects()
        editors[user] = editor
    }

    private mutating func receive(_ user: String, _ frame: CollabFrame.Server) {
        if case .event(let event) = frame { seen[user] = max(seen[user] ?? 0, event.seq) }
        if case .snapshot(let head, _, _, true) = frame { seen[user] = head }
        editors[user]!.send(.shared(.frame(frame)))
        collect(user)
    }

    /// The server takes a change from `user` and sends its event to every connected editor but `missing` (whose
    /// connection is about to drop: it hears neither the answer nor the event).
    mutating func serverTakes(_ frame: CollabFrame.Client, from user: String, missing: String? = nil) {
        let (_, event) = server.receive(frame, from: user)
        guard let event else { return }
        for other in connected.sorted() where other != missing { receive(other, .event(event)) }
    }

    /// Everything sent reaches the server, and its answers and events every connected editor, until nothing moves.
    mutating func deliver() {
        // In the users' order, so that a seed replays the same session.
        while let user = outgoing.keys.sorted().first(where: { !(outgoing[$0] ?? []).isEmpty }) {
            let frame = outgoing[user]!.removeFirst()
            let (answer, event) = server.receive(frame, from: accounts[user] ?? user)
            // As the server usually does: the answer first, then the event to every member, the sender included.
            receive(user, answer)
            if let event {
                for other in connected.sorted() { receive(other, .event(event)) }
            }
        }
    }
}
