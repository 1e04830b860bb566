import Foundation

/// Which connections follow which document on this instance, and how many each user has open. A commit pokes the
/// followers of its document; each then reads the log from where it stopped, so the log (not the poke) decides
/// what a client receives, in order and without gaps, on one instance or many.
actor DocumentHub {
    private let store: any CollabStore
    private let open: Bool
    private var followers: [String: [UUID: AsyncStream<Void>.Continuation]] = [:]
    private var feeds: [String: DocumentFeed] = [:]
    private var connections: [String: Int] = [:]
    /// This instance, in its presence announcements.
    private let instance = UUID().uuidString
    /// Who other instances said is in each document, by instance, and when they said it.
    private var elsewhere: [String: [String: (users: [String], at: ContinuousClock.Instant)]] = [:]
    /// When this instance committed recent events, for the broadcast latency.
    private var commits: [String: [Int: ContinuousClock.Instant]] = [:]

    init(store: any CollabStore, open: Bool) {
        self.store = store
        self.open = open
    }

    /// Pokes for the follower, and the document's feed it reads from.
    func follow(_ document: String, id: UUID, user: String) async -> (pokes: AsyncStream<Void>, feed: DocumentFeed) {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        followers[document, default: [:]][id] = continuation
        let feed = feeds[document] ?? DocumentFeed(document: document, store: store, open: open) { [weak self] document, seqs in
            await self?.commitInstants(document, seqs: seqs) ?? [:]
        }
        feeds[document] = feed
        await feed.add(user: user)
        presenceChanged(document)
        return (stream, feed)
    }

    func unfollow(_ document: String, id: UUID, user: String) async {
        followers[document]?[id]?.finish()
        followers[document]?[id] = nil
        await feeds[document]?.remove(user: user)
        if followers[document]?.isEmpty == true {
            followers[document] = nil
            commits[document] = nil
            feeds[document] = nil
        } else {
            presenceChanged(document)
        }
    }

    /// Someone joined or left: the document's followers look again (and tell clients that asked), and so do the
    /// other instances'.
    private func presenceChanged(_ document: String) {
        poke(document)
        let feed = feeds[document]
        Task { [store, instance] in
            await store.announcePresence(PresenceAnnouncement(instance: instance, document: document, users: await feed?.present ?? []))
        }
    }

    /// Who is in the document: on this instance, and on the others that said so lately.
    func presence(_ document: String) async -> [String] {
        var users = Set(await feeds[document]?.present ?? [])
        let fresh = ContinuousClock.now - PresenceAnnouncement.period * 3
        for (_, said) in elsewhere[document] ?? [:] where said.at > fresh { users.formUnion(said.users) }
        return users.sorted()
    }

    /// Another instance said who is in a document there.
    func presenceAnnounced(_ presence: PresenceAnnouncement) {
        guard presence.instance != instance else { return }
        if presence.users.isEmpty {
            elsewhere[presence.document]?[presence.instance] = nil
        } else {
            elsewhere[presence.document, default: [:]][presence.instance] = (presence.users, .now)
        }
        poke(presence.document)
    }

    /// Every period: who is in each document here, again, so that the others keep it (and forget a dead instance's).
    func announcePresenceAgain() async {
        for (document, feed) in feeds {
            await store.announcePresence(PresenceAnnouncement(instance: instance, document: document, users: await feed.present))
        }
        let stale = ContinuousClock.now - PresenceAnnouncement.period * 3
        for document in elsewhere.keys {
            let before = elsewhere[document]?.count ?? 0
            elsewhere[document] = elsewhere[document]?.filter { $0.value.at > stale }
            if elsewhere[document]?.count != before { poke(document) }
            if elsewhere[document]?.isEmpty == true { elsewhere[document] = nil }
        }
    }

    func poke(_ document: String, committed seq: Int? = nil, at instant: ContinuousClock.Instant? = nil) {
        if let seq, let instant {
            // Changed where it is kept: a copy taken out and put back was copied whole (4,096 entries) per commit.
            commits[document, default: [:]][seq] = instant
            if commits[document]!.count > 4096 { commits[document] = commits[document]!.filter { $0.key > seq - 1024 } }
        }
        for continuation in followers[document, default: [:]].values { continuation.yield() }
    }

    /// A commit somewhere: the followers read the log again. This instance's own commits poked them already.
    func commitAnnounced(_ announcement: CommitAnnouncement) {
        guard let seq = announcement.seq else {
            for document in followers.values { for continuation in document.values { continuation.yield() } }
            return
        }
        if commits[announcement.document]?[seq] == nil { poke(announcement.document) }
    }

    func commitInstant(_ document: String, seq: Int) -> ContinuousClock.Instant? { commits[document]?[seq] }

    func commitInstants(_ document: String, seqs: [Int]) -> [Int: ContinuousClock.Instant] {
        guard let recent = commits[document] else { return [:] }
        var found: [Int: ContinuousClock.Instant] = [:]
        for seq in seqs { if let instant = recent[seq] { found[seq] = instant } }
        return found
    }

    func claimConnection(for user: String, most: Int) -> Bool {
        let open = connections[user, default: 0]
        guard open < most else { return false }
        connections[user] = open + 1
        return true
    }

    func hasRoom(for user: String, most: Int) -> Bool { connections[user, default: 0] < most }

    func releaseConnection(for user: String) {
        connections[user, default: 1] -= 1
        if connections[user] == 0 { connections[user] = nil }
    }
}
