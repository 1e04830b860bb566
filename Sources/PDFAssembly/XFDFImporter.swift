import CQPDF
import Foundation
import RedlineCore

/// Writes an XFDF command into a document (`redline xfdf import`): annotations named by the command and present in
/// the document are changed in place (their object kept, so replies and popups still point at them), new names are
/// added, deleted names go with their popups. Nothing else changes.
public enum XFDFImporter {
    /// `appearances`: what Redline's painter drew for the annotations it can draw; an
    /// annotation the command brings or changes gets its own, so readers that never draw one afresh show it too.
    /// `unchanged`: names the caller already found to say nothing new, when it compared them itself; nil to compare here.
    /// `identity`: the /ID to give a document that has none. `rewrite`: written whole, never appended.
    public static func document(source: String, password: String?, command: XFDFCommand,
                                appearances: AppearanceDrawings = AppearanceDrawings(), unchanged: Set<AnnotationID>? = nil,
                                identity: String? = nil, rewrite: Bool = false) throws -> WrittenDocument {
        return try IncrementalUpdate.numberingNewObjects { forAppending in
            try document(source: source, password: password, command: command, appearances: appearances, unchanged: unchanged,
                         identity: identity, forAppending: forAppending && !rewrite, rewrite: rewrite)
        }
    }

    /// The copy of a document an import leaves as it was: the original's bytes, read when the copy is written.
    public static func unchangedCopy(of source: String) throws -> WrittenDocument {
        guard let file = SourceFile(path: source) else { throw DocumentError.unreadable(path: source, reason: "it could not be opened again") }
        var copy = WrittenDocument(prefix: KeptBytes(path: source, length: file.size, identity: file.identity), bytes: Data(), outcome: .unchanged)
        copy.readFrom = FileState(path: source, identity: file.identity)
        return copy
    }

