/// The frames that carry a run of events to a client that asked for batches (`hello` with `batches`): consecutive
/// events joined into `events` frames of about `targetBytes`. On a busy document each member would otherwise get a
/// message, a write and a wake-up per event; batched, a follower that fell a few events behind catches up in one.
enum EventBatches {
    /// Stored event frames are `{"event":EVENT,"type":"event"}` (sorted keys): EVENT is cut out, not decoded again.
    private static let eventPrefix = #"{"event":"#
    private static let eventSuffix = #","type":"event"}"#
    private static let batchPrefix = #"{"events":["#
    private static let batchSuffix = #"],"type":"events"}"#

    static func frames(_ events: some Collection<StoredEvent>, targetBytes: Int = 256 << 10) -> [String] {
        var frames: [String] = []
        var batch: [Substring] = []
        var bytes = 0
        func flush() {
            if batch.count == 1 {
                frames.append(eventPrefix + batch[0] + eventSuffix)
            } else if !batch.isEmpty {
                var frame = batchPrefix
                frame.reserveCapacity(bytes + batch.count + batchPrefix.utf8.count + batchSuffix.utf8.count)
                for (index, event) in batch.enumerated() {
                    if index > 0 { frame += "," }
                    frame += event
                }
                frame += batchSuffix
                frames.append(frame)
            }
            batch.removeAll(keepingCapacity: true)
            bytes = 0
        }
        for event in events {
            // A frame of another shape (none is written so; a hand-edited database?) goes as it is, alone.
            guard event.frame.hasPrefix(eventPrefix), event.frame.hasSuffix(eventSuffix) else {
                flush()
                frames.append(event.frame)
                continue
            }
            let inner = event.frame.dropFirst(eventPrefix.count).dropLast(eventSuffix.count)
            if !batch.isEmpty, bytes + inner.utf8.count > targetBytes { flush() }
            batch.append(inner)
            bytes += inner.utf8.count + 1
        }
        flush()
        return frames
    }
}
