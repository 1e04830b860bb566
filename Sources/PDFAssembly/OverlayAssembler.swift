import CQPDF
import Foundation
import RedlineCore

/// Burns markup overlays into pages and writes the whole document with qpdf. Each edited page keeps its
/// identity (outline entries, links and named destinations still point at it) and its original content
/// streams untouched; the markup is added after them as a Form XObject:
///
///     /Contents [ <q> original… <Q q a b c d e f cm /RedlineMarkupN Do Q> ]
///
/// Pages without markup are not touched at all. Annotation changes (replies, states, deletions) are made in
/// the same write. The result is returned as bytes: qpdf's own file output reports a write that fails only
/// at its final flush as success, so the caller writes the file and checks every byte of it.
public enum OverlayAssembler {
    public static func document(source: String, password: String?, overlays: [PageOverlay],
                                annotationEdits: AnnotationEdits = AnnotationEdits(), appearances: AppearanceDrawings = AppearanceDrawings(),
                                redrawn: [AnnotationID: Annotation] = [:], metadata: Data? = nil, outline: OutlineFolder? = nil,
                                identity: String? = nil, rewrite: Bool = false) throws -> WrittenDocument {
        try IncrementalUpdate.numberingNewObjects { forAppending in
            try document(source: source, password: password, overlays: overlays, annotationEdits: annotationEdits, appearances: appearances,
                         redrawn: redrawn, metadata: metadata, outline: outline, identity: identity, rewrite: rewrite,
                         forAppending: forAppending)
        }
    }

    private static func document(source: String, password: String?, overlays: [PageOverlay], annotationEdits: AnnotationEdits,
                                 appearances: AppearanceDrawings, redrawn: [AnnotationID: Annotation], metadata: Data?,
                                 outline: OutlineFolder?, identity: String?, rewrite: Bool, forAppending: Bool) throws -> WrittenDocument {
        let target = try PDFInspector.openSessionForWriting(path: source, password: password, forAppending: forAppending, rewrite: rewrite)
        // Foreign objects are copied lazily: the overlay sessions must outlive the write.
        var overlaySessions: [QPDFSession] = []
        do {
            let pageCount = Int(qpdf_get_num_pages(target.data))
            try target.check()
            for overlay in overlays {
                guard overlay.pageIndex >= 0, overlay.pageIndex < pageCount else {
                    throw DocumentError.damaged(path: source, reason: "page \(overlay.pageIndex + 1) does not exist")
                }
                let markup = QPDFSession(label: "markup for page \(overlay.pageIndex + 1)")
                overlaySessions.append(markup)
                try apply(overlay, from: markup, to: target)
            }
            let annotations = AnnotationWriter(session: target, path: source, appearances: appearances, redrawn: redrawn)
            // Every page's geometry is a walk of the whole page tree: not made for a save that changes no annotation.
            if !annotationEdits.isEmpty { try annotations.apply(annotationEdits, pages: PDFInspector.geometries(in: target)) }
            overlaySessions += annotations.appearanceSessions.sessions
            if let metadata { try DocumentMetadata.write(metadata, in: target) } else { DocumentMetadata.keepOversizedStreamAsStored(in: target) }
            if let identity { try DocumentMetadata.giveIdentity(identity, in: target) }
            if let outline { try OutlineFolderAccess.write(outline, in: target) }
            let written = try document(of: target, minimumVersion: !appearances.isEmpty ? "1.5" : !overlays.isEmpty ? "1.4" : nil)
            withExtendedLifetime(overlaySessions) {}
            return written
        } catch let failure as QPDFSession.Failure {
            if failure.code == qpdf_e_system {
                throw DocumentError.writeFailed(path: source, reason: failure.message)
            }
            throw DocumentError.damaged(path: source, reason: failure.message)
        }
    }

