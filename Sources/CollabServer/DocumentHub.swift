import Foundation

/// Which connections follow which document on this instance, and how many each user has open. A commit pokes the
/// followers of its document; each then reads the log from where it stopped, so the log (not the poke) decides
/// what a client receives, in order and without gaps, on one instance or many.
actor DocumentHub {
    private var followers: [String: [UUID: AsyncStream<Void>.Continuation]] = [:]
    private var connections: [String: Int] = [:]
    /// When this instance committed recent events, for the broadcast latency.
    private var commits: [String: [Int: ContinuousClock.Instant]] = [:]

    func follow(_ document: String, id: UUID) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        followers[document, default: [:]][id] = continuation
        continuation.yield()
        return stream
    }

    func unfollow(_ document: String, id: UUID) {
        followers[document]?[id]?.finish()
        followers[document]?[id] = nil
        if followers[document]?.isEmpty == true {
            followers[document] = nil
            commits[document] = nil
        }
    }

    func poke(_ document: String, committed seq: Int? = nil, at instant: ContinuousClock.Instant? = nil) {
        if let seq, let instant {
            var recent = commits[document, default: [:]]
            recent[seq] = instant
            if recent.count > 4096 { recent = recent.filter { $0.key > seq - 1024 } }
            commits[document] = recent
        }
        for continuation in followers[document, default: [:]].values { continuation.yield() }
    }

    func commitInstant(_ document: String, seq: Int) -> ContinuousClock.Instant? { commits[document]?[seq] }

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
