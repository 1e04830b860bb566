import CQPDF
import Foundation
import RedlineCore

/// A page of a PDF drawn by cairo (markup in display space, y up) made into a Form XObject of another document:
/// the page's content stream and resources, with `box` as its /BBox. Both the flattened overlay and an
/// annotation's appearance are made this way, so both draw exactly what the painter drew.
enum OverlayForm {
    /// `markup` holds the painter's PDF (read with `read(_:into:)`) and must outlive the write: qpdf copies lazily.
    /// `copies`: resources already copied from `markup`, by their text, for pages that share them.
    static func make(page index: Int, of markup: QPDFSession, into target: QPDFSession, label: String, box: [Double],
                     copies: SharedResources? = nil) throws -> qpdf_oh {
        guard index >= 0, index < Int(qpdf_get_num_pages(markup.data)) else {
            throw QPDFSession.Failure(code: qpdf_e_internal, message: "\(label) could not be read back")
        }
        let markupPage = qpdf_get_page_n(markup.data, index)
        try markup.check()
        let markupResources = markup.key(markupPage, "/Resources")
        // qpdf copies only indirect objects between documents; anything else means the overlay came out wrong,
        // and going on would hand qpdf a handle it cannot take.
        guard markup.isDictionary(markupPage), markup.objectID(markupResources) != 0 else {
            throw QPDFSession.Failure(code: qpdf_e_internal, message: "\(label) could not be read back")
        }
        var buffer: UnsafeMutablePointer<UInt8>?
        var length = 0
        try markup.check(qpdf_oh_get_page_content_data(markup.data, markupPage, &buffer, &length))
        defer { free(buffer) }

        let t = target.data
        let form = try target.newStream(holding: [UInt8](UnsafeBufferPointer(start: buffer, count: length)))
        let formDictionary = target.streamDictionary(form)
        qpdf_oh_replace_key(t, formDictionary, "/Type", qpdf_oh_new_name(t, "/XObject"))
        qpdf_oh_replace_key(t, formDictionary, "/Subtype", qpdf_oh_new_name(t, "/Form"))
        qpdf_oh_replace_key(t, formDictionary, "/BBox", target.newNumbers(box))
        let resources = try copies?.copy(markupResources, from: markup, into: target) ?? target.copyForeign(markupResources, from: markup)
        qpdf_oh_replace_key(t, formDictionary, "/Resources", resources)
        return form
    }

    /// Reads the painter's PDF into `markup`. qpdf reads the bytes lazily, long after this call: the session owns a copy.
    static func read(_ pdf: Data, into markup: QPDFSession) throws {
        try markup.read(memory: [UInt8](pdf), password: nil)
    }
}

/// Resources copied into a document, by their text in the document they came from: cairo gives every page resources
/// of its own, most alike (the same font, the same transparency), and each appearance needs one copy of them, not one
/// per annotation.
final class SharedResources {
    private var copied: [String: Int32] = [:]

    func copy(_ resources: qpdf_oh, from markup: QPDFSession, into target: QPDFSession) throws -> qpdf_oh {
        let text = qpdf_oh_unparse_resolved(markup.data, resources).map { String(cString: $0) }
        if let text, let known = copied[text] { return qpdf_get_object_by_id(target.data, known, 0) }
        let copy = try target.copyForeign(resources, from: markup)
        if let text, target.objectID(copy) != 0 { copied[text] = target.objectID(copy) }
        return copy
    }
}

/// The sessions holding appearances' drawings, each read once: qpdf copies their objects only when the document is written.
final class AppearanceSessions {
    /// Each document read, with the resources copied from it: the text of a resource names objects of its document.
    private var read: [Int: (session: QPDFSession, resources: SharedResources)] = [:]

    var sessions: [QPDFSession] { read.values.map(\.session) }

    func session(_ document: Int, of drawings: AppearanceDrawings) throws -> (session: QPDFSession, resources: SharedResources) {
        if let known = read[document] { return known }
        let session = QPDFSession(label: "the annotations' appearances")
        try OverlayForm.read(drawings.documents[document], into: session)
        read[document] = (session, SharedResources())
        return read[document]!
    }
}
