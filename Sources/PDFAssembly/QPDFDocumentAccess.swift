import Foundation
import RedlineCore

/// The qpdf adapter as the core's reader and writer.
public struct QPDFDocumentAccess: DocumentReader, DocumentWriter {
    /// False for what never looks at annotations (`redline search`): a page of 100,000 was most of its time.
    let readingAnnotations: Bool
    /// Whether the outline's folder of bookmarks is read (only where bookmarks are kept in the outline).
    let readingOutline: Bool

    public init(readingAnnotations: Bool = true, readingOutline: Bool = false) {
        self.readingAnnotations = readingAnnotations
        self.readingOutline = readingOutline
    }

    public func describe(path: String, password: String?) throws -> DocumentDescription {
        try PDFInspector.describe(path: path, password: password, readingAnnotations: readingAnnotations, readingOutline: readingOutline)
    }

    public func document(source: String, password: String?, overlays: [PageOverlay], annotationEdits: AnnotationEdits,
                         appearances: AppearanceDrawings, redrawn: [AnnotationID: Annotation], metadata: Data?,
                         outline: OutlineFolder?, identity: String?, rewrite: Bool) throws -> WrittenDocument {
        try OverlayAssembler.document(source: source, password: password, overlays: overlays, annotationEdits: annotationEdits,
                                      appearances: appearances, redrawn: redrawn, metadata: metadata, outline: outline,
                                      identity: identity, rewrite: rewrite)
    }

    public func verify(_ path: String, copyOf source: String, password: String?, pageCount: Int, written: WrittenDocument) throws {
        do {
            try OverlayAssembler.verify(path, password: password, pageCount: pageCount, written: written)
        } catch let failure as ReadBackError {
            // A copy of a damaged file keeps what it could not read: the fault is the original's, not the write's.
            if (try? OverlayAssembler.verify(source, password: password, pageCount: pageCount)) == nil {
                throw DocumentError.damaged(path: source, reason: "\(PDFInspector.inWords(failure.description)), and no whole copy can be made of it")
            }
            throw failure
        }
    }
}