    /// The document: an update appended to the original's bytes where that is right (`IncrementalUpdate`), else
    /// the whole document as qpdf writes it. Streams are copied as they are: nothing else is touched, and a
    /// compression bomb in one is never inflated (qpdf's default decodes every stream and encodes it again).
    /// `minimumVersion`: translucent markup needs PDF 1.4, a FreeText's /DS 1.5; an older header would promise
    /// readers less than the file holds.
    static func document(of target: QPDFSession, minimumVersion: String?) throws -> WrittenDocument {
        _ = target.takeWarnings()
        let (appended, outcome) = try IncrementalUpdate.document(of: target, minimumVersion: minimumVersion)
        target.outcome = outcome
        var document = if let appended { appended } else {
            WrittenDocument(bytes: try wholeDocument(of: target, minimumVersion: minimumVersion), outcome: outcome)
        }
        _ = target.takeWarnings()
        // An object qpdf could not read would be missing from the copy (a page's words, a note): the save is made
        // again from the mended reading of the file, once.
        if target.lostObjects, let identity = target.sourceIdentity, !MendedFiles.contains(identity) {
            MendedFiles.insert(identity)
            throw IncrementalUpdate.MendingNeeded()
        }
        // Checked again before the copy takes its place: the file read while writing must not have changed.
        if let path = target.sourcePath, let identity = target.sourceIdentity { document.readFrom = FileState(path: path, identity: identity) }
        target.leaveToProcessEnd()
        return document
    }

    static func wholeDocument(of target: QPDFSession, minimumVersion: String?) throws -> Data {
        // Its new streams' data is not qpdf's to write.
        guard !target.numbersItsNewObjects else { throw IncrementalUpdate.CannotAppend(reason: "the document must be written whole") }
        try target.beginWritingToMemory()
        if let minimumVersion { qpdf_set_minimum_pdf_version(target.data, minimumVersion) }
        qpdf_set_decode_level(target.data, qpdf_dl_none)
        try target.check(qpdf_write(target.data))
        let length = qpdf_get_buffer_length(target.data)
        guard let bytes = qpdf_get_buffer(target.data) else {
            throw QPDFSession.Failure(code: qpdf_e_system, message: "qpdf produced no output")
        }
        return Data(bytes: bytes, count: length)
    }

    /// Checks a written copy the way the next reader will open it: qpdf must read it without repairing
    /// anything, and find as many pages as were written. Of a copy that is the original with an update appended,
    /// qpdf parses only what the update reaches: the cross-reference and trailer, the page count the page tree's
    /// root states (the tree is walked only when that differs), and the
    /// update read back, which must be the bytes written, each object where its cross-reference entry says, the
    /// first `objectsParsedBack` of them parsed by qpdf. The original's bytes are not read again.
    public static func verify(_ path: String, password: String?, pageCount: Int, written: WrittenDocument? = nil) throws {
        let appended = written.flatMap { $0.prefix == nil ? nil : $0 }
        let session: QPDFSession
        do {
            session = try PDFInspector.openSession(path: path, password: password, repairing: false, readingPages: appended == nil)
        } catch {
            throw ReadBackError("\(error)")
        }
        let stated = appended == nil ? nil : session.integer(session.key(session.key(qpdf_get_root(session.data), "/Pages"), "/Count"))
        let pages = stated == pageCount ? pageCount : Int(qpdf_get_num_pages(session.data))
        if let appended { try parseBack(appended.appendedObjects.prefix(objectsParsedBack), in: session) }
        let problems = session.takeWarnings()
        guard (try? session.check()) != nil, pages == pageCount, problems.isEmpty else {
            throw ReadBackError(problems.first ?? "qpdf finds \(pages) pages, not \(pageCount)")
        }
        if let appended { try readBackUpdate(of: appended, at: path) }
    }

    /// How many of an update's objects qpdf parses back: all of a page's markup (the page, its content streams, the
    /// form, the font and its file, an annotation and its appearance); each costs qpdf 36 µs and 6 KB for the
    /// session, so the 200,000 objects of an import of 100,000 annotations are checked by their bytes alone.
    static let objectsParsedBack = 256

