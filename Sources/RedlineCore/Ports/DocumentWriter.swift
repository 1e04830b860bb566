import Foundation

/// Writes a new document from an existing one: overlays burned into their pages, annotation changes (new
/// annotations with the appearances drawn for them; annotations of the file drawn anew, `redrawn` as
/// they will be), new metadata, the outline's folder of bookmarks and an identity, everything else as it was. The qpdf adapter implements it; the
/// result is bytes, which the caller writes atomically: the original's with an update appended, unless `rewrite`
/// asks for a complete rewrite or appending would be wrong.
public protocol DocumentWriter: Sendable {
    func document(source: String, password: String?, overlays: [PageOverlay], annotationEdits: AnnotationEdits,
                  appearances: AppearanceDrawings, redrawn: [AnnotationID: Annotation], metadata: Data?, outline: OutlineFolder?,
                  identity: String?, rewrite: Bool) throws -> WrittenDocument
    /// Throws unless the file at `path` reads back whole, with `pageCount` pages, and every object of an appended
    /// update (`written.appendedObjects`) reads as itself where the update put it. When it does not because
    /// `source`, the document it was made from, is itself damaged, the error is `DocumentError.damaged` naming it.
    func verify(_ path: String, copyOf source: String, password: String?, pageCount: Int, written: WrittenDocument) throws
}
