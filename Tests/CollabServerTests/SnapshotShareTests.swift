@testable import CollabServer
import RedlineCore
import Synchronization
import Testing

/// Joiners needing a document's whole set share one read of it while it is read or sent, and a set is reused only
/// while the log keeps the events after it.
@Suite struct SnapshotShareTests {
    private final class Reads: Sendable {
        let count = Mutex(0)
        func read(head: Int) -> @Sendable () async throws -> (head: Int, annotations: [SharedAnnotation]) {
            { self.count.withLock { $0 += 1 }; return (head, [SharedAnnotation(name: "a", pageIndex: 0, author: "alice", version: 1,
                                                                               deleted: false, inReplyTo: nil, element: "<text/>")]) }
        }
    }

    @Test func joinersWhileASetIsInUseShareOneRead() async throws {
        let share = SnapshotShare()
        let reads = Reads()
        let first = try await share.snapshot(of: "doc", notBefore: 0, read: reads.read(head: 7))
        let others = try await withThrowingTaskGroup(of: SharedSnapshot.self) { group in
            for _ in 0..<20 { group.addTask { try await share.snapshot(of: "doc", notBefore: 0, read: reads.read(head: 8)) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(reads.count.withLock { $0 } == 1)
        #expect(others.allSatisfy { $0 === first })
        // Another document has its own.
        let elsewhere = try await share.snapshot(of: "other", notBefore: 0, read: reads.read(head: 2))
        #expect(elsewhere !== first && reads.count.withLock { $0 } == 2)
        withExtendedLifetime(first) {}
    }

    @Test func aSetWhoseEventsTheLogNoLongerKeepsIsReadAgain() async throws {
        let share = SnapshotShare()
        let reads = Reads()
        let old = try await share.snapshot(of: "doc", notBefore: 0, read: reads.read(head: 7))
        let newer = try await share.snapshot(of: "doc", notBefore: 9, read: reads.read(head: 12))
        #expect(newer.head == 12 && reads.count.withLock { $0 } == 2)
        withExtendedLifetime(old) {}
        withExtendedLifetime(newer) {}
    }

    @Test func aSetNoOneSendsAnyMoreIsNotKept() async throws {
        let share = SnapshotShare()
        let reads = Reads()
        var first: SharedSnapshot? = try await share.snapshot(of: "doc", notBefore: 0, read: reads.read(head: 7))
        #expect(first?.head == 7)
        first = nil
        let second = try await share.snapshot(of: "doc", notBefore: 0, read: reads.read(head: 8))
        #expect(second.head == 8 && reads.count.withLock { $0 } == 2, "memory goes when the last sender lets go")
    }
}
