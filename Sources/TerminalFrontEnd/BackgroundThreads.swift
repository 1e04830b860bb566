import Foundation

/// The threads a session starts (renders, pages read ahead, searches, saves), joined before the session returns:
/// a thread that has done its work still runs poppler's thread-local destructors as it ends, and the process
/// exiting meanwhile tears down poppler's globals under it (it crashed so, rarely). A save cut short would leave a
/// file half written. POSIX threads, since only they can be joined; finished ones are reaped as new ones start.
final class BackgroundThreads: @unchecked Sendable {
    private let lock = NSLock()
    private let group = DispatchGroup()
    /// Each thread started, and whether its work is done (it then ends at once, and joining it is quick).
    private var started: [(thread: pthread_t, work: Work)] = []

    private final class Work: @unchecked Sendable {
        let body: @Sendable () -> Void
        private let lock = NSLock()
        private var finished = false
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }

        var isDone: Bool {
            lock.lock()
            defer { lock.unlock() }
            return finished
        }

        func markDone() {
            lock.lock()
            finished = true
            lock.unlock()
        }
    }

    func start(_ body: @escaping @Sendable () -> Void) {
        let work = Work(body)
        group.enter()
        let context = Unmanaged.passRetained(ThreadContext(work: work, group: group)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            let context = Unmanaged<ThreadContext>.fromOpaque(raw).takeRetainedValue()
            context.work.body()
            context.work.markDone()
            context.group.leave()
            return nil
        }, context)
        guard created == 0 else {
            // No thread to be had (a process at its limit): the work is done here, late rather than never.
            Unmanaged<ThreadContext>.fromOpaque(context).release()
            body()
            group.leave()
            return
        }
        lock.lock()
        // Threads whose work is done are joined now, so a long session does not keep thousands of them.
        let (done, running) = (started.filter { $0.work.isDone }, started.filter { !$0.work.isDone })
        started = running + [(thread, work)]
        lock.unlock()
        for finished in done { pthread_join(finished.thread, nil) }
    }

    private final class ThreadContext {
        let work: Work
        let group: DispatchGroup
        init(work: Work, group: DispatchGroup) {
            self.work = work
            self.group = group
        }
    }

    /// Waits up to `seconds` for every thread's work, then joins those that finished: true when all did.
    @discardableResult
    func waitForAll(seconds: Double) -> Bool {
        let allDone = group.wait(timeout: .now() + seconds) == .success
        lock.lock()
        let threads = started
        started = threads.filter { !$0.work.isDone }
        lock.unlock()
        for finished in threads where finished.work.isDone { pthread_join(finished.thread, nil) }
        // A thread still working past the wait is left to end on its own.
        for running in threads where !running.work.isDone { pthread_detach(running.thread) }
        return allDone
    }
}
