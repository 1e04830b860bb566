import Foundation
import RedlineCore

/// Writes a file so that it is either wholly there or not changed at all: into a temporary file in the
/// same folder, then renamed over the destination. A failed write leaves the destination as it was.
public enum AtomicFileWriter {
    public static func write(to destination: String, _ produce: (_ temporaryPath: String) throws -> Void) throws {
        let url = URL(fileURLWithPath: destination)
        let folder = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DocumentError.writeFailed(path: destination, reason: "the folder \(folder) does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw DocumentError.writeFailed(path: destination, reason: "the folder \(folder) is not writable")
        }
        // Renaming would replace a read-only file without complaint; its owner made it read-only on purpose.
        // Write permission alone would let root through: a file with no write bits at all is read-only for everyone.
        if let attributes = try? FileManager.default.attributesOfItem(atPath: destination),
           let permissions = (attributes[.posixPermissions] as? NSNumber)?.intValue,
           permissions & 0o222 == 0 || !FileManager.default.isWritableFile(atPath: destination) {
            throw DocumentError.writeFailed(path: destination, reason: "the file is read-only")
        }
        let temporary = folder + "/." + url.lastPathComponent + ".redline-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        defer { unlink(temporary) }
        do {
            try produce(temporary)
        } catch let error as DocumentError {
            throw error
        } catch let error as AnnotationEditError {
            throw error
        } catch {
            throw DocumentError.writeFailed(path: destination, reason: "\(error)")
        }
        // Keep the permissions of a file being replaced.
        if let attributes = try? FileManager.default.attributesOfItem(atPath: destination),
           let permissions = attributes[.posixPermissions] as? NSNumber {
            chmod(temporary, mode_t(permissions.uint16Value))
        }
        try flush(temporary, destination: destination)
        guard rename(temporary, destination) == 0 else {
            throw DocumentError.writeFailed(path: destination, reason: String(cString: strerror(errno)))
        }
    }

    /// Data to a file, atomically.
    public static func write(_ data: Data, to destination: String) throws {
        try write(to: destination) { temporary in
            guard FileManager.default.createFile(atPath: temporary, contents: data) else {
                throw DocumentError.writeFailed(path: destination, reason: "cannot create \(temporary)")
            }
        }
    }

    /// The data must be on disk before the rename makes it the file, or a crash could leave it empty.
    private static func flush(_ path: String, destination: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw DocumentError.writeFailed(path: destination, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw DocumentError.writeFailed(path: destination, reason: String(cString: strerror(errno)))
        }
    }
}
