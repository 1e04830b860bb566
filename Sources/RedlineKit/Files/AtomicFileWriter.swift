import Foundation
import PDFAssembly
import RedlineCore

/// Writes a file so that it is either wholly the new content or not changed at all. The bytes go into a
/// temporary file beside the destination with every `write` checked, then `fsync`, a size check and the
/// caller's own check of what landed on disk; only then is it renamed over the destination, and the folder
/// synced. Any failure (a full disk, a quota, a read-only mount) removes the temporary file, leaves the
/// destination untouched, and throws `DocumentError.writeFailed` with the system's reason.
///
/// A destination that is a symbolic link is written through: the link's target is replaced and the link
/// stays. A replaced file keeps its permissions (and, for root, its owner); a new one gets 0644 less the umask.
public enum AtomicFileWriter {
    /// `privately`: readable by its owner alone (0600), whatever it was before: a journal holds replies not sent yet.
    /// `throughLinks` false: a link at the destination is replaced by the file, its target left alone (a journal in a
    /// folder of the user's own, where a link can only be planted).
    public static func write(_ data: Data, to destination: String, privately: Bool = false, throughLinks: Bool = true,
                             verify: ((_ temporaryPath: String) throws -> Void)? = nil) throws {
        try write(WrittenDocument(bytes: data, outcome: .unchanged), to: destination, privately: privately, throughLinks: throughLinks,
                  verify: verify)
    }

    /// A document a writer made: the bytes it keeps of a file (an original an update is appended to) are copied by
    /// the file system, from the file as it was read (else nothing is written), then its own bytes.
    public static func write(_ document: WrittenDocument, to destination: String, privately: Bool = false, throughLinks: Bool = true,
                             verify: ((_ temporaryPath: String) throws -> Void)? = nil) throws {
        guard !destination.isEmpty else { throw DocumentError.writeFailed(path: destination, reason: "no file name was given") }
        let target = throughLinks ? try FilePaths.resolvingLinks(destination) : FilePaths.absolute(destination)
        let folder = (target as NSString).deletingLastPathComponent
        let existing = try checkWritable(target, folder: folder, destination: destination, replacingLinks: !throughLinks)
        TemporaryFiles.removeStale(in: folder)
        let temporary = folder + "/" + TemporaryFiles.name(for: (target as NSString).lastPathComponent)
        do {
            try writeCompletely(document, to: temporary, replacing: existing, privately: privately)
            do {
                try verify?(temporary)
            } catch DocumentError.damaged(let path, let reason) {
                // The check found the fault in the document the copy was made from: said of it, not of the copy.
                throw DocumentError.damaged(path: path, reason: reason)
            } catch {
                throw SystemError(reason: "the written copy does not read back whole: \(error)")
            }
            if let source = document.readFrom, FileIdentity(path: source.path) != source.identity {
                throw SystemError(reason: FileState.changedWhileSaving(source.path))
            }
            guard rename(temporary, target) == 0 else { throw SystemError.last("while renaming the new file into place") }
        } catch {
            unlink(temporary)
            throw failure(error, destination: destination)
        }
        syncFolder(folder)
    }

    /// What the destination is now, if anything: its mode and owner are carried over to the new file.
    private static func checkWritable(_ target: String, folder: String, destination: String, replacingLinks: Bool) throws -> stat? {
        var folderStatus = stat()
        guard stat(folder, &folderStatus) == 0, folderStatus.st_mode & S_IFMT == S_IFDIR else {
            throw DocumentError.writeFailed(path: destination, reason: "the folder \(folder) does not exist")
        }
        guard access(folder, W_OK) == 0 else {
            throw DocumentError.writeFailed(path: destination, reason: "the folder \(folder) is not writable")
        }
        var status = stat()
        guard lstat(target, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            // Renaming would replace a read-only file without complaint; its owner made it read-only on purpose.
            // Write permission alone would let root through: a file with no write bits is read-only for everyone.
            if status.st_mode & 0o222 == 0 || access(target, W_OK) != 0 {
                throw DocumentError.writeFailed(path: destination, reason: "the file is read-only")
            }
            return status
        case S_IFDIR:
            throw DocumentError.writeFailed(path: destination, reason: "it is a folder")
        case S_IFLNK where replacingLinks:
            return nil
        default:
            throw DocumentError.writeFailed(path: destination, reason: "it is not a regular file")
        }
    }

