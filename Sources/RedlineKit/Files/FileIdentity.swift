import Foundation

/// Which file is at a path, and in what state: device and inode say which file, size and modification time
/// whether it was rewritten. A save renames a new file into place, so another program's copy put there since
/// differs in one of them.
public struct FileIdentity: Sendable, Equatable {
    public let device: UInt64
    public let inode: UInt64
    public let size: Int64
    /// Nanoseconds since 1970.
    public let modified: Int64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    init?(descriptor: Int32) {
        var info = stat()
        guard descriptor >= 0, fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The same file, whatever was written into it.
    func isSameFile(as other: FileIdentity) -> Bool { device == other.device && inode == other.inode }
}
