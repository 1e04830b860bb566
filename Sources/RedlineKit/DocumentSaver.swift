import Foundation
import PDFAssembly
import PDFRendering
import RedlineCore

/// Saving: every page with markup gets it burned in as a vector overlay, or, saving markup as annotations, every
/// markup becomes an annotation whose appearance is the same drawing. Every other page is left as it is,
/// annotation changes are written in the same pass, and the result is written atomically. The editor and the
/// command line all save through here.
public struct DocumentSaver: Sendable {
    let services: RedlineServices
    let writer: any DocumentWriter

    public init(services: RedlineServices, writer: any DocumentWriter = QPDFDocumentAccess()) {
        self.services = services
        self.writer = writer
    }

    @discardableResult
    public func save(_ markup: MarkupLayer, source: String, password: String?, description: DocumentDescription,
                     to destination: String, markupAs mode: MarkupSaveMode = .flatten, author: String = "") throws -> WriteOutcome {
        try save(DocumentEdits(markup: markup), source: source, password: password, description: description, to: destination,
                 markupAs: mode, author: author)
    }

    /// Flattens the markup, writes the annotation changes and, when they changed, the bookmarks (through
    /// the providers: the XMP provider's share goes into this write), in one write.
    /// `readingFrom`, when given, is where the document's bytes are read (the editor's open descriptor of the
    /// file it showed); `source` names the document in messages and its identity.
    @discardableResult
    public func save(_ edits: DocumentEdits, source: String, readingFrom readPath: String? = nil, password: String?,
                     description: DocumentDescription, bookmarks: BookmarkManager? = nil, to destination: String,
                     markupAs mode: MarkupSaveMode = .flatten, author: String = "", strategy: SaveStrategy = .append,
                     progress: (String) -> Void = { _ in }) throws -> WriteOutcome {
        let absolute = URL(fileURLWithPath: source).standardizedFileURL.path
        let identity = DocumentIdentity.of(permanentID: description.permanentID, path: absolute)
        var metadata: Data?
        var outline: OutlineFolder?
        // Bookmarks mirrored into the outline are written whenever the outline or the providers are out of step, so
        // a change made in another program is kept in both places by the next save.
        if let bookmarks, let list = edits.bookmarks ?? (bookmarks.needsWriting ? bookmarks.list : nil) {
            let write = try bookmarks.save(list, originalMetadata: description.metadata)
            (metadata, outline) = (write.metadata, write.outline)
        }
        let markup = edits.markup
        // Burning markup in changes the page's content, which such a document's owner forbade.
        if mode == .flatten, !markup.editedPages.isEmpty, !description.allowsChanges {
            throw DocumentError.pageChangesNotPermitted(path: source)
        }
        var overlays: [PageOverlay] = []
        var annotationEdits = edits.annotations
        var drawn: [AnnotationRedrawing.Drawn] = []
        var outlined: [(AnnotationID, OutlinedDrawing)] = []
        var takenNames = Set(description.annotations.map(\.id))
        // Every annotation one save makes was made at one time.
        let date = PDFDate(Date(), timeZone: .current)
        let edited = markup.pagesWithItems
        for (done, (pageIndex, items)) in edited.enumerated() {
            progress("drawing the markup of page \(pageIndex + 1) (\(done + 1) of \(edited.count))")
            guard description.pages.indices.contains(pageIndex) else {
                throw DocumentError.damaged(path: source, reason: "page \(pageIndex + 1) does not exist")
            }
            let geometry = description.pages[pageIndex]
            switch mode {
            case .flatten:
                let pdf = try MarkupOverlayPDF.make(items, pageSize: geometry.displaySize, scale: geometry.overlayScale,
                                                    painter: services.painter)
                overlays.append(PageOverlay(pageIndex: pageIndex, pdf: pdf, geometry: geometry))
            case .annotations:
                for item in items where item.drawsSomething {
                    var annotation = MarkupAnnotations.annotation(for: item, author: author, at: date, onPage: geometry.displaySize,
                                                                  measuredBy: services.measurer)
                    // /NM names one annotation: markup applied again onto a file that already holds it (a script run
                    // twice) gets new names rather than twins.
                    if takenNames.contains(annotation.id) { annotation.id = AnnotationID(UUID().uuidString) }
                    takenNames.insert(annotation.id)
                    // Paths alone (ink, marks over words, shapes) are written as operators, as an XFDF import writes
                    // them; text is drawn on its own, the size of the page: the appearance's box picks it out.
                    if let drawing = item.outlinedDrawing {
                        outlined.append((annotation.id, drawing))
                    } else {
                        drawn.append(AnnotationRedrawing.Drawn(id: annotation.id, item: item, page: geometry))
                    }
                    annotationEdits.add(annotation)
                }
            }
        }
        // Annotations of the file with a new look or text are drawn again, as the editor showed them.
        let redrawn = try AnnotationRedrawing.redrawn(edits.annotations, original: description.annotations, pages: description.pages,
                                                      services: services)
        var appearances = try AnnotationRedrawing.drawings(drawn, services: services)
        for (id, drawing) in outlined { appearances.add(drawing, for: id) }
        try appearances.merge(redrawn.appearances)
        progress("assembling the document")
        let written: WrittenDocument
        do {
            written = try writer.document(source: readPath ?? source, password: password, overlays: overlays,
                                          annotationEdits: annotationEdits, appearances: appearances, redrawn: redrawn.annotations,
                                          metadata: metadata, outline: outline, identity: identity, rewrite: strategy == .rewrite)
        } catch let error as DocumentError {
            throw error.naming(source, insteadOf: readPath ?? source)
        }
        progress("writing \(written.count / 1024) KB")
        try withoutActuallyEscaping(progress) { progress in
            try AtomicFileWriter.write(written, to: destination) { temporary in
                progress("checking what was written")
                try writer.verify(temporary, copyOf: readPath ?? source, password: password, pageCount: description.pageCount,
                                  written: written)
            }
        }
        return written.outcome
    }
}
