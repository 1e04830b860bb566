import CQPDF
import Foundation
import RedlineCore

/// A page of a PDF drawn by cairo (markup in display space, y up) made into a Form XObject of another document:
/// the page's content stream and resources, with `box` as its /BBox. Both the flattened overlay and an
/// annotation's appearance are made this way, so both draw exactly what the painter drew.
enum OverlayForm {
    /// `markup` holds the painter's PDF (read with `read(_:into:)`) and must outlive the write: qpdf copies lazily.
    /// `matrix`: the form's /Matrix. `copies`: resources already copied from `markup`, by their text, for pages that
    /// share them.
    static func make(page index: Int, of markup: QPDFSession, into target: QPDFSession, label: String, box: [Double],
                     matrix: [Double]? = nil, copies: SharedResources? = nil) throws -> qpdf_oh {
        var entries: [String: ObjectText] = ["/Type": .name("XObject"), "/Subtype": .name("Form"), "/BBox": .numbers(box)]
        if let matrix { entries["/Matrix"] = .numbers(matrix) }
        if let stored = stored(page: index, of: markup) {
            let resources = try copies?.copy(stored.resources, known: stored.resourcesText, from: markup, into: target)
                ?? target.copyForeign(stored.resources, from: markup)
            entries["/Resources"] = target.reference(to: resources)
            if let filter = stored.filter { entries["/Filter"] = .name(filter) }
            return try target.newStream(entries: entries, data: stored.content)
        }
        guard index >= 0, index < Int(qpdf_get_num_pages(markup.data)) else {
            throw QPDFSession.Failure(code: qpdf_e_internal, message: "\(label) could not be read back")
        }
        return try markup.releasingHandles {
            let markupPage = qpdf_get_page_n(markup.data, index)
            try markup.check()
            let markupResources = markup.key(markupPage, "/Resources")
            // qpdf copies only indirect objects between documents; anything else means the overlay came out wrong,
            // and going on would hand qpdf a handle it cannot take.
            guard markup.isDictionary(markupPage), markup.objectID(markupResources) != 0 else {
                throw QPDFSession.Failure(code: qpdf_e_internal, message: "\(label) could not be read back")
            }
            let (content, filter) = try Self.content(of: markupPage, in: markup)
            let resources = try copies?.copy(markupResources, from: markup, into: target) ?? target.copyForeign(markupResources, from: markup)
            entries["/Resources"] = target.reference(to: resources)
            if let filter { entries["/Filter"] = .name(filter) }
            return try target.newStream(entries: entries, data: content)
        }
    }

    /// A page's drawing as stored and its resources, read from the document's text: qpdf keeps every page it reads,
    /// about 3 KB each, and 60,000 drawings cost as much again to free. Nil when the text is not plain (ask qpdf).
    private static func stored(page index: Int, of markup: QPDFSession) -> (content: [UInt8], filter: String?, resources: qpdf_oh, resourcesText: String)? {
        guard let objects = markup.fileObjects, let pages = markup.pageLeaves, pages.indices.contains(index),
              case let page = pages[index].entries,
              case .reference(let contentsNumber, let contentsGeneration)? = page["/Contents"],
              case .reference(let resourcesNumber, let resourcesGeneration)? = page["/Resources"],
              let resources = objects.dictionary(number: resourcesNumber, generation: resourcesGeneration),
              let (dictionary, data) = objects.storedStream(number: contentsNumber, generation: contentsGeneration),
              dictionary["/DecodeParms"] == nil else { return nil }
        let filter: String?
        switch dictionary["/Filter"] {
        case nil: filter = nil
        case .name("FlateDecode")?: filter = "FlateDecode"
        default: return nil
        }
        return (data, filter, qpdf_get_object_by_id(markup.data, resourcesNumber, resourcesGeneration), ObjectText.dictionary(resources).pdfText)
    }

    /// The page's drawing as cairo stored it (one Flate stream, copied without decoding it and encoding it again);
    /// decoded when stored any other way.
    private static func content(of page: qpdf_oh, in markup: QPDFSession) throws -> (bytes: [UInt8], filter: String?) {
        let contents = markup.key(page, "/Contents")
        if markup.isStream(contents) {
            let dictionary = qpdf_oh_get_dict(markup.data, contents)
            let filter = markup.key(dictionary, "/Filter")
            if markup.name(filter) == "FlateDecode", markup.isNull(markup.key(dictionary, "/DecodeParms")),
               let raw = markup.streamData(contents, level: qpdf_dl_none) {
                return (raw, "FlateDecode")
            }
            if markup.isNull(filter), let raw = markup.streamData(contents, level: qpdf_dl_none) { return (raw, nil) }
        }
        var buffer: UnsafeMutablePointer<UInt8>?
        var length = 0
        try markup.check(qpdf_oh_get_page_content_data(markup.data, page, &buffer, &length))
        defer { free(buffer) }
        return ([UInt8](UnsafeBufferPointer(start: buffer, count: length)), nil)
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

    /// `known`: the resources' text when it was read without qpdf.
    func copy(_ resources: qpdf_oh, known: String? = nil, from markup: QPDFSession, into target: QPDFSession) throws -> qpdf_oh {
        let text = known ?? qpdf_oh_unparse_resolved(markup.data, resources).map { String(cString: $0) }
        if let text, let known = copied[text] { return qpdf_get_object_by_id(target.data, known, 0) }
        let copy = try target.copyForeign(resources, from: markup)
        if let text, target.objectID(copy) != 0 { copied[text] = target.objectID(copy) }
        return copy
    }
}

/// The sessions holding appearances' drawings, each read once. A session whose every drawing a writer numbering its
/// own objects has copied (which copies at once) is let go; qpdf's own copy reads them when the document is written.
final class AppearanceSessions {
    /// Each document read, with the resources copied from it (the text of a resource names objects of its document)
    /// and how many of its drawings were made into forms.
    private var read: [Int: (session: QPDFSession, resources: SharedResources, used: Int)] = [:]

    var sessions: [QPDFSession] { read.values.map(\.session) }

    /// The form of drawing `place`, made by `make` from its document's session.
    func form(_ place: AppearanceDrawings.Place, of drawings: AppearanceDrawings, into target: QPDFSession,
              make: (_ session: QPDFSession, _ resources: SharedResources) throws -> qpdf_oh) throws -> qpdf_oh {
        let document = place.document
        if read[document] == nil {
            let session = QPDFSession(label: "the annotations' appearances")
            try OverlayForm.read(try drawings.document(document), into: session)
            read[document] = (session, SharedResources(), 0)
        }
        let (session, resources, used) = read[document]!
        let form = try make(session, resources)
        read[document]!.used = used + 1
        if target.numbersItsNewObjects, used + 1 >= drawings.pageCounts[document] {
            read[document] = nil
            target.forgetCopies(from: session)
        }
        return form
    }
}
