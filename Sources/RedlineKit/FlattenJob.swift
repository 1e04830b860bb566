import Foundation
import PDFAssembly
import RedlineCore
import TerminalGrid

/// `redline flatten`: a final copy with every markup annotation burned into its page, looking as it did, written
/// atomically and read back before it replaces anything.
public enum FlattenJob {
    public struct Report: Sendable {
        public let burned: Int
        public let dropped: Int
        public let kept: [(annotation: Annotation, reason: String)]
        public let pages: Int
        /// What Redline repaired to read the input.
        public let repairs: [String]

        /// What the command prints: what was drawn, what was removed, and what stays an annotation, by id and why.
        public var lines: [String] {
            func count(_ number: Int, _ one: String, _ many: String) -> String { "\(number) \(number == 1 ? one : many)" }
            var lines: [String] = repairs.map { "repaired to read it: \($0)" }
            if burned == 0 && dropped == 0 && kept.isEmpty {
                lines.append("no markup annotations to flatten: the copy holds the document as it was")
            } else {
                lines.append(count(burned, "annotation", "annotations") + " drawn into " + count(pages, "page", "pages")
                             + (dropped > 0 ? "; " + count(dropped, "hidden one", "hidden ones") + " (review states, notes never shown) removed" : ""))
            }
            if !kept.isEmpty {
                lines.append(count(kept.count, "stays an annotation", "stay annotations") + ": "
                             + kept.map { "\($0.annotation.id.rawValue) (\($0.annotation.subtype.label), page \($0.annotation.pageIndex + 1): \($0.reason))" }
                                .joined(separator: ", "))
            }
            // Ids and subtypes are the file's words: shown, never obeyed by the terminal.
            return lines.map(VisibleText.of)
        }
    }

    public static func run(input: String, password: String?, output: String) throws -> Report {
        let description = try PDFInspector.describe(path: input, password: password)
        guard description.allowsAnnotationChanges else { throw AnnotationEditError.notPermitted(path: input) }
        guard description.allowsChanges else { throw DocumentError.pageChangesNotPermitted(path: input) }
        let outcome = try AnnotationFlattener.document(source: input, password: password)
        try AtomicFileWriter.write(outcome.document, to: output) { temporary in
            try QPDFDocumentAccess().verify(temporary, copyOf: input, password: password, pageCount: description.pageCount)
        }
        return Report(burned: outcome.burned, dropped: outcome.dropped, kept: outcome.kept, pages: outcome.pages,
                      repairs: description.repairs)
    }
}
