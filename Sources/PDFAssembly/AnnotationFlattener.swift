import CQPDF
import Foundation
import RedlineCore

/// Burns a document's markup annotations into their pages, for a final copy that looks as the review did in every
/// viewer and can no longer be changed as annotations. Each annotation's normal appearance (`/AP /N`, the one `/AS`
/// picks when there are several) is drawn where a viewer draws it, by the rule of PDF 32000 12.5.5: the appearance's
/// `/BBox`, through its `/Matrix`, fitted to the annotation's `/Rect`. The page's own content streams stay as they
/// are, wrapped in `q … Q`, with the appearances after them in `/Annots` order:
///
///     /Contents [ <q> original… <Q q a 0 0 d e f cm /RedlineAnnotationN Do Q …> ]
///
/// Then the annotation leaves `/Annots`, with its popup. Hidden and NoView annotations (review states, replies kept
/// out of sight) leave undrawn, as no viewer shows them. Links and form fields stay: they are not markup. A markup
/// annotation without an appearance of its own stays an annotation: drawing one afresh would be a guess at how
/// another viewer draws it. So does one with an empty /Rect, which viewers do not draw.
public enum AnnotationFlattener {
    public struct Outcome: Sendable {
        public let document: WrittenDocument
        /// Annotations drawn into their pages.
        public let burned: Int
        /// Annotations removed without drawing: hidden, or never shown.
        public let dropped: Int
        /// Markup annotations left as annotations, with why: no appearance of their own to draw, or no area to
        /// draw it in (an empty /Rect, which no viewer draws either).
        public let kept: [(annotation: Annotation, reason: String)]
        /// Pages whose content changed.
        public let pages: Int
        /// Pages drawn into that carry a signature, and every page that does.
        public let signedPagesDrawn: [Int]
        public let signedPages: Set<Int>
        /// The document's pages, for checking the copy.
        public let pageCount: Int
        /// What was repaired to read the document, in the user's words.
        public let repairs: [String]
        /// The pages of a damaged original the copy could not carry whole, in the user's words; nil for a whole one.
        public let lostPages: String?
    }

    /// `rewrite`: the whole document anew, so that nothing of what was removed stays in the file's bytes.
    public static func document(source: String, password: String?, rewrite: Bool = false) throws -> Outcome {
        try IncrementalUpdate.numberingNewObjects { forAppending in
            try document(source: source, password: password, rewrite: rewrite, forAppending: forAppending)
        }
    }

    private static func document(source: String, password: String?, rewrite: Bool, forAppending: Bool) throws -> Outcome {
        let session = try PDFInspector.openSessionForWriting(path: source, password: password, forAppending: forAppending, rewrite: rewrite)
        // Checked on the session that is written, not on a reading of its own: a document of 100,000 annotations was
        // read twice.
        guard session.allowsAnnotationChanges else { throw AnnotationEditError.notPermitted(path: source) }
        guard session.openedByOwner || qpdf_allow_modify_other(session.data) != 0 else {
            throw DocumentError.flatteningNotPermitted(path: source)
        }
        do {
            try session.check()
            let (_, lost, repairs, _) = PDFInspector.repairsSaid(in: session)
            let geometries = PDFInspector.geometries(in: session)
            guard !geometries.isEmpty else { throw DocumentError.damaged(path: source, reason: "the page tree is damaged: no pages found") }
            let located = AnnotationReader(session: session).read(pages: geometries)
            var burned = 0, dropped = 0, pages = 0
            // Pages whose content the drawing changes and that carry a signature: validators will say so.
            let signed = SignedPages.indices(in: session)
            var signedAndDrawn: [Int] = []
            var kept: [(annotation: Annotation, reason: String)] = []
            var gone: Set<Int32> = []
            for (pageIndex, entries) in Dictionary(grouping: located, by: \.annotation.pageIndex).sorted(by: { $0.key < $1.key }) {
                let page = qpdf_get_page_n(session.data, pageIndex)
                session.changedPages.insert(pageIndex)
                var appearances: [(number: Int32, generation: Int32)] = []
                var placements: [String] = []
                var leaving: Set<Int32> = []
                var leavingSlots: Set<Int> = []
                for entry in entries.sorted(by: { $0.slot < $1.slot }) where entry.annotation.subtype.isMarkup {
                    let flags = entry.annotation.flags
                    if flags & Annotation.hiddenFlag != 0 || flags & Annotation.noViewFlag != 0 {
                        dropped += 1
                    } else if let (appearance, placed) = session.releasingHandles({ () -> ((number: Int32, generation: Int32), String?)? in
                        // Read from the file's text where it can be: through qpdf, the annotation and its appearance
                        // would stay parsed for the session's life.
                        let annotation = session.entries(of: entry.object)
                        guard let (appearance, form) = normalAppearance(of: annotation, in: session) else { return nil }
                        return (appearance, placement(of: form, at: annotation.box("/Rect")))
                    }) {
                        guard let placed else {
                            kept.append((entry.annotation, "no area on the page"))
                            continue
                        }
                        appearances.append(appearance)
                        placements.append(placed)
                        burned += 1
                    } else {
                        kept.append((entry.annotation, "no appearance of its own"))
                        continue
                    }
                    leavingSlots.insert(entry.slot)
                    let id = session.objectID(entry.object)
                    if id != 0 { leaving.insert(id) }
                }
                var drawing = ""
                if !appearances.isEmpty {
                    let names = try OverlayAssembler.addToResources(objects: appearances, page: page, in: session, prefix: "/RedlineAnnotation")
                    for (placed, name) in zip(placements, names) { drawing += "q \(placed) cm \(name) Do Q\n" }
                }
                gone.formUnion(leaving)
                guard !leavingSlots.isEmpty else { continue }
                let remaining = session.arrayItems(session.key(page, "/Annots")).enumerated().filter { slot, item in
                    let id = session.objectID(item)
                    if leavingSlots.contains(slot) || (id != 0 && leaving.contains(id)) { return false }
                    // A popup goes with the annotation it belongs to.
                    return session.releasingHandles {
                        let entries = session.entries(of: item)
                        let parent = entries.reference("/Parent")?.number ?? 0
                        return !(entries.name("/Subtype") == "Popup" && parent != 0 && leaving.contains(parent))
                    }
                }.map(\.element)
                let annots = qpdf_oh_new_array(session.data)
                for item in remaining { qpdf_oh_append_item(session.data, annots, item) }
                if remaining.isEmpty { qpdf_oh_remove_key(session.data, page, "/Annots") } else { qpdf_oh_replace_key(session.data, page, "/Annots", annots) }
                if !drawing.isEmpty {
                    try OverlayAssembler.appendContent(drawing, to: page, in: session)
                    pages += 1
                    if signed.contains(pageIndex) { signedAndDrawn.append(pageIndex) }
                }
                try session.check()
            }
            // A reply that stays (it has no appearance to draw) to what is now part of the page would answer an
            // annotation no page has: it stands alone, as a note, and the report says why.
            var orphaned: Set<AnnotationID> = []
            for entry in located where !gone.contains(session.objectID(entry.object)) {
                let parent = session.releasingHandles { session.entries(of: entry.object).reference("/IRT")?.number ?? 0 }
                guard parent != 0, gone.contains(parent) else { continue }
                for key in ["/IRT", "/RT"] { qpdf_oh_remove_key(session.data, entry.object, key) }
                session.noteChanged(annotation: entry.object)
                orphaned.insert(entry.annotation.id)
            }
            kept = kept.map { orphaned.contains($0.annotation.id) ? ($0.annotation, $0.reason + "; what it answers is drawn into the page, so it stands alone") : $0 }
            try session.check()
            let written = try OverlayAssembler.document(of: session, minimumVersion: nil)
            return Outcome(document: written, burned: burned, dropped: dropped, kept: kept, pages: pages, signedPagesDrawn: signedAndDrawn, signedPages: signed,
                           pageCount: geometries.count, repairs: repairs, lostPages: lost)
        } catch let failure as QPDFSession.Failure {
            if failure.code == qpdf_e_system { throw DocumentError.writeFailed(path: source, reason: failure.message) }
            throw DocumentError.damaged(path: source, reason: failure.message)
        }
    }

