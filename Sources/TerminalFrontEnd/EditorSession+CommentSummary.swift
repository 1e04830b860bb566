import Editor
import Foundation
import RedlineKit

extension EditorSession {
    /// Writes the summary `S` asked for, whole or not at all, and says what was written; when nothing could be, the
    /// prompt comes back with the name, to be corrected rather than typed again (or read as keys of the list).
    static func writeSummary(_ request: CommentSummaryRequest, documentPath: String) -> EditorEvent {
        // A bare name goes beside the document, as the name offered does.
        let folder = (documentPath as NSString).deletingLastPathComponent
        let path = request.path.hasPrefix("/") || request.path.hasPrefix("~") || folder.isEmpty
            ? (request.path as NSString).expandingTildeInPath : folder + "/" + request.path
        let threads = CommentSummary.threads(of: request.annotations, filter: request.filter)
        let text = CommentSummary.render(threads, as: request.format, heading: .init(documentName: request.documentName, filter: request.filter))
        do {
            try AtomicFileWriter.write(Data(text.utf8), to: path)
        } catch {
            return .commentSummaryWritten(path: request.path, failure: "\(error)")
        }
        return .commentSummaryWritten(path: request.path,
                                      message: "Summary of the whole document's \(CommentSummary.counts(threads)) written to \(shortened(path))")
    }
}
