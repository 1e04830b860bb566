import Editor
import Foundation
import RedlineCore
import RedlineKit

/// One save, run off the editor's loop: every check before writing, the write through `DocumentSaver`, and
/// for `:w!` the reopening of the file written. It reports its steps as it goes and touches nothing the loop
/// uses: the document it reopens is handed back, not swapped in.
struct SaveJob: Sendable {
    let document: OpenedDocument
    let described: DocumentDescription
    let services: RedlineServices
    let bookmarkSetup: BookmarkSetup
    /// The files this session wrote, as they were just after: `:w PATH` again overwrites only these unchanged.
    let written: [String: FileIdentity]
    /// `save_strategy`: append to the original where that is right, or always rewrite.
    var saveStrategy: SaveStrategy = .append

    struct Result: @unchecked Sendable {
        let outcome: SaveOutcome
        /// For a save over the opened file: the file reopened, and its description with the bookmarks.
        var reopened: (document: OpenedDocument, described: DocumentDescription)?
    }

    func run(_ request: SaveRequest, progress: @escaping @Sendable (String) -> Void) -> Result {
        let destination = request.destination
        // Before asking whether to overwrite: a folder or a device is never a place to save.
        if let kind = try? FileManager.default.attributesOfItem(atPath: destination)[.type] as? FileAttributeType, kind != .typeRegular {
            return Result(outcome: .failed(path: destination, reason: kind == .typeDirectory ? "it is a folder" : "it is not a regular file"))
        }
        if !request.allowOverwrite, FileManager.default.fileExists(atPath: destination) {
            return Result(outcome: .destinationExists(path: destination))
        }
        if request.overwritesOnlyOwnFile, let now = FileIdentity(path: destination), now != written[destination] {
            return Result(outcome: .destinationExists(path: destination))
        }
        switch document.changeSinceOpening() {
        case .rewritten?:
            return Result(outcome: .failed(path: destination, reason: rewrittenReason(request.edits)))
        case .replaced? where FilePaths.sameFile(destination, document.path):
            // What to do first: a message line cuts the end, and a long path would take the hint with it.
            return Result(outcome: .failed(path: destination, reason: ":w or :w PATH saves a copy; :w! would destroy the new file another "
                                          + "program put at \(document.path) since it was opened"))
        default:
            break
        }
        var writeOutcome: WriteOutcome?
        do {
            let bookmarks = try bookmarkSetup.manager(for: described, path: document.path)
            if let shared = request.sharedAnnotations {
                let outcome = try SharedCopySaver(services: services).save(annotations: shared, markupNames: request.sharedMarkupNames,
                                                             markupDates: request.sharedMarkupDates,
                                                             edits: request.edits, source: document.path,
                                                             readingFrom: document.readPath, password: document.password,
                                                             description: described, bookmarks: bookmarks, to: destination,
                                                             markupAs: request.markupAs, author: request.author, progress: progress)
                return Result(outcome: .saved(path: destination, edits: request.edits, how: "\(outcome)"))
            }
            writeOutcome = try DocumentSaver(services: services).save(request.edits, source: document.path, readingFrom: document.readPath,
                                                                  password: document.password, description: described,
                                                                  bookmarks: bookmarks, to: destination, markupAs: request.markupAs,
                                                                  author: request.author, strategy: saveStrategy, progress: progress)
        } catch {
            return Result(outcome: .failed(path: destination, reason: EditorSession.reason(error, path: destination)))
        }
        let how = writeOutcome.map { "\($0)" } ?? ""
        guard request.replacesOriginal else { return Result(outcome: .saved(path: destination, edits: request.edits, how: how)) }
        do {
            progress("reopening")
            let reopened = try OpenedDocument(path: document.path, password: document.password, readingOutline: bookmarkSetup.inOutline)
            let description = EditorSession.describe(reopened, bookmarkSetup)
            return Result(outcome: .savedOverOriginal(path: destination, edits: request.edits, document: description, how: how),
                          reopened: (reopened, description))
        } catch {
            return Result(outcome: .failed(path: destination, reason: "saved, but reopening failed: \(error)"))
        }
    }

    /// The pages marked up are gone from the file: the markup is kept where a user can still use it, a markup
    /// file beside the document that `redline apply` reads.
    private func rewrittenReason(_ edits: DocumentEdits) -> String {
        let base = document.path.lowercased().hasSuffix(".pdf") ? String(document.path.dropLast(4)) : document.path
        let markupPath = base + "-markup.json"
        let problem = "another program changed \(document.path) since it was opened, so the pages you marked up are gone"
        do {
            try AtomicFileWriter.write(MarkupFile.encode(edits, document: document.path), to: markupPath)
            return problem + "; your markup is in \(markupPath) (redline apply puts it on a document)"
        } catch {
            return problem + "; your markup is kept here and in the crash journal"
        }
    }
}
