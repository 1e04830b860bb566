import Synchronization

/// Waits for work the caller may stop waiting for: a LISTEN on a PostgreSQL connection killed under it can wait
/// for ever and ignore cancellation, and the server's shutdown would wait with it.
enum Abandoning {
    /// Runs `work` until it ends or the calling task is cancelled; cancelled, it cancels the work and returns at once.
    static func run(_ work: @escaping @Sendable () async -> Void) async {
        let race = Race<Void>()
        await withTaskCancellationHandler {
            _ = try? await withCheckedThrowingContinuation { continuation in
                race.start(continuation)
                let worker = Task {
                    await work()
                    race.end(with: .success(()))
                }
                race.whenEnded { worker.cancel() }
            }
        } onCancel: {
            race.end(with: .failure(CancellationError()))
        }
    }
}

/// Resumes a continuation once, with whichever result comes first (one that comes before the continuation is kept
/// for it).
final class Race<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var result: Result<Value, any Error>?
        var onEnd: (@Sendable () -> Void)?
    }
    private let state = Mutex(State())

    func start(_ continuation: CheckedContinuation<Value, any Error>) {
        let early = state.withLock { state -> Result<Value, any Error>? in
            if state.result == nil { state.continuation = continuation }
            return state.result
        }
        if let early { continuation.resume(with: early) }
    }

    /// Runs `action` when the race ends (at once if it has).
    func whenEnded(_ action: @escaping @Sendable () -> Void) {
        let ended = state.withLock { state -> Bool in
            if state.result == nil { state.onEnd = action }
            return state.result != nil
        }
        if ended { action() }
    }

    /// Whether this result was the first.
    @discardableResult
    func end(with result: Result<Value, any Error>) -> Bool {
        let ending = state.withLock { state -> (CheckedContinuation<Value, any Error>?, (@Sendable () -> Void)?)? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.continuation = nil; state.onEnd = nil }
            return (state.continuation, state.onEnd)
        }
        guard let (continuation, onEnd) = ending else { return false }
        continuation?.resume(with: result)
        onEnd?()
        return true
    }
}
