import Foundation
import PDFAssembly
import PDFRendering
import RedlineCore

/// XFDF in and out of documents, for `redline xfdf` and the collaboration server: the core turns annotations into
/// XFDF and back; this reads them from a document and writes a command into a copy of one.
public enum XFDFExchange {
    public struct PageOutOfRange: Error, CustomStringConvertible {
        public let page: Int
        public let pageCount: Int
        public var description: String { "there is no page \(page + 1) (the document has \(pageCount))" }
    }

    /// The document's annotations as XFDF, every page or one (from 0); what XFDF could not hold of the markup
    /// (`XFDF.leftOut`) and what was repaired to read the document, for the caller to say.
    public static func export(_ path: String, password: String?, page: Int? = nil) throws
        -> (xfdf: String, leftOut: [Annotation], repairs: [String]) {
        let description = try PDFInspector.describe(path: path, password: password)
        if let page, page >= description.pageCount { throw PageOutOfRange(page: page, pageCount: description.pageCount) }
        let annotations = description.annotations.filter { page == nil || $0.pageIndex == page }
        return (XFDF.document(annotations, pages: description.pages), XFDF.leftOut(annotations), description.repairs)
    }

    /// Appearances for what Redline draws (text boxes, ink, highlights, underlines, strike-outs) as the screen and
    /// `:wa` draw it (text by the painter, paths as its outlines), and for the shapes, lines, polygons and carets it
    /// draws from their keys: XFDF carries none, and readers without one draw them differently or not at all
    /// (poppler draws no caret, PDFium no line or polygon). An annotation of the file whose place and look stay keeps
    /// the appearance it has (`existing`).
    static func appearances(for annotations: some Sequence<Annotation>, existing: [AnnotationID: Annotation] = [:],
                            pages: [PageGeometry]) throws -> AppearanceDrawings {
        var services: RedlineServices?
        var drawn: [AnnotationRedrawing.Drawn] = []
        var outlined: [(AnnotationID, OutlinedDrawing)] = []
        for annotation in annotations where pages.indices.contains(annotation.pageIndex) {
            let page = pages[annotation.pageIndex]
            guard let item = MarkupAnnotations.item(for: annotation, drawingCallouts: true) else {
                if existing[annotation.id].map(annotation.standsAndLooksAs) != true, let drawing = drawingFromKeys(annotation) {
                    outlined.append((annotation.id, drawing))
                }
                continue
            }
            guard item.drawsSomething else { continue }
            // A stamp of the file that stands and looks as it did keeps its picture (Acrobat's are images).
            if annotation.subtype == .stamp, existing[annotation.id].map(annotation.standsAndLooksAs) == true { continue }
            // Paths alone are written as operators; text needs the painter's font.
            if let drawing = item.outlinedDrawing {
                outlined.append((annotation.id, drawing))
                continue
            }
            let painter = services ?? RedlineServices()
            services = painter
            // Words wider than the box the file gives them, or a callout's line beyond it, would be cut at its edge:
            // readers wrap the words inside it. What reaches past the page (an arrow at its edge, where Redline cut
            // /Rect) is nowhere to be seen either way.
            let size = page.displaySize
            if annotation.subtype == .freeText,
               let needed = MarkupAnnotations.rect(for: item, measuredBy: painter.measurer)
                   .intersection(Rect(x: 0, y: 0, width: size.width, height: size.height)),
               !annotation.rect.insetBy(dx: -1, dy: -1).contains(needed) { continue }
            drawn.append(AnnotationRedrawing.Drawn(id: annotation.id, item: item, page: page))
        }
        var drawings = services.map { AnnotationRedrawing.drawingsInBackground(drawn, services: $0) } ?? AppearanceDrawings()
        for (id, drawing) in outlined { drawings.add(drawing, for: id) }
        return drawings
    }

    /// A `rect` that is the bare box of a line's or polygon's points (a point on its edge, no room even for half
    /// the stroke) cuts its ends and corners off: readers fit an appearance into /Rect. Such a rect grows to hold
    /// them, as Acrobat makes it. A rect with room around the points is the author's (another tool's ends are
    /// drawn smaller than Redline's), and stays, so a file's own XFDF reads back the same.
    private static func growToHoldItsEnds(_ annotation: inout Annotation, existing: [AnnotationID: Annotation]) {
        guard ["Line", "PolyLine", "Polygon"].contains(annotation.subtype.rawValue), existing[annotation.id].map(annotation.standsAndLooksAs) != true,
              let sketch = AnnotationSketch(annotation), !annotation.rect.contains(sketch.bounds) else { return }
        let rect = annotation.rect, room = sketch.width / 2
        let bare = annotation.drawing.vertices.contains { point in
            point.x - rect.minX < room || rect.maxX - point.x < room || point.y - rect.minY < room || rect.maxY - point.y < room
        }
        if bare { annotation.rect = rect.union(sketch.bounds) }
    }

