import Foundation
import PDFRendering
import RedlineCore

/// Annotations of the file given a new colour, size or text, drawn again by the painter that draws the screen and
/// Redline's own annotations, so the file shows what the editor showed. Only what the painter draws (FreeText, Ink,
/// Highlight, Underline, StrikeOut); readers draw the others anew from their keys.
public enum AnnotationRedrawing {
    public struct Redrawn: Sendable {
        /// Each annotation as it will be: a FreeText's box fitted to its new words and size.
        public var annotations: [AnnotationID: Annotation] = [:]
        /// Its appearance: a one-page PDF the size of its page, as the writer takes appearances.
        public var appearances: [AnnotationID: Data] = [:]
    }

    public static func redrawn(_ edits: AnnotationEdits, original: [Annotation], pages: [PageGeometry],
                               services: RedlineServices) throws -> Redrawn {
        let changed = Set(edits.restyled.keys).union(edits.changedContents.keys)
        guard !changed.isEmpty else { return Redrawn() }
        var result = Redrawn()
        for annotation in edits.applied(to: original) where changed.contains(annotation.id) && pages.indices.contains(annotation.pageIndex) {
            guard let item = MarkupAnnotations.redrawnItem(of: annotation, after: edits) else {
                // Readers draw it: its box is grown to hold every line of its new words, and has no appearance.
                let grown = MarkupAnnotations.grownToHoldItsWords(annotation, pageSize: pages[annotation.pageIndex].displaySize,
                                                                  measuredBy: services.measurer)
                if grown.rect != annotation.rect { result.annotations[annotation.id] = grown }
                continue
            }
            var now = annotation
            now.rect = MarkupAnnotations.rect(for: item, measuredBy: services.measurer)
            result.annotations[annotation.id] = now
            result.appearances[annotation.id] = try appearance(of: item, on: pages[annotation.pageIndex], services: services)
        }
        return result
    }

    /// The painter's drawing of `item` as a one-page PDF the size of its page: the form the writer takes appearances in.
    static func appearance(of item: MarkupItem, on geometry: PageGeometry, services: RedlineServices) throws -> Data {
        try MarkupOverlayPDF.make([item], pageSize: geometry.displaySize, scale: geometry.overlayScale, painter: services.painter)
    }
}
