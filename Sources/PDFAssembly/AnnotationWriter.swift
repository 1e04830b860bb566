import CQPDF
import Foundation
import RedlineCore

/// Writes annotation changes into a session as the PDF specification describes them (ISO 32000-1
/// §12.5.6.2–3): replies are Text annotations with /IRT and /RT, review states are Text annotations with
/// /StateModel and /State as text strings. They stay real annotations, editable in any reader.
struct AnnotationWriter {
    let session: QPDFSession
    let path: String

    func apply(_ edits: AnnotationEdits, pages: [PageGeometry]) throws {
        guard !edits.isEmpty else { return }
        guard qpdf_allow_modify_annotation(session.data) != 0 else { throw AnnotationEditError.notPermitted(path: path) }
        var located: [AnnotationID: AnnotationReader.Located] = [:]
        for entry in AnnotationReader(session: session).read(pages: pages) {
            located[entry.annotation.id] = entry
        }
        for id in edits.deleted.union(edits.changedContents.keys) where located[id] == nil {
            throw AnnotationEditError.unknownAnnotation(id, path: path)
        }
        try delete(edits.deleted, located: located)
        for (id, change) in edits.changedContents {
            guard let object = located[id]?.object else { continue }
            qpdf_oh_replace_key(session.data, object, "/Contents", session.newText(change.contents))
            qpdf_oh_replace_key(session.data, object, "/M", session.newText(change.modified.pdfString))
        }
        var objects = located.mapValues(\.object)
        var additions: [Int: [qpdf_oh]] = [:]
        for annotation in edits.added {
            guard pages.indices.contains(annotation.pageIndex) else {
                throw DocumentError.damaged(path: path, reason: "page \(annotation.pageIndex + 1) does not exist")
            }
            let parent = try annotation.inReplyTo.map { id in
                guard let object = objects[id] else { throw AnnotationEditError.unknownAnnotation(id, path: path) }
                if session.objectID(object) == 0, let entry = located[id] {
                    // /IRT must name the annotation itself: a direct one would be copied into the reply.
                    let indirect = makeIndirect(entry)
                    objects[id] = indirect
                    return indirect
                }
                return object
            }
            let made = add(annotation, inReplyTo: parent, geometry: pages[annotation.pageIndex])
            objects[annotation.id] = made[0]
            additions[annotation.pageIndex, default: []] += made
        }
        // One new /Annots per page, however many annotations it gains.
        for (pageIndex, added) in additions.sorted(by: { $0.key < $1.key }) {
            let page = qpdf_get_page_n(session.data, pageIndex)
            replaceAnnotations(of: page, with: session.arrayItems(session.key(page, "/Annots")) + added)
        }
        try session.check()
    }

    /// Gives a direct annotation an object of its own and puts the reference where it stood in /Annots.
    private func makeIndirect(_ entry: AnnotationReader.Located) -> qpdf_oh {
        let indirect = qpdf_make_indirect_object(session.data, entry.object)
        var items = session.arrayItems(session.key(entry.page, "/Annots"))
        if items.indices.contains(entry.slot) { items[entry.slot] = indirect }
        replaceAnnotations(of: entry.page, with: items)
        return indirect
    }

    /// Takes the annotations off their pages, with the popups that belong to them. Objects nothing refers
    /// to any more are not written.
    private func delete(_ ids: Set<AnnotationID>, located: [AnnotationID: AnnotationReader.Located]) throws {
        guard !ids.isEmpty else { return }
        let doomed = Set(ids.compactMap { located[$0] }.map { session.objectID($0.object) })
        let pageIndexes = Set(ids.compactMap { located[$0]?.annotation.pageIndex })
        for pageIndex in pageIndexes.sorted() {
            let page = qpdf_get_page_n(session.data, pageIndex)
            let kept = session.arrayItems(session.key(page, "/Annots")).filter { object in
                let id = session.objectID(object)
                if id != 0, doomed.contains(id) { return false }
                let parent = session.objectID(session.key(object, "/Parent"))
                return !(session.name(session.key(object, "/Subtype")) == "Popup" && doomed.contains(parent))
            }
            replaceAnnotations(of: page, with: kept)
        }
        try session.check()
    }

    /// Makes the annotation (and its popup) as objects; the caller puts them on the page.
    private func add(_ annotation: Annotation, inReplyTo parent: qpdf_oh?, geometry: PageGeometry) -> [qpdf_oh] {
        let t = session.data
        let page = qpdf_get_page_n(t, annotation.pageIndex)
        let box = geometry.userBox(fromDisplay: annotation.rect)
        let dictionary = qpdf_oh_new_dictionary(t)
        func set(_ key: String, _ value: qpdf_oh) { qpdf_oh_replace_key(t, dictionary, key, value) }
        set("/Type", session.newName("Annot"))
        set("/Subtype", session.newName(annotation.subtype.rawValue))
        set("/Rect", session.newNumbers([box.x1, box.y1, box.x2, box.y2]))
        set("/NM", session.newText(annotation.id.rawValue))
        set("/F", qpdf_oh_new_integer(t, Int64(annotation.flags)))
        set("/P", page)
        if let author = annotation.author { set("/T", session.newText(author)) }
        if let contents = annotation.contents { set("/Contents", session.newText(contents)) }
        if let created = annotation.created { set("/CreationDate", session.newText(created.pdfString)) }
        if let modified = annotation.modified { set("/M", session.newText(modified.pdfString)) }
        if let parent {
            set("/IRT", parent)
            set("/RT", session.newName(annotation.replyType == .group ? "Group" : "R"))
        }
        if let state = annotation.state {
            set("/StateModel", session.newText(state.model))
            set("/State", session.newText(state.value))
        }
        if annotation.subtype == .text {
            set("/Name", session.newName("Comment"))
            set("/Open", qpdf_oh_new_bool(t, QPDF_FALSE))
            set("/C", session.newNumbers([1, 0.82, 0]))
        }
        let object = qpdf_make_indirect_object(t, dictionary)
        var added = [object]
        if annotation.state == nil {
            // Readers open a reply in its popup, as Acrobat writes it; state changes have none.
            let popup = qpdf_oh_new_dictionary(t)
            qpdf_oh_replace_key(t, popup, "/Type", session.newName("Annot"))
            qpdf_oh_replace_key(t, popup, "/Subtype", session.newName("Popup"))
            qpdf_oh_replace_key(t, popup, "/Rect", session.newNumbers([box.x2, box.y2 - 120, box.x2 + 180, box.y2]))
            qpdf_oh_replace_key(t, popup, "/Parent", object)
            qpdf_oh_replace_key(t, popup, "/P", page)
            qpdf_oh_replace_key(t, popup, "/Open", qpdf_oh_new_bool(t, QPDF_FALSE))
            qpdf_oh_replace_key(t, popup, "/F", qpdf_oh_new_integer(t, Int64(Annotation.printFlag | Annotation.noZoomFlag | Annotation.noRotateFlag)))
            let popupObject = qpdf_make_indirect_object(t, popup)
            qpdf_oh_replace_key(t, object, "/Popup", popupObject)
            added.append(popupObject)
        }
        return added
    }

    /// A fresh /Annots array for the page: the old one may be shared with other pages.
    private func replaceAnnotations(of page: qpdf_oh, with items: [qpdf_oh]) {
        let array = qpdf_oh_new_array(session.data)
        for item in items { qpdf_oh_append_item(session.data, array, item) }
        qpdf_oh_replace_key(session.data, page, "/Annots", array)
    }
}