    /// qpdf reads each object through the copy's cross-reference, a stream's data to its end: what it cannot read is a
    /// warning, or a null where an object was written.
    private static func parseBack(_ objects: ArraySlice<AppendedObject>, in session: QPDFSession) throws {
        try session.releasingHandles {
            for object in objects {
                let handle = qpdf_get_object_by_id(session.data, object.number, object.generation)
                guard !session.isNull(handle) else { throw ReadBackError("object \(object.number) reads as nothing") }
                if session.isStream(handle), session.streamData(handle, level: qpdf_dl_none) == nil {
                    throw ReadBackError("the data of stream \(object.number) cannot be read back")
                }
            }
        }
    }

    /// The appended update as the file holds it: the bytes written, each object beginning `N G obj` at its offset.
    private static func readBackUpdate(of written: WrittenDocument, at path: String) throws {
        guard let start = written.prefix?.length, !written.bytes.isEmpty else { return }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadBackError("the copy could not be opened again: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var update = [UInt8](repeating: 0, count: written.bytes.count)
        var filled = 0
        while filled < update.count {
            let got = update.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, $0.count - filled, off_t(start + filled)) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { throw ReadBackError("the copy ends \(update.count - filled) bytes before the update written to it does") }
            filled += got
        }
        guard update.elementsEqual(written.bytes) else { throw ReadBackError("the update read back differs from the one written") }
        for object in written.appendedObjects {
            let at = object.offset - start
            let header = Array("\(object.number) \(object.generation) obj".utf8)
            guard at >= 0, at + header.count <= update.count, update[at..<(at + header.count)].elementsEqual(header) else {
                throw ReadBackError("object \(object.number) is not where the update's cross-reference puts it (offset \(object.offset))")
            }
        }
    }

    private static func apply(_ overlay: PageOverlay, from markup: QPDFSession, to target: QPDFSession) throws {
        let size = overlay.geometry.displaySize
        let scale = overlay.geometry.overlayScale
        try OverlayForm.read(overlay.pdf, into: markup)
        let form = try OverlayForm.make(page: 0, of: markup, into: target, label: "the markup overlay for page \(overlay.pageIndex + 1)",
                                        box: [0, 0, size.width * scale, size.height * scale])
        let page = qpdf_get_page_n(target.data, overlay.pageIndex)
        target.changedPages.insert(overlay.pageIndex)
        let name = try addToResources(form, page: page, in: target)
        try appendContent("q \(overlay.geometry.overlayFormTransform.pdfOperands) cm \(name) Do Q\n", to: page, in: target)
        try target.check()
    }

    /// Draws `operators` over the page: its content streams, untouched, come first inside `q … Q`, so nothing they
    /// leave set (a transform, a colour, a clip) reaches what is drawn after them.
    static func appendContent(_ operators: String, to page: qpdf_oh, in session: QPDFSession) throws {
        let t = session.data
        let prefix = try newContentStream("q\n", in: session)
        let suffix = try newContentStream("\nQ\n" + operators, in: session)
        let contents = qpdf_oh_new_array(t)
        qpdf_oh_append_item(t, contents, prefix)
        let existing = session.key(page, "/Contents")
        if session.isArray(existing) {
            for item in session.arrayItems(existing) { qpdf_oh_append_item(t, contents, item) }
        } else if session.isStream(existing) {
            qpdf_oh_append_item(t, contents, existing)
        }
        qpdf_oh_append_item(t, contents, suffix)
        qpdf_oh_replace_key(t, page, "/Contents", contents)
    }

    /// Gives the page a resource dictionary of its own holding the form under a name no resource uses yet.
    /// Resources are often shared between pages (or inherited), so they are copied, never changed in place.
    static func addToResources(_ form: qpdf_oh, page: qpdf_oh, in session: QPDFSession, prefix: String = "/RedlineMarkup") throws -> String {
        try addToResources([form], page: page, in: session, prefix: prefix)[0]
    }