    /// `/AP /N` when it is a stream; when it is a dictionary of states, the one `/AS` names: its number and dictionary.
    static func normalAppearance(of annotation: ObjectEntries, in session: QPDFSession) -> ((number: Int32, generation: Int32), ObjectEntries)? {
        guard let appearances = annotation.dictionary("/AP") else { return nil }
        if let normal = appearances.reference("/N"), let form = session.streamEntries(number: normal.number, generation: normal.generation) {
            return (normal, form)
        }
        guard let states = appearances.dictionary("/N"), let state = annotation.name("/AS"), let chosen = states.reference("/" + state),
              let form = session.streamEntries(number: chosen.number, generation: chosen.generation) else { return nil }
        return (chosen, form)
    }

    /// The `cm` operands that put an appearance where its annotation is: the form's own `/Matrix` is applied by
    /// `Do`; this maps the box that matrix makes of `/BBox` onto `/Rect`. Nil when either box is missing or empty.
    static func placement(of form: ObjectEntries, at rect: PDFBox?) -> String? {
        guard let rect, let bbox = form.box("/BBox") else { return nil }
        let numbers = form.items("/Matrix").compactMap(ObjectEntries.real)
        let matrix = numbers.count == 6 && numbers.allSatisfy(\.isFinite)
            ? AffineTransform(a: numbers[0], b: numbers[1], c: numbers[2], d: numbers[3], e: numbers[4], f: numbers[5])
            : .identity
        let corners = [Point(x: bbox.x1, y: bbox.y1), Point(x: bbox.x2, y: bbox.y1), Point(x: bbox.x1, y: bbox.y2),
                       Point(x: bbox.x2, y: bbox.y2)].map { matrix.apply(to: $0) }
        guard let transformed = Rect(enclosing: corners) else { return nil }
        let target = Rect(x: min(rect.x1, rect.x2), y: min(rect.y1, rect.y2), width: abs(rect.x2 - rect.x1), height: abs(rect.y2 - rect.y1))
        guard transformed.width > 0, transformed.height > 0, target.width > 0, target.height > 0 else { return nil }
        let scaleX = target.width / transformed.width, scaleY = target.height / transformed.height
        let operands = [scaleX, 0, 0, scaleY, target.minX - transformed.minX * scaleX, target.minY - transformed.minY * scaleY]
        guard operands.allSatisfy(\.isFinite) else { return nil }
        return operands.map(PDFNumber.format).joined(separator: " ")
    }
}
