import RedlineCore

/// A connection's answers, in the order of its frames. A change is answered when its transaction ends while the
/// connection reads on, so that a client may send changes without waiting for each answer (and a connection's
/// changes, too, are committed together); its acks, refusals and errors still come in the order it sent them.
final class AnswerLine: Sendable {
    enum Item: Sendable {
        case change(operation: String, name: String, document: String, ChangeAnswer)
        case refusal(operation: String, ChangeRefusal)
        /// The reader waits until everything before it is answered.
        case caughtUp(CheckedContinuation<Void, Never>)
    }

    /// Changes a connection may have unanswered: past this the reader waits, so a client cannot queue without bound.
    static let mostUnanswered = 32

    let items: AsyncStream<Item>
    private let continuation: AsyncStream<Item>.Continuation
    private let unanswered = Counter()

    init() {
        (items, continuation) = AsyncStream.makeStream()
    }

    /// Called by the connection's reader only.
    func add(_ item: Item) async {
        continuation.yield(item)
        if unanswered.increment() >= Self.mostUnanswered { await caughtUp() }
    }

    /// Returns once every item added before is answered (at once when the line has ended).
    func caughtUp() async {
        unanswered.reset()
        await withCheckedContinuation { reader in
            if case .terminated = continuation.yield(.caughtUp(reader)) { reader.resume() }
        }
    }

    func end() { continuation.finish() }

    /// The reader's count of items since it last caught up (only the reader touches it).
    private final class Counter: @unchecked Sendable {
        private var count = 0
        func increment() -> Int {
            count += 1
            return count
        }
        func reset() { count = 0 }
    }
}
