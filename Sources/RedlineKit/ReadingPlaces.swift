import Foundation
import RedlineCore

/// Where each document was left, kept under `$XDG_STATE_HOME/redline/places/` (beside the crash journals, in the
/// same folder only its user may write in): one small file per document, named by a hash of the document's /ID
/// (so a copy saved from it, which keeps the /ID, opens at the same place) or, for a file without one, of its
/// path. The 1,000 documents opened last are kept.
public struct ReadingPlaces: Sendable {
    public let folder: String
    private let environment: [String: String]
    /// A place file is a few hundred bytes; anything much larger was not written by Redline.
    static let largestFile = 64 * 1024
    static let documentsKept = 1000

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
        folder = MarkupJournal.folder(environment: environment) + "/places"
    }

    /// A folder others could write in could hold a place planted to move the reader: not read, not written. Asked
    /// at each use, as the journal asks: the folder may have changed since the editor started.
    private var usable: Bool { MarkupJournal.folderProblem(environment: environment) == nil }

    /// The file a document's place is kept in.
    public func file(permanentID: String?, path: String) -> String {
        let key = permanentID.map { "id:" + $0 } ?? "path:" + FilePaths.absolute(path)
        return folder + "/" + String(StableHash.fnv1a64(key), radix: 16) + ".json"
    }

    /// The place kept for the document, or nil when there is none or it cannot be read.
    public func place(permanentID: String?, path: String) -> ReadingPlace? {
        guard usable else { return nil }
        let file = file(permanentID: permanentID, path: path)
        guard let handle = FileHandle(forReadingAtPath: file) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: Self.largestFile + 1), data.count <= Self.largestFile else { return nil }
        return try? JSONDecoder().decode(ReadingPlace.self, from: data)
    }

    /// Keeps the place, whole or not at all, readable by its owner alone; then lets the oldest go past the limit.
    public func remember(_ place: ReadingPlace, permanentID: String?, path: String) throws {
        guard usable else { return }
        if mkdir(folder, 0o700) != 0, errno != EEXIST {
            throw DocumentError.writeFailed(path: folder, reason: String(cString: strerror(errno)))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFileWriter.write(try encoder.encode(place), to: file(permanentID: permanentID, path: path), privately: true,
                                   throughLinks: false)
        forgetOldest()
    }

    /// The oldest places past `documentsKept`, by when each was last written.
    private func forgetOldest() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder), names.count > Self.documentsKept else { return }
        let dated = names.filter { $0.hasSuffix(".json") }.map { name -> (String, Date) in
            let path = folder + "/" + name
            let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? .distantPast
            return (path, modified)
        }
        for (path, _) in dated.sorted(by: { $0.1 > $1.1 }).dropFirst(Self.documentsKept) { unlink(path) }
    }
}
