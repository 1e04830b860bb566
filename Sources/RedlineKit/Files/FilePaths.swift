import Foundation
import RedlineCore

/// Paths as the file system will resolve them.
public enum FilePaths {
    /// The file a write to `path` must replace: symbolic links followed (relative ones from their own
    /// folder), so that saving onto a link updates what it points to and the link stays a link. A path that
    /// does not exist yet, or a link to one, is returned as the file to create.
    static func resolvingLinks(_ path: String) throws -> String {
        var current = absolute(path)
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0 else {
                if errno == ENOENT { return current }
                throw DocumentError.writeFailed(path: path, reason: String(cString: strerror(errno)))
            }
            guard status.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length >= 0 else { throw DocumentError.writeFailed(path: path, reason: String(cString: strerror(errno))) }
            let link = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link : (current as NSString).deletingLastPathComponent + "/" + link
            current = (current as NSString).standardizingPath
        }
        throw DocumentError.writeFailed(path: path, reason: "too many levels of symbolic links")
    }

    /// Whether two paths name the same file (after links); false when either does not exist.
    public static func sameFile(_ first: String, _ second: String) -> Bool {
        guard let a = try? resolvingLinks(first), let b = try? resolvingLinks(second) else { return false }
        return (a as NSString).standardizingPath == (b as NSString).standardizingPath
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
