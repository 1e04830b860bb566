import Foundation

/// Writes a new document from an existing one: overlays burned into their pages, annotation changes (new
/// annotations with the appearances drawn for them, keyed by id; annotations of the file drawn anew, `redrawn` as
/// they will be), new metadata and an identity, everything else as it was. The qpdf adapter implements it; the
/// result is bytes, which the caller writes atomically.
public protocol DocumentWriter: Sendable {
    func document(source: String, password: String?, overlays: [PageOverlay], annotationEdits: AnnotationEdits,
                  appearances: [AnnotationID: Data], redrawn: [AnnotationID: Annotation], metadata: Data?, identity: String?) throws -> Data
    /// Throws unless the file at `path` reads back whole, with `pageCount` pages.
    func verify(_ path: String, password: String?, pageCount: Int) throws
}
