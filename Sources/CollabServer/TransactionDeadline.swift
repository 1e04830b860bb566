import Synchronization

/// A call to the database that has not ended by its deadline is given up on. A database connection that dies in
/// the middle of a query can leave the driver waiting for an answer that never comes; without a deadline the
/// document's queue would wait behind it for ever, and so would every later change to the document and the
/// server's shutdown. Giving up is safe: the client is told `unavailable` and resends with the same operation id,
/// which is applied once whether or not the abandoned transaction committed after all.
public struct TransactionDeadlinePassed: Error, CustomStringConvertible {
    public let limit: Duration
    public var description: String { "the database did not answer within \(limit)" }
}

/// Runs calls under one deadline. One watch looks at every call in flight a few times per deadline, rather than a
/// timer for each call: timers cost a tenth of the server's throughput on a busy document.
final class TransactionDeadline: Sendable {
    let limit: Duration
    private let inFlight = Mutex<(next: UInt64, calls: [UInt64: (due: ContinuousClock.Instant, giveUp: @Sendable () -> Void)])>((0, [:]))
    private let watching = Mutex<Task<Void, Never>?>(nil)

    init(limit: Duration) { self.limit = limit }

    deinit { watching.withLock { $0?.cancel() } }

    /// The work's result, or `TransactionDeadlinePassed` once `limit` has passed (give or take a quarter of it),
    /// whichever comes first.
    func run<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        startWatching()
        let race = Race<Value>()
        let limit = self.limit
        return try await withCheckedThrowingContinuation { continuation in
            race.start(continuation)
            // Registered before the work starts, so that a deadline passed at any moment after finds it. The work is
            // left to end when it may, not cancelled: postgres-nio stops with a fatal error when a row stream whose
            // reader was cancelled meets the end of its killed connection.
            let giveUp: @Sendable () -> Void = { race.end(with: .failure(TransactionDeadlinePassed(limit: limit))) }
            let due = ContinuousClock.now + limit
            let id = inFlight.withLock { state -> UInt64 in
                state.next += 1
                state.calls[state.next] = (due, giveUp)
                return state.next
            }
            Task {
                do { race.end(with: .success(try await work())) } catch { race.end(with: .failure(error)) }
            }
            race.whenEnded { [weak self] in self?.inFlight.withLock { _ = $0.calls.removeValue(forKey: id) } }
        }
    }

    private func startWatching() {
        watching.withLock { task in
            guard task == nil else { return }
            let period = limit / 4
            task = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: period)
                    guard let self else { return }
                    self.giveUpOverdue(now: .now)
                }
            }
        }
    }

    /// Fails every call in flight whose deadline is at or before `now` (the watch passes the clock's time).
    func giveUpOverdue(now: ContinuousClock.Instant) {
        let due = inFlight.withLock { state -> [@Sendable () -> Void] in
            let expired = state.calls.filter { $0.value.due <= now }
            for id in expired.keys { state.calls[id] = nil }
            return expired.values.map(\.giveUp)
        }
        for giveUp in due { giveUp() }
    }
}
