import Foundation
import PDFRendering
import RedlineCore

/// Annotations of the file given a new colour, size or text, drawn again by the painter that draws the screen and
/// Redline's own annotations, so the file shows what the editor showed: what the painter draws (FreeText, Ink,
/// Highlight, Underline, StrikeOut, Squiggly) and the shapes, lines and polygons drawn from their keys; readers draw
/// the others (a note) anew from their keys.
public enum AnnotationRedrawing {
    public struct Redrawn: Sendable {
        /// Each annotation as it will be: a FreeText's box fitted to its new words and size.
        public var annotations: [AnnotationID: Annotation] = [:]
        /// Its appearance.
        public var appearances = AppearanceDrawings()
    }

    public static func redrawn(_ edits: AnnotationEdits, original: [Annotation], pages: [PageGeometry],
                               services: RedlineServices) throws -> Redrawn {
        let changed = Set(edits.restyled.keys).union(edits.changedContents.keys)
        guard !changed.isEmpty else { return Redrawn() }
        var result = Redrawn()
        var drawn: [Drawn] = []
        var outlined: [(AnnotationID, OutlinedDrawing)] = []
        for annotation in edits.applied(to: original) where changed.contains(annotation.id) && pages.indices.contains(annotation.pageIndex) {
            guard let item = MarkupAnnotations.redrawnItem(of: annotation, after: edits) else {
                // Its box is grown to hold every line of its new words.
                let grown = MarkupAnnotations.grownToHoldItsWords(annotation, pageSize: pages[annotation.pageIndex].displaySize,
                                                                  measuredBy: services.measurer)
                // A shape, line or polygon is drawn from its keys as an import draws it: readers left to draw it
                // themselves differ (MuPDF strokes a square of width 0, which poppler rightly leaves out). Others
                // (a note) readers draw.
                if let drawing = XFDFExchange.drawingFromKeys(grown) {
                    // Drawn where it will be, moved too: its appearance's box is that place, not the one it had.
                    result.annotations[annotation.id] = grown
                    outlined.append((annotation.id, drawing))
                } else if grown.rect != annotation.rect {
                    result.annotations[annotation.id] = grown
                }
                continue
            }
            var now = annotation
            now.rect = MarkupAnnotations.rect(for: item, measuredBy: services.measurer)
            result.annotations[annotation.id] = now
            drawn.append(Drawn(id: annotation.id, item: item, page: pages[annotation.pageIndex]))
        }
        result.appearances = try drawings(drawn, services: services)
        for (id, drawing) in outlined { result.appearances.add(drawing, for: id) }
        return result
    }

    /// An annotation's look as the painter draws it, on the page it is on.
    struct Drawn {
        let id: AnnotationID
        let item: MarkupItem
        let page: PageGeometry
    }

    /// The painter's drawings of annotations, each on a page the size of its own, in documents of
    /// `AppearanceDrawings.pagesPerDocument` pages: the form the writer takes appearances in.
    static func drawings(_ drawn: [Drawn], services: RedlineServices) throws -> AppearanceDrawings {
        var drawings = AppearanceDrawings()
        for part in parts(of: drawn) {
            drawings.add(try document(of: part, painter: services.painter), drawing: part.map(\.id))
        }
        return drawings
    }

    /// The same, drawn on a thread of their own while the caller goes on: the writer waits only for a document it
    /// reaches before it is drawn. Importing 100,000 annotations drew for 0.8 s before writing the first.
    static func drawingsInBackground(_ drawn: [Drawn], services: RedlineServices) -> AppearanceDrawings {
        let progress = DocumentsInProgress()
        let drawings = AppearanceDrawings(drawing: drawn.map(\.id), in: progress)
        let painter = services.painter
        let thread = Thread {
            var failure: (any Error)?
            for (index, part) in parts(of: drawn).enumerated() {
                // After a failure the rest is not drawn, but each is told, so that no one waits for it for ever.
                let result = failure.map { Result<Data, any Error>.failure($0) } ?? Result { try document(of: part, painter: painter) }
                if case .failure(let error) = result { failure = error }
                progress.deliver(index, result)
            }
        }
        thread.start()
        return drawings
    }

    /// The drawings in the parts one document holds each.
    private static func parts(of drawn: [Drawn]) -> [ArraySlice<Drawn>] {
        stride(from: 0, to: drawn.count, by: AppearanceDrawings.pagesPerDocument).map {
            drawn[$0..<min(drawn.count, $0 + AppearanceDrawings.pagesPerDocument)]
        }
    }

    private static func document(of part: ArraySlice<Drawn>, painter: MarkupPainter) throws -> Data {
        try MarkupOverlayPDF.make(pages: part.map { MarkupOverlayPDF.Page(items: [$0.item], size: $0.page.displaySize, scale: $0.page.overlayScale) },
                                  painter: painter)
    }
}