    /// The same for many forms at once, named in order: the resources are copied once and each name found in one
    /// pass, so a page of 100,000 appearances costs 100,000 steps, not a copy and a search per form.
    static func addToResources(_ forms: [qpdf_oh], page: qpdf_oh, in session: QPDFSession, prefix: String) throws -> [String] {
        let t = session.data
        let resources = session.inherited("/Resources", of: page)
        let ownResources = shallowCopy(resources, in: session)
        let xObjects = shallowCopy(session.key(resources, "/XObject"), in: session)
        let names = freeNames(forms.count, besides: Set(session.dictionaryKeys(xObjects)), prefix: prefix)
        for (name, form) in zip(names, forms) { qpdf_oh_replace_key(t, xObjects, name, form) }
        qpdf_oh_replace_key(t, ownResources, "/XObject", xObjects)
        qpdf_oh_replace_key(t, page, "/Resources", ownResources)
        try session.check()
        return names
    }

    /// The same for forms of the file, by number (appearances being drawn into their page). qpdf reads every value
    /// put into a dictionary (to drop nulls): 100,000 appearances were half a gigabyte read for their names. In a
    /// session numbering its new objects, the new /XObject dictionary is written as text instead, and qpdf never
    /// reads the forms.
    static func addToResources(objects: [(number: Int32, generation: Int32)], page: qpdf_oh, in session: QPDFSession, prefix: String) throws -> [String] {
        let t = session.data
        let resources = session.inherited("/Resources", of: page)
        let existing = session.key(resources, "/XObject")
        let keys = session.dictionaryKeys(existing)
        let values = keys.map { session.key(existing, $0) }
        guard session.numbersItsNewObjects, let firstNew = session.firstNewObjectID,
              values.allSatisfy({ session.objectID($0) != 0 && session.objectID($0) < firstNew }) else {
            let forms = objects.map { qpdf_get_object_by_id(t, $0.number, $0.generation) }
            return try addToResources(forms, page: page, in: session, prefix: prefix)
        }
        let names = freeNames(objects.count, besides: Set(keys), prefix: prefix)
        var text = "<<"
        for (key, value) in zip(keys, values) {
            text += " " + String(cString: qpdf_oh_unparse(t, qpdf_oh_new_name(t, key))) + " " + String(cString: qpdf_oh_unparse(t, value))
        }
        for (name, object) in zip(names, objects) { text += " \(name) \(object.number) \(object.generation) R" }
        text += " >>"
        let ownResources = shallowCopy(resources, in: session)
        qpdf_oh_replace_key(t, ownResources, "/XObject", try session.newObject(text: text))
        qpdf_oh_replace_key(t, page, "/Resources", ownResources)
        try session.check()
        return names
    }

    /// `count` names from `prefix`1 on that `taken` does not hold, in order.
    private static func freeNames(_ count: Int, besides taken: Set<String>, prefix: String) -> [String] {
        var number = 1
        var names: [String] = []
        names.reserveCapacity(count)
        for _ in 0..<count {
            while taken.contains("\(prefix)\(number)") { number += 1 }
            names.append("\(prefix)\(number)")
            number += 1
        }
        return names
    }

    /// A new direct dictionary with the same keys and values (values shared, not copied).
    private static func shallowCopy(_ dictionary: qpdf_oh, in session: QPDFSession) -> qpdf_oh {
        let t = session.data
        let copy = qpdf_oh_new_dictionary(t)
        guard session.isDictionary(dictionary) else { return copy }
        for key in session.dictionaryKeys(dictionary) {
            qpdf_oh_replace_key(t, copy, key, session.key(dictionary, key))
        }
        return copy
    }

    private static func newContentStream(_ text: String, in session: QPDFSession) throws -> qpdf_oh {
        try session.newStream(holding: Array(text.utf8))
    }
}
