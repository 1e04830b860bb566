import Editor
import Foundation
import RedlineKit

extension EditorSession {
    /// Writes the summary `S` asked for, whole or not at all, and says what was written or why nothing was.
    static func writeSummary(_ request: CommentSummaryRequest) -> String {
        let threads = CommentSummary.threads(of: request.annotations, filter: request.filter)
        let text = CommentSummary.render(threads, as: request.format, heading: .init(documentName: request.documentName, filter: request.filter))
        do {
            try AtomicFileWriter.write(Data(text.utf8), to: request.path)
        } catch {
            return "Summary not written: \(error)"
        }
        return "Summary of \(CommentSummary.counts(threads)) written to \(shortened(request.path))"
    }
}
