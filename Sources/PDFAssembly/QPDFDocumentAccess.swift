import Foundation
import RedlineCore

/// The qpdf adapter as the core's reader and writer.
public struct QPDFDocumentAccess: DocumentReader, DocumentWriter {
    public init() {}

    public func describe(path: String, password: String?) throws -> DocumentDescription {
        try PDFInspector.describe(path: path, password: password)
    }

    public func document(source: String, password: String?, overlays: [PageOverlay], annotationEdits: AnnotationEdits,
                         appearances: [AnnotationID: Data], redrawn: [AnnotationID: Annotation], metadata: Data?,
                         identity: String?) throws -> Data {
        try OverlayAssembler.document(source: source, password: password, overlays: overlays, annotationEdits: annotationEdits,
                                      appearances: appearances, redrawn: redrawn, metadata: metadata, identity: identity)
    }

    public func verify(_ path: String, password: String?, pageCount: Int) throws {
        try OverlayAssembler.verify(path, password: password, pageCount: pageCount)
    }
}