    /// The appearance of a shape, line, polygon or caret drawn from its keys; nil for the other kinds. One with
    /// nothing to show (a line of width 0, which ISO 32000-1 §12.5.4 says is not drawn, no colour, no points) gets an
    /// empty one: readers left to themselves draw one anyway.
    static func drawingFromKeys(_ annotation: Annotation) -> OutlinedDrawing? {
        guard sketchedKinds.contains(annotation.subtype.rawValue) else { return nil }
        return AnnotationSketch(annotation)?.outlinedDrawing ?? .empty
    }

    /// What the painter draws from its keys when XFDF brings it. Notes and stamps are left to readers, who draw
    /// their icons and stamp pictures better than a sketch; a squiggly is drawn as the editor's squiggly marks are.
    static let sketchedKinds: Set<String> = ["Square", "Circle", "Line", "PolyLine", "Polygon", "Caret"]

    /// Reads `bytes` as XFDF against the document's pages, then writes the document with the command applied to
    /// `destination`, atomically and checked; a malformed file throws before anything is written. Says how the copy
    /// was written; `warn` hears what the copy could not carry from a damaged original.
    @discardableResult
    public static func importing(_ bytes: [UInt8], into path: String, password: String?, to destination: String, rewrite: Bool = false,
                                 warn: (String) -> Void = { _ in }) throws -> WriteOutcome {
        try applying({ description in try XFDF.command(from: bytes, pages: description.pages, existing: description.annotations) },
                     to: path, password: password, writingTo: destination, rewrite: rewrite, warn: warn)
    }

    /// Writes the document with the command `makeCommand` gives for it (its pages, its annotations) applied to
    /// `destination`, atomically and checked: `xfdf import`, and `redline collab pull` with the shared annotations.
    @discardableResult
    public static func applying(_ makeCommand: (DocumentDescription) throws -> XFDFCommand, to path: String, password: String?,
                                writingTo destination: String, identity: String? = nil, rewrite: Bool = false,
                                warn: (String) -> Void = { _ in }) throws -> WriteOutcome {
        let description = try PDFInspector.describe(path: path, password: password)
        if let warning = description.damageWarning { warn(warning) }
        let command = try makeCommand(description)
        let writer = QPDFDocumentAccess()
        // What says nothing new (the file's own export read back) is left as it is: no appearance is drawn for it,
        // and the writer is told, not left to compare each one again.
        var existing: [AnnotationID: Annotation] = [:]
        for annotation in description.annotations { existing[annotation.id] = annotation }
        // Looked through in place: 100,000 annotations copied into one array and filtered into another cost a tenth of a second.
        let incoming = [command.add, command.modify].lazy.joined()
        let unchanged = Set(incoming.filter { annotation in
            existing[annotation.id].map { XFDF.saysTheSame($0, as: annotation, pages: description.pages) } ?? false
        }.map(\.id))
        let document: WrittenDocument
        if identity == nil, !rewrite, description.repairs.isEmpty, description.allowsAnnotationChanges, incoming.allSatisfy({ unchanged.contains($0.id) }),
           !command.delete.contains(where: { existing[$0.id] != nil }) {
            // Nothing to write: no writing session reads every annotation of the file a second time.
            document = try XFDFImporter.unchangedCopy(of: path)
        } else {
            var written = command
            for index in written.add.indices { growToHoldItsEnds(&written.add[index], existing: existing) }
            for index in written.modify.indices where !unchanged.contains(written.modify[index].id) {
                growToHoldItsEnds(&written.modify[index], existing: existing)
            }
            let drawn = try appearances(for: [written.add, written.modify].lazy.joined().filter { !unchanged.contains($0.id) }, existing: existing,
                                        pages: description.pages)
            document = try XFDFImporter.document(source: path, password: password, command: written, appearances: drawn,
                                                 unchanged: unchanged, identity: identity, rewrite: rewrite)
        }
        try AtomicFileWriter.write(document, to: destination) { temporary in
            try writer.verify(temporary, copyOf: path, password: password, pageCount: description.pageCount, written: document)
        }
        return document.outcome
    }
}
