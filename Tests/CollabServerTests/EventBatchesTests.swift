@testable import CollabServer
import RedlineCore
import Testing

/// A client asking for batches gets the same events, in the same order, in fewer messages of a bounded size.
@Suite struct EventBatchesTests {
    private static func stored(_ seq: Int, xfdfBytes: Int = 40) -> StoredEvent {
        let event = CollabFrame.Event(seq: seq, op: "op-\(seq)", author: "al\"ice\u{1B}", time: "2026-11-27T10:00:00.000Z", action: .add,
                                      annotations: [], xfdf: "<xfdf>" + String(repeating: "é", count: xfdfBytes / 2) + "</xfdf>")
        return StoredEvent(seq: seq, frame: CollabFrame.Server.event(event).json)
    }

    private static func events(in frames: [String]) throws -> [CollabFrame.Event] {
        try frames.flatMap { frame -> [CollabFrame.Event] in
            switch try CollabFrame.Server.decode(frame) {
            case .event(let event): return [event]
            case .events(let events): return events
            default: Issue.record("not an event frame: \(frame.prefix(80))"); return []
            }
        }
    }

    @Test func everyEventArrivesOnceInOrderInFewerFrames() throws {
        let stored = (1...500).map { Self.stored($0) }
        let frames = EventBatches.frames(stored, targetBytes: 8 << 10)
        let sent = try Self.events(in: frames)
        #expect(sent.map(\.seq) == Array(1...500))
        #expect(sent == stored.map { event in
            guard case .event(let decoded) = try! CollabFrame.Server.decode(event.frame) else { fatalError() }
            return decoded
        })
        #expect(frames.count > 1 && frames.count < 50, "\(frames.count) frames")
        // Each frame stays near the target: at most one event beyond it.
        let largestEvent = stored.map(\.frame.utf8.count).max()!
        #expect(frames.allSatisfy { $0.utf8.count <= (8 << 10) + largestEvent + 64 })
    }

    @Test func aLoneEventOrOneLargerThanABatchTravelsAsAnEventFrame() throws {
        #expect(EventBatches.frames([Self.stored(7)]) == [Self.stored(7).frame])
        let frames = EventBatches.frames([Self.stored(1), Self.stored(2, xfdfBytes: 20_000), Self.stored(3)], targetBytes: 1_000)
        #expect(frames == [Self.stored(1), Self.stored(2, xfdfBytes: 20_000), Self.stored(3)].map(\.frame))
        #expect(EventBatches.frames([StoredEvent]()).isEmpty)
    }

    /// A stored frame of another shape is sent as it is, between the batches before and after it.
    @Test func aFrameOfAnotherShapeIsSentAloneAndInPlace() throws {
        let odd = StoredEvent(seq: 3, frame: #"{"type":"event","event":{"seq":3}}"#)
        let frames = EventBatches.frames([Self.stored(1), Self.stored(2), odd, Self.stored(4), Self.stored(5)])
        #expect(frames.count == 3 && frames[1] == odd.frame)
        #expect(try Self.events(in: [frames[0], frames[2]]).map(\.seq) == [1, 2, 4, 5])
    }
}
