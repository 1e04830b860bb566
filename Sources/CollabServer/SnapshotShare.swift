import RedlineCore

/// A document's whole set as read at `head`, shared by every joiner sending it.
final class SharedSnapshot: Sendable {
    let head: Int
    let annotations: [SharedAnnotation]

    init(head: Int, annotations: [SharedAnnotation]) {
        self.head = head
        self.annotations = annotations
    }
}

/// Joiners of one document that need the whole set share one read of it: those arriving while it is read wait
/// for that read, and those arriving while others still send it take the same one. Thirty new clients of a 50 MB
/// document cost one copy instead of thirty (1.6 GB), which is what a reconnect storm of fresh clients would
/// otherwise cost. Any set with its head is a consistent start: the joiner follows the log from that head, so one
/// is reused only while the log still keeps the events after it (`notBefore`).
actor SnapshotShare {
    private struct Kept {
        weak var snapshot: SharedSnapshot?
    }

    private var kept: [String: Kept] = [:]
    private var reading: [String: Task<SharedSnapshot, any Error>] = [:]
    /// Entries whose snapshot is gone are dropped when the table doubles, so that the work stays linear.
    private var pruneAt = 1024

    /// The set of `document` at a head of at least `notBefore`, read with `read` unless one in use or being read
    /// will do. The caller keeps the returned snapshot for as long as it sends it: that is what lets others share it.
    func snapshot(of document: String, notBefore: Int,
                  read: @escaping @Sendable () async throws -> (head: Int, annotations: [SharedAnnotation])) async throws -> SharedSnapshot {
        if let snapshot = kept[document]?.snapshot, snapshot.head >= notBefore { return snapshot }
        // A read begun already is at least as new as anything kept, so at least as new as `notBefore` allows.
        if let running = reading[document] { return try await running.value }
        let running = Task { () async throws -> SharedSnapshot in
            let (head, annotations) = try await read()
            return SharedSnapshot(head: head, annotations: annotations)
        }
        reading[document] = running
        defer { reading[document] = nil }
        let snapshot = try await running.value
        if kept.count >= pruneAt {
            kept = kept.filter { $0.value.snapshot != nil }
            pruneAt = max(1024, 2 * kept.count)
        }
        kept[document] = Kept(snapshot: snapshot)
        return snapshot
    }
}
