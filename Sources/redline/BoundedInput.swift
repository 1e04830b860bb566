import CommandLineSupport
import Foundation

/// A file a command reads whole, which may be a pipe: read up to a bound, since a device such as /dev/zero would
/// never end. `what` names it in messages ("markup file"), `limitText` says the bound ("64 MB").
enum BoundedInput {
    static func read(_ path: String, what: String, limit: Int, limitText: String) throws -> Data {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw CommandFailure("\(path): is a folder, not a \(what)", code: ExitStatus.usage)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CommandFailure("\(path): cannot read the \(what): \(String(cString: strerror(errno)))", code: ExitStatus.usage)
        }
        defer { try? handle.close() }
        var data = Data()
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            data.append(chunk)
            guard data.count <= limit else {
                throw CommandFailure("\(path): the \(what) is larger than \(limitText)", code: ExitStatus.usage)
            }
        }
        return data
    }
}
