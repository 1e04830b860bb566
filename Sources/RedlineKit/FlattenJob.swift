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
        /// Where the copy went, and how it was written (appended to the original's bytes, or rewritten whole).
        public let output: String
        public let written: WriteOutcome
        /// What the command says on stderr: signatures it leaves reporting a change, pages it could not carry whole.
        public let warnings: [String]
        /// Pages could not be read whole: the warning saying so names the first repair too.
        public let lostPages: Bool

        /// What was repaired to read the input, said on stderr when no warning says it already.
        public var repairNote: String? { lostPages ? nil : DocumentDescription.repairNote(repairs) }

        /// How many of the annotations that stay are named, with why.
        public static let keptNamedAtMost = 20

        /// What the command prints: what was drawn, what was removed, and what stays an annotation, by id and why.
        public var lines: [String] {
            func count(_ number: Int, _ one: String, _ many: String) -> String { "\(number) \(number == 1 ? one : many)" }
            var lines: [String] = []
            if burned == 0 && dropped == 0 && kept.isEmpty {
                lines.append("no markup annotations to flatten: the copy holds the document as it was")
            } else {
                lines.append(count(burned, "annotation", "annotations") + " drawn into " + count(pages, "page", "pages")
                             + (dropped > 0 ? "; " + count(dropped, "hidden one", "hidden ones") + " (review states, notes never shown) removed" : ""))
            }
            if !kept.isEmpty {
                // Named up to a screenful; a page of 100,000 printed whole would be a 5 MB line no one reads.
                let named = kept.prefix(Self.keptNamedAtMost).map {
                    "\($0.annotation.id.rawValue) (\($0.annotation.subtype.label), page \($0.annotation.pageIndex + 1): \($0.reason))"
                }
                let more = kept.count - named.count
                lines.append(count(kept.count, "stays an annotation", "stay annotations") + ": " + named.joined(separator: ", ")
                             + (more > 0 ? ", and \(more) more (`redline annotations` lists them all)" : ""))
            }
            lines.append("\(output): \(written)")
            // Ids and subtypes are the file's words: shown, never obeyed by the terminal.
            return lines.map(VisibleText.of)
        }
    }

    /// Signatures the copy leaves reporting a change: on pages drawn into, or on any page when rewritten whole.
    private static func warnings(_ outcome: AnnotationFlattener.Outcome, output: String) -> [String] {
        [DocumentDescription.signedPagesFlattened(outcome.signedPagesDrawn),
         DocumentDescription.signatureWarning(after: outcome.document.outcome, signedPages: outcome.signedPages),
         outcome.lostPages.map { "the original is damaged: \($0)" },
         hiddenComments(outcome)]
            .compactMap { $0 }.map { "\(output): \($0)" }
    }

    /// A final copy is often handed on: what it no longer shows is still in the original's bytes before an update.
    private static func hiddenComments(_ outcome: AnnotationFlattener.Outcome) -> String? {
        guard case .appended = outcome.document.outcome, outcome.burned + outcome.dropped > 0 else { return nil }
        return "the original's bytes come first, so the flattened comments can still be read from this copy; "
            + "flatten --rewrite writes one without them"
    }

    public static func run(input: String, password: String?, output: String, rewrite: Bool = false,
                           progress: (String) -> Void = { _ in }) throws -> Report {
        progress("drawing the annotations of \(input) into its pages")
        let outcome = try AnnotationFlattener.document(source: input, password: password, rewrite: rewrite)
        progress("writing \(outcome.document.count / 1024) KB")
        try withoutActuallyEscaping(progress) { progress in
            try AtomicFileWriter.write(outcome.document, to: output) { temporary in
                progress("checking what was written")
                try QPDFDocumentAccess().verify(temporary, copyOf: input, password: password, pageCount: outcome.pageCount,
                                                 written: outcome.document)
            }
        }
        return Report(burned: outcome.burned, dropped: outcome.dropped, kept: outcome.kept, pages: outcome.pages,
                      repairs: outcome.repairs, output: output, written: outcome.document.outcome,
                      warnings: warnings(outcome, output: output), lostPages: outcome.lostPages != nil)
    }
}
