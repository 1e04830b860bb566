import Glibc

/// Writes that finish: the probe's questions, images after a frame, pixels into shared memory.
public enum DescriptorWrites {
    /// Writes every byte, going on after an interruption and waiting while a non-blocking terminal is full. False when
    /// the descriptor failed (the terminal is gone, the memory full).
    @discardableResult
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var written = 0
        while written < bytes.count {
            let result = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if result < 0 && (errno == EINTR || errno == EAGAIN) {
                if errno == EAGAIN { var wait = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0); _ = poll(&wait, 1, 100) }
                continue
            }
            guard result > 0 else { return false }
            written += result
        }
        return true
    }

    /// A new POSIX shared-memory object holding `bytes`, readable by the user alone; false (and nothing left behind)
    /// when it cannot be made or filled.
    public static func sharedMemory(named name: String, holding bytes: [UInt8]) -> Bool {
        let descriptor = shm_open(name, O_CREAT | O_RDWR | O_EXCL, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard bytes.withUnsafeBytes({ writeAll($0, to: descriptor) }) else {
            shm_unlink(name)
            return false
        }
        return true
    }
}