    private static func writeCompletely(_ document: WrittenDocument, to temporary: String, replacing existing: stat?, privately: Bool) throws {
        // 0644 here is narrowed by the umask, as every new file is.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, privately ? 0o600 : 0o644)
        guard descriptor >= 0 else { throw SystemError.last("while creating a file in the folder") }
        var closed = false
        defer { if !closed { close(descriptor) } }
        if let prefix = document.prefix { try copy(prefix, to: descriptor) }
        try DescriptorWriter.writeAll(document.bytes, to: descriptor)
        // The data must be on disk before the rename makes it the file, or a crash could leave it empty.
        guard fsync(descriptor) == 0 else { throw SystemError.last("while flushing to disk") }
        var written = stat()
        guard fstat(descriptor, &written) == 0, Int(written.st_size) == document.count else {
            throw SystemError(reason: "the file on disk is not the size that was written")
        }
        if privately {
            fchmod(descriptor, 0o600)
        } else if let existing {
            fchmod(descriptor, existing.st_mode & 0o7777)
            if geteuid() == 0, existing.st_uid != written.st_uid || existing.st_gid != written.st_gid {
                _ = fchown(descriptor, existing.st_uid, existing.st_gid)
            }
        }
        closed = true
        // Network file systems report some write errors only here.
        guard close(descriptor) == 0 else { throw SystemError.last("while closing the file") }
    }

    /// The kept bytes of a file, copied in the kernel (`sendfile`: no pass through memory), from the file as it was
    /// read: one changed since (rewritten, appended to) would give a copy of another document, so nothing is written.
    private static func copy(_ kept: KeptBytes, to descriptor: Int32) throws {
        let source = open(kept.path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw SystemError.last("while opening the original to copy it") }
        defer { close(source) }
        var status = stat()
        guard fstat(source, &status) == 0, FileIdentity(status) == kept.identity else {
            throw SystemError(reason: FileState.changedWhileSaving(kept.path))
        }
        var offset = off_t(0)
        while Int(offset) < kept.length {
            let sent = sendfile(descriptor, source, &offset, min(kept.length - Int(offset), 1 << 30))
            if sent < 0 {
                if errno == EINTR { continue }
                // A file system sendfile cannot copy between: through memory, a mebibyte at a time.
                if errno == EINVAL || errno == ENOSYS { return try copyThroughMemory(source, from: Int(offset), length: kept.length, to: descriptor) }
                throw SystemError.last("while writing")
            }
            guard sent > 0 else { throw SystemError(reason: "the original \(kept.path) is shorter than when it was read; save again") }
        }
    }

    private static func copyThroughMemory(_ source: Int32, from start: Int, length: Int, to descriptor: Int32) throws {
        var buffer = Data(count: 1 << 20)
        var offset = start
        while offset < length {
            let got = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress!, min($0.count, length - offset), off_t(offset)) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { throw got < 0 ? SystemError.last("while reading the original") : SystemError(reason: "the original is shorter than when it was read; save again") }
            try DescriptorWriter.writeAll(buffer.prefix(got), to: descriptor)
            offset += got
        }
    }

    /// The rename itself must reach the disk too, or a crash could bring back the old file.
    private static func syncFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    private static func failure(_ error: Error, destination: String) -> Error {
        switch error {
        case let error as DocumentError: error
        case let error as AnnotationEditError: error
        case let error as SystemError: DocumentError.writeFailed(path: destination, reason: error.reason)
        default: DocumentError.writeFailed(path: destination, reason: "\(error)")
        }
    }
}

/// A failed system call, in words.
struct SystemError: Error, CustomStringConvertible {
    let reason: String

    /// The system's words first (they are what a user acts on), then what Redline was doing.
    static func last(_ what: String) -> SystemError {
        SystemError(reason: "\(String(cString: strerror(errno))) (\(what))")
    }

    var description: String { reason }
}
