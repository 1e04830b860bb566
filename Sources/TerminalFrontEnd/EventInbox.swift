import Foundation

/// Where work running off the loop (a save, later the network) leaves what the loop must do next, from any
/// thread: the loop wakes on the inbox's descriptor and runs each message on its own thread, in order.
final class EventInbox: @unchecked Sendable {
    typealias Message = () -> Void
    private let lock = NSLock()
    private var messages: [Message] = []
    private var pipeEnds: [Int32] = [-1, -1]

    init() {
        if pipe(&pipeEnds) == 0 {
            for end in pipeEnds { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
            for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        }
    }

    deinit {
        for end in pipeEnds where end >= 0 { close(end) }
    }

    /// Readable while messages wait.
    var wakeDescriptor: Int32 { pipeEnds[0] }

    func post(_ message: @escaping Message) {
        lock.lock()
        messages.append(message)
        lock.unlock()
        var byte: UInt8 = 1
        _ = write(pipeEnds[1], &byte, 1)
    }

    /// Everything posted so far, oldest first; the descriptor is quiet again afterwards.
    func take() -> [Message] {
        var drained = [UInt8](repeating: 0, count: 64)
        while read(pipeEnds[0], &drained, drained.count) > 0 {}
        lock.lock()
        defer { lock.unlock() }
        let taken = messages
        messages.removeAll()
        return taken
    }
}
