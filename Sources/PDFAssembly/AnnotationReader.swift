import CQPDF
import Foundation
import RedlineCore

/// Reads every annotation of a document through qpdf's object model: poppler has no getter for /IRT and
/// drops the time of day from dates. Popups fold into their parent and are not returned.
struct AnnotationReader {
    /// An annotation and where it lives in the session, for writing changes back.
    struct Located {
        var annotation: Annotation
        var object: qpdf_oh
        var page: qpdf_oh
        /// Its position in the page's /Annots array.
        var slot: Int
    }

    let session: QPDFSession
    /// Whether annotations are read from the file's own text where they can be (`FileObjects`); off, every one is
    /// read through qpdf, as the tests compare.
    var readsFileText = true

    func read(pages geometries: [PageGeometry]) -> [Located] {
        var located: [Located] = []
        var keys: [ObjectKey?] = []
        // Each page's /Annots, asked once; room made once for all (a list grown by doubling copies itself some 17
        // times for 100,000), within reason: pages may all list one long array.
        let listedPerPage = geometries.indices.map { session.arrayItems(session.key(qpdf_get_page_n(session.data, $0), "/Annots")) }
        let listed = min(listedPerPage.reduce(0) { $0 + $1.count }, 1 << 20)
        located.reserveCapacity(listed)
        keys.reserveCapacity(listed)
        var seen: Set<ObjectKey> = []
        var parentByObject: [Int: (key: ObjectKey, grouped: Bool)] = [:]
        let fileObjects = readsFileText ? session.fileObjects : nil
        for (pageIndex, geometry) in geometries.enumerated() {
            let page = qpdf_get_page_n(session.data, pageIndex)
            let listedObjects = listedPerPage[pageIndex]
            // Each annotation's own text from the file where it can be; the rest through qpdf, which parses every
            // object of the page first, then each is read: what qpdf keeps is not interleaved with what the reading
            // makes and frees, which left 90 MB of gaps in the heap for 100,000 replies.
            let keysListed = listedObjects.map { ObjectKey($0, in: session) }
            let fromFile: [Bool] = keysListed.map { key in key.map { fileObjects?.has(number: $0.number, generation: $0.generation) ?? false } ?? false }
            // An annotation written as a stream (its dictionary followed by data) is read, and changed, by its
            // dictionary, as qpdf and PyMuPDF read it.
            let dictionaries = listedObjects.indices.map {
                fromFile[$0] || session.isDictionary(listedObjects[$0]) || session.isStream(listedObjects[$0])
            }
            for (slot, listedObject) in listedObjects.enumerated() where dictionaries[slot] {
                let key = keysListed[slot]
                // One object listed twice (or on two pages) is one annotation, where it is first listed.
                if let key, !seen.insert(key).inserted { continue }
                let read: (Annotation, parent: ObjectKey?, grouped: Bool, isStream: Bool)? = session.releasingHandles {
                    var entries: ObjectEntries
                    var isStream = false
                    if fromFile[slot], let key, let text = fileObjects?.dictionary(number: key.number, generation: key.generation) {
                        entries = ObjectEntries(text, in: session)
                    } else {
                        isStream = session.isStream(listedObject)
                        guard session.isDictionary(listedObject) || isStream else { return nil }
                        entries = ObjectEntries(of: listedObject, in: session)
                    }
                    let subtype = entries.name("/Subtype") ?? ""
                    if subtype == "Popup" { return nil }
                    return (describe(entries, pageIndex: pageIndex, subtype: subtype, geometry: geometry),
                            entries.reference("/IRT").map { ObjectKey(number: $0.number, generation: $0.generation) },
                            entries.name("/RT") == "Group", isStream)
                }
                guard let (described, parentKey, grouped, isStream) = read else { continue }
                let object = isStream ? qpdf_oh_get_dict(session.data, listedObject) : listedObject
                if isStream { session.annotationStreams[object] = session.objectID(listedObject) }
                var annotation = described
                annotation.order = located.count
                if let parentKey { parentByObject[located.count] = (parentKey, grouped) }
                located.append(Located(annotation: annotation, object: object, page: page, slot: slot))
                keys.append(key)
            }
        }
        // Every name an annotation has is reserved before any duplicate gets a suffix, so `x-3` given to a second
        // `x` can never hide the annotation that is really called `x-3`.
        var names = UniqueNames(reserved: Set(located.map(\.annotation.id)))
        var idByObject: [ObjectKey: AnnotationID] = [:]
        for index in located.indices {
            located[index].annotation.id = names.unique(located[index].annotation.id)
            if let key = keys[index] { idByObject[key] = located[index].annotation.id }
        }
        // /IRT names an object; replies may come before their parent in /Annots, so resolve at the end.
        for (index, parent) in parentByObject {
            guard let parentID = idByObject[parent.key] else { continue }
            located[index].annotation.inReplyTo = parentID
            located[index].annotation.replyType = parent.grouped ? .group : .reply
        }
        return located
    }

