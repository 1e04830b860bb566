import Foundation
import RedlineCore

/// A file read by offset, for the few places of it an update looks at (its end, its cross-reference tables): the
/// rest of it is never brought into memory.
final class SourceFile {
    let size: Int
    let identity: FileIdentity
    private let descriptor: Int32

    init?(path: String) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return nil
        }
        size = Int(status.st_size)
        identity = FileIdentity(status)
    }

    deinit { close(descriptor) }

    /// Up to `count` bytes from `offset` (fewer at the end of the file; none past it or on a read error).
    func read(_ offset: Int, _ count: Int) -> [UInt8] {
        let wanted = max(0, min(count, size - offset))
        guard offset >= 0, wanted > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: wanted)
        var done = 0
        while done < wanted {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, wanted - done, off_t(offset + done)) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            done += got
        }
        return Array(bytes.prefix(done))
    }
}

extension FileIdentity {
    /// A file's identity as `stat` gives it.
    public init(_ status: stat) {
        self.init(device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
                  modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
    }
}