    private static func document(source: String, password: String?, command: XFDFCommand, appearances: AppearanceDrawings,
                                 unchanged: Set<AnnotationID>?, identity: String?, forAppending: Bool, rewrite: Bool) throws -> WrittenDocument {
        let target = try PDFInspector.openSessionForWriting(path: source, password: password, forAppending: forAppending, rewrite: rewrite)
        do {
            guard target.allowsAnnotationChanges else { throw AnnotationEditError.notPermitted(path: source) }
            let pages = PDFInspector.geometries(in: target)
            let writer = AnnotationWriter(session: target, path: source, appearances: appearances)
            var located: [AnnotationID: AnnotationReader.Located] = [:]
            for entry in AnnotationReader(session: target).read(pages: pages) { located[entry.annotation.id] = entry }

            // An annotation moved to another page is deleted there and made anew on its page.
            let incoming = command.modify + command.add
            let moved = incoming.filter { located[$0.id].map { $0.annotation.pageIndex != $0.annotation.pageIndex } ?? false }
            // A deleted annotation takes what answers it along (as deleting in the editor does): a reply left behind
            // would point at an object no page lists, and keep its text in the file.
            var edits = AnnotationEdits()
            let current = located.values.map(\.annotation)
            var deleted = Set<AnnotationID>()
            for deletion in command.delete where located[deletion.id] != nil { deleted.formUnion(edits.delete(deletion.id, in: current)) }
            let doomed = deleted.union(moved.map(\.id)).filter { located[$0] != nil }
            // The pages whatever the command names is on, before and after.
            for id in doomed.union(incoming.map(\.id)) { if let page = located[id]?.annotation.pageIndex { target.changedPages.insert(page) } }
            target.changedPages.formUnion(incoming.map(\.pageIndex))
            try writer.delete(doomed, located: located)
            for id in doomed { located[id] = nil }

            var objects = located.mapValues(\.object)
            // Each new annotation's object is made before any is written: a reply may come before what it answers,
            // and names it when it is written.
            for annotation in incoming where located[annotation.id] == nil && objects[annotation.id] == nil {
                objects[annotation.id] = try writer.reserve()
            }
            var additions: [Int: [qpdf_oh]] = [:]
            var filled: [(annotation: Annotation, object: qpdf_oh)] = []
            for annotation in incoming {
                let geometry = pages[annotation.pageIndex]
                if let existing = located[annotation.id],
                   unchanged?.contains(annotation.id) ?? XFDF.saysTheSame(existing.annotation, as: annotation, pages: pages) {
                    // Says nothing new (a file's own export read back): left exactly as it was, thread link included.
                    continue
                }
                if let existing = located[annotation.id] {
                    target.noteChanged(annotation: existing.object)
                    // Moved or redrawn, the old appearance would show the old place: readers draw a new one.
                    let unchanged = existing.annotation.standsAndLooksAs(annotation)
                    let redrawn = appearances.contains(annotation.id)
                    for key in AnnotationWriter.describedKeys + (unchanged && !redrawn ? [] : ["/AP"]) {
                        qpdf_oh_remove_key(target.data, existing.object, key)
                    }
                    writer.fill(existing.object, with: annotation, inReplyTo: nil, geometry: geometry)
                    if redrawn { try writer.giveAppearance(to: existing.object, of: annotation, geometry: geometry) }
                    if let place = annotation.drawing.popup,
                       let made = try writer.placePopup(of: existing.object, pageIndex: annotation.pageIndex, at: place, geometry: geometry) {
                        additions[annotation.pageIndex, default: []].append(made)
                    }
                    filled.append((annotation, existing.object))
                } else if let reserved = objects[annotation.id] {
                    let parent = try annotation.inReplyTo.flatMap { id in
                        try objects[id].map { try indirect($0, id: id, located: located, writer: writer, objects: &objects) }
                    }
                    // What the writer reads and makes on the way is let go: 100,000 annotations leave millions of handles.
                    let numbers = try target.releasingHandles {
                        try writer.add(annotation, as: reserved, inReplyTo: parent, geometry: geometry, notesGetPopups: false).map(target.objectID)
                    }
                    additions[annotation.pageIndex, default: []] += [reserved] + numbers.dropFirst().map { qpdf_get_object_by_id(target.data, $0, 0) }
                }
            }
            // The threads of changed annotations last, once every name has its object.
            for (annotation, object) in filled {
                guard let parentID = annotation.inReplyTo, let parent = objects[parentID] else { continue }
                qpdf_oh_replace_key(target.data, object, "/IRT", try indirect(parent, id: parentID, located: located, writer: writer, objects: &objects))
                qpdf_oh_replace_key(target.data, object, "/RT", target.newName(annotation.replyType == .group ? "Group" : "R"))
            }
            for (pageIndex, added) in additions.sorted(by: { $0.key < $1.key }) {
                let page = qpdf_get_page_n(target.data, pageIndex)
                writer.replaceAnnotations(of: page, with: target.arrayItems(target.key(page, "/Annots")) + added)
            }
            try target.check()
            // A document without /ID is given the identity it is known by elsewhere (a shared document's id), so that
            // the copy is still that document.
            if let identity { try DocumentMetadata.giveIdentity(identity, in: target) }
            return try OverlayAssembler.document(of: target, minimumVersion: nil)
        } catch let failure as QPDFSession.Failure {
            if failure.code == qpdf_e_system { throw DocumentError.writeFailed(path: source, reason: failure.message) }
            throw DocumentError.damaged(path: source, reason: failure.message)
        }
    }

    /// /IRT must name the annotation itself: a direct one is given an object of its own first.
    private static func indirect(_ object: qpdf_oh, id: AnnotationID, located: [AnnotationID: AnnotationReader.Located],
                                 writer: AnnotationWriter, objects: inout [AnnotationID: qpdf_oh]) throws -> qpdf_oh {
        guard writer.session.objectID(object) == 0, let entry = located[id] else { return object }
        let made = try writer.makeIndirect(entry)
        objects[id] = made
        return made
    }
}
