import CQPDF
import Foundation
import RedlineCore

/// The page the editor shows while annotations of the file are moved, restyled, reworded or deleted: the page with
/// those edits made,
/// as the only page of a small document for poppler to draw. It goes through the writer `:w` uses, so what the
/// editor shows is what the save writes.
public enum AnnotationPreview {
    public static func page(_ pageIndex: Int, source: String, password: String?, edits: AnnotationEdits,
                            appearances: AppearanceDrawings = AppearanceDrawings(), redrawn: [AnnotationID: Annotation] = [:]) throws -> Data {
        let target = try PDFInspector.openSessionForWriting(path: source, password: password)
        let single = QPDFSession(label: "page \(pageIndex + 1) as edited")
        do {
            guard pageIndex >= 0, pageIndex < Int(qpdf_get_num_pages(target.data)) else {
                throw DocumentError.damaged(path: source, reason: "page \(pageIndex + 1) does not exist")
            }
            // Shown whatever the permissions say: a refused change never reaches here, and drawing changes nothing.
            let writer = AnnotationWriter(session: target, path: source, appearances: appearances, redrawn: redrawn)
            let pages = PDFInspector.geometries(in: target)
            var located: [AnnotationID: AnnotationReader.Located] = [:]
            for entry in AnnotationReader(session: target).read(pages: pages) { located[entry.annotation.id] = entry }
            writer.move(edits, located: located, pages: pages)
            writer.changeContents(edits, located: located)
            try writer.restyle(edits, located: located, pages: pages)
            try writer.delete(edits.deleted.filter { located[$0] != nil }, located: located)
            try single.check(qpdf_empty_pdf(single.data))
            // The page is copied with what it refers to; inherited attributes come along, as qpdf copies pages.
            try single.check(qpdf_add_page(single.data, target.data, qpdf_get_page_n(target.data, pageIndex), QPDF_FALSE))
            let bytes = try OverlayAssembler.wholeDocument(of: single, minimumVersion: nil)
            withExtendedLifetime(target) {}
            return bytes
        } catch let failure as QPDFSession.Failure {
            throw DocumentError.damaged(path: source, reason: failure.message)
        }
    }
}
