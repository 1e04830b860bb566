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
        public let kept: [Annotation]
        public let pages: Int

        /// What the command prints: what was drawn, what was left out, and what stays an annotation, by id.
        public var lines: [String] {
            var lines = ["\(burned) annotation\(burned == 1 ? "" : "s") drawn into \(pages) page\(pages == 1 ? "" : "s")"
                + (dropped > 0 ? "; \(dropped) hidden one\(dropped == 1 ? "" : "s") (review states, notes never shown) left out" : "")]
            if !kept.isEmpty {
                lines.append("\(kept.count) stay annotations, having no appearance of their own or no area on the page: "
                             + kept.map { "\($0.id.rawValue) (\($0.subtype.label), page \($0.pageIndex + 1))" }.joined(separator: ", "))
                // Ids and subtypes are the file's words: shown, never obeyed by the terminal.
                lines = lines.map(VisibleText.of)
            }
            return lines
        }
    }

    public static func run(input: String, password: String?, output: String) throws -> Report {
        let description = try PDFInspector.describe(path: input, password: password)
        guard description.allowsAnnotationChanges else { throw AnnotationEditError.notPermitted(path: input) }
        let outcome = try AnnotationFlattener.document(source: input, password: password)
        try AtomicFileWriter.write(outcome.document, to: output) { temporary in
            try QPDFDocumentAccess().verify(temporary, password: password, pageCount: description.pageCount)
        }
        return Report(burned: outcome.burned, dropped: outcome.dropped, kept: outcome.kept, pages: outcome.pages)
    }
}
