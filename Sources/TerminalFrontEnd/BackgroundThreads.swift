import Foundation

/// The threads a session starts (renders, pages read ahead, searches, saves), counted so the session can wait
/// for them before it returns: a poppler render still running while the process exits runs into poppler's
/// global state as its destructors tear it down, and a save cut short leaves a file half written.
final class BackgroundThreads: Sendable {
    private let group = DispatchGroup()

    func start(_ body: @escaping @Sendable () -> Void) {
        group.enter()
        Thread.detachNewThread { [group] in
            defer { group.leave() }
            body()
        }
    }

    /// True when every thread ended within `seconds`.
    @discardableResult
    func waitForAll(seconds: Double) -> Bool {
        group.wait(timeout: .now() + seconds) == .success
    }
}
