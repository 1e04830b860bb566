import Foundation
import RedlineCore

/// When an event happened and the seed of the ids it may mint. The runner stamps every event as it takes it
/// in; tests stamp them by hand. The reducer consults no clock and no random source, so replaying the same
/// stamped events gives the same state.
public struct EventStamp: Sendable, Hashable {
    public var time: PDFDate
    public var seed: UUID
    /// Milliseconds on a clock that only goes forward: what tells a double click from two clicks.
    public var milliseconds: Int64

    public init(time: PDFDate, seed: UUID, milliseconds: Int64 = 0) {
        self.time = time
        self.seed = seed
        self.milliseconds = milliseconds
    }
}

/// The stamp of the event being reduced, and how many ids were minted from it.
struct EventClock: Sendable {
    let stamp: EventStamp
    private let seedHash: UInt64
    private var minted = 0

    init(stamp: EventStamp) {
        self.stamp = stamp
        seedHash = StableHash.fnv1a64(stamp.seed.uuidString)
    }

    mutating func mint() -> UUID {
        minted += 1
        return StableUUID.derived(seed: seedHash, item: "id \(minted)")
    }
}
