import Foundation

/// A small tmpfs of its own, for running out of space on purpose. Mounting needs root (CI runs as root);
/// elsewhere `SmallDisk.unavailable` says why the full-disk tests are skipped, and they print it.
public final class SmallDisk: @unchecked Sendable {
    public let path: String
    private let holder: TemporaryFolder

    /// Why a disk cannot be made here, or nil when it can.
    public static let unavailable: String? = {
        guard getuid() == 0 else { return "full-disk tests need root to mount a tmpfs (CI runs them as root)" }
        do {
            _ = try SmallDisk(megabytes: 1)
            return nil
        } catch {
            return "full-disk tests skipped: \(error)"
        }
    }()

    public init(megabytes: Int) throws {
        holder = TemporaryFolder()
        path = holder.file("disk")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let result = try ProcessRunner.run("mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", path])
        guard result.status == 0 else { throw ToolFailure(tool: "mount", output: result.stderr) }
    }

    public func file(_ name: String) -> String { path + "/" + name }

    /// Bytes still free.
    public var free: Int {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return 0 }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }

    /// Fills the disk until only `leaving` bytes are free (tmpfs counts whole pages, so within a page).
    public func fill(leaving: Int) throws {
        let filler = file("filler-\(UUID().uuidString.prefix(8))")
        let amount = max(0, free - leaving)
        guard amount > 0 else { return }
        let descriptor = open(filler, O_WRONLY | O_CREAT, 0o644)
        defer { close(descriptor) }
        let chunk = [UInt8](repeating: 0x55, count: 65_536)
        var written = 0
        while written < amount {
            let count = min(chunk.count, amount - written)
            let result = chunk.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress!, count) }
            guard result > 0 else { break }
            written += result
        }
    }

    /// Removes every filler: the disk has room again.
    public func empty() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: path) where name.hasPrefix("filler-") {
            try FileManager.default.removeItem(atPath: file(name))
        }
    }

    /// Files Redline left behind that are not the ones a test made.
    public func temporaryFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.contains(".redline-") }
    }

    deinit {
        _ = try? ProcessRunner.run("umount", ["-l", path])
    }
}
