import CQPDF
import Foundation

/// A one-page PDF drawn by cairo (markup in display space, y up) made into a Form XObject of another document:
/// the page's content stream and resources, with `box` as its /BBox. Both the flattened overlay and an
/// annotation's appearance are made this way, so both draw exactly what the painter drew.
enum OverlayForm {
    static func make(from pdf: Data, in markup: QPDFSession, into target: QPDFSession, label: String, box: [Double]) throws -> qpdf_oh {
        // qpdf reads the overlay's bytes lazily, long after this call: the session owns a copy for its lifetime.
        try markup.read(memory: [UInt8](pdf), password: nil)
        let markupPage = qpdf_get_page_n(markup.data, 0)
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
        qpdf_oh_replace_key(t, formDictionary, "/Resources", try target.copyForeign(markupResources, from: markup))
        return form
    }
}

/// The sessions holding appearances' source PDFs: qpdf copies their objects only when the document is written.
final class AppearanceSessions {
    private(set) var sessions: [QPDFSession] = []

    func make(_ label: String) -> QPDFSession {
        let session = QPDFSession(label: label)
        sessions.append(session)
        return session
    }
}