    private func describe(_ entries: ObjectEntries, pageIndex: Int, subtype: String, geometry: PageGeometry) -> Annotation {
        let box = entries.box("/Rect") ?? PDFBox(x1: 0, y1: 0, x2: 0, y2: 0)
        let author = entries.text("/T")
        let createdText = entries.text("/CreationDate")
        let modifiedText = entries.text("/M")
        let contents = entries.text("/Contents")
        let state = AnnotationState(model: entries.textOrName("/StateModel"), value: entries.textOrName("/State"))
        let flags = entries.int64("/F").flatMap(PDFLimits.flags) ?? 0
        // Where readers show it: a note or a NoRotate annotation stays upright on a turned page.
        let upright = Annotation.staysUpright(flags: flags, subtype: AnnotationSubtype(rawValue: subtype))
        let rect = geometry.displayRect(fromUser: [box.x1, box.y1, box.x2, box.y2], upright: upright)!
        let name = entries.text("/NM").flatMap { $0.isEmpty ? nil : $0 }
        // Without /NM the id is made from what the annotation says, not from its object number, so it stays the
        // same after a save renumbers the objects.
        let id = name ?? "redline-" + StableHash.hex([String(pageIndex), subtype, [box.x1, box.y1, box.x2, box.y2].map(PDFNumber.format).joined(separator: " "), author ?? "",
                                                       createdText ?? "", modifiedText ?? "", contents ?? ""]
            .joined(separator: "\u{1F}"))
        return Annotation(id: AnnotationID(id), pageIndex: pageIndex, subtype: AnnotationSubtype(rawValue: subtype),
                          rect: rect, author: author, created: createdText.flatMap(PDFDate.init(pdf:)),
                          modified: modifiedText.flatMap(PDFDate.init(pdf:)), contents: contents,
                          state: state, flags: flags,
                          drawing: AnnotationDrawingReader().drawing(of: entries, subtype: subtype, geometry: geometry))
    }

    /// Two annotations with one name (copied without care, or derived from identical content) get `-2`, `-3`…
    /// Each name remembers the next number to try, so 20,000 identical annotations cost 20,000 steps, not 200 million.
    private struct UniqueNames {
        /// Names annotations have of their own: given to the first that has it, never made up for another.
        let reserved: Set<AnnotationID>
        private var taken: Set<AnnotationID> = []
        private var nextNumber: [AnnotationID: Int] = [:]

        init(reserved: Set<AnnotationID>) {
            self.reserved = reserved
        }

        mutating func unique(_ id: AnnotationID) -> AnnotationID {
            guard !taken.insert(id).inserted else { return id }
            var number = nextNumber[id] ?? 2
            var candidate = AnnotationID("\(id.rawValue)-\(number)")
            while reserved.contains(candidate) || !taken.insert(candidate).inserted {
                number += 1
                candidate = AnnotationID("\(id.rawValue)-\(number)")
            }
            nextNumber[id] = number + 1
            return candidate
        }
    }

    /// An indirect object's number and generation.
    private struct ObjectKey: Hashable {
        let number: Int32
        let generation: Int32

        init(number: Int32, generation: Int32) {
            self.number = number
            self.generation = generation
        }

        init?(_ object: qpdf_oh, in session: QPDFSession) {
            let number = session.objectID(object)
            guard number != 0 else { return nil }
            self.number = number
            generation = qpdf_oh_get_generation(session.data, object)
        }
    }
}
