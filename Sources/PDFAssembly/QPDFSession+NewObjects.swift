import CQPDF
import Foundation

/// New objects of a save that is appended (`IncrementalUpdate`), numbered by Redline. qpdf 11 numbers a new object
/// only after resolving every object of the file (`QPDF::fixDanglingReferences`): 4.8 s and 975 MiB before the first
/// new object on a page of 100,000 annotations, for a save that writes a few objects. An update numbers its objects
/// from the trailer's /Size (past every number the cross-reference lists) as other incremental writers do, and qpdf
/// is given each by number (`qpdf_replace_object`, which reads nothing). A new stream's data stays here, its
/// dictionary standing for it in qpdf's table: only the update writes such a session, never qpdf.
struct NewObjectNumbers {
    let first: Int32
    private(set) var next: Int32
    /// The data of the new streams, by number; their dictionaries are the objects qpdf holds under those numbers.
    private(set) var streamData: [Int32: [UInt8]] = [:]

    init(first: Int32) {
        self.first = first
        next = first
    }

    mutating func take() -> Int32? {
        guard next < Int32.max - 1 else { return nil }
        defer { next += 1 }
        return next
    }

    mutating func setData(_ data: [UInt8], of number: Int32) { streamData[number] = data }

    /// Objects whose text Redline wrote, by number: what would cost qpdf a reading of every object it names (a
    /// dictionary of 100,000 appearances: qpdf resolves each value put into a dictionary, to drop nulls). With what
    /// the text names when it was built as a value (nil when only its text is known).
    private(set) var texts: [Int32: (text: [UInt8], named: [(number: Int32, generation: Int32)]?)] = [:]

    mutating func setText(_ text: [UInt8], of number: Int32, naming named: [(number: Int32, generation: Int32)]? = nil) {
        texts[number] = (text, named)
    }

    /// The dictionaries of new streams built as values (forms drawn by the painter), by number; /Length is added
    /// when they are written.
    private(set) var streamEntries: [Int32: [String: ObjectText]] = [:]

    mutating func setEntries(_ entries: [String: ObjectText], ofStream number: Int32) { streamEntries[number] = entries }

    /// The numbers foreign objects were copied under, by the session they came from: what several copies share (the
    /// font of many appearances drawn in one document) is copied once. The session is held so that its identifier
    /// names no other while this one lives.
    var copies: [ObjectIdentifier: (from: QPDFSession, numbers: [Int32: Int32])] = [:]
}

extension QPDFSession {
    /// Numbers new objects here from `first` on, leaving qpdf's own numbering (and its reading of every object) unused.
    func numberNewObjects(from first: Int32) {
        newObjects = NewObjectNumbers(first: first)
        firstNewObjectID = first
    }

    /// Whether this session's new objects exist only for an appended update.
    var numbersItsNewObjects: Bool { newObjects != nil }

    private func takeNumber() throws -> Int32 {
        guard let number = newObjects?.take() else {
            throw Failure(code: qpdf_e_damaged_pdf, message: "\(label): its objects are numbered up to \(Int32.max), so no object can be added")
        }
        return number
    }

    /// `object` (a direct dictionary or array) as a new indirect object.
    func makeIndirect(_ object: qpdf_oh) throws -> qpdf_oh {
        guard newObjects != nil else {
            let indirect = qpdf_make_indirect_object(data, object)
            try check()
            return indirect
        }
        let number = try takeNumber()
        qpdf_replace_object(data, number, 0, object)
        try check()
        return qpdf_get_object_by_id(data, number, 0)
    }

    /// A new stream holding `bytes`, its dictionary empty but for what qpdf adds on writing.
    func newStream(holding bytes: [UInt8]) throws -> qpdf_oh {
        guard newObjects != nil else {
            let stream = try qpdfNewStream()
            try replaceData(of: stream, with: bytes)
            return stream
        }
        let stream = try makeIndirect(qpdf_oh_new_dictionary(data))
        newObjects!.setData(bytes, of: objectID(stream))
        return stream
    }

    /// A stream holding `bytes` (encoded as `entries` say: a /Filter is kept) whose dictionary is `entries`. In a
    /// session numbering its new objects qpdf never holds either: a form per imported annotation would otherwise be
    /// a qpdf dictionary set key by key, and copied and unparsed again to be written.
    func newStream(entries: [String: ObjectText], data bytes: [UInt8]) throws -> qpdf_oh {
        guard newObjects != nil else {
            let stream = try qpdfNewStream()
            let filter = entries["/Filter"].map(handle(for:)) ?? qpdf_oh_new_null(data)
            qpdf_oh_replace_stream_data(data, stream, bytes, bytes.count, filter, qpdf_oh_new_null(data))
            let dictionary = qpdf_oh_get_dict(data, stream)
            for (key, value) in entries where key != "/Filter" { qpdf_oh_replace_key(data, dictionary, key, handle(for: value)) }
            try check()
            return stream
        }
        let stream = try makeIndirect(qpdf_oh_new_dictionary(data))
        newObjects!.setData(bytes, of: objectID(stream))
        newObjects!.setEntries(entries, ofStream: objectID(stream))
        return stream
    }

    /// The dictionary of a stream made by `newStream(entries:data:)` in a session numbering its new objects.
    func newStreamEntries(_ number: Int32) -> [String: ObjectText]? { newObjects?.streamEntries[number] }

    /// A new object written as `text` (a dictionary or array naming only objects of the file), for a session that
    /// numbers its new objects; qpdf holds an empty dictionary in its place, which nothing must read.
    func newObject(text: String) throws -> qpdf_oh {
        let object = try makeIndirect(qpdf_oh_new_dictionary(data))
        newObjects!.setText(Array(text.utf8), of: objectID(object))
        return object
    }

    /// The text of an object made by `newObject(text:)` or written by `write(_:into:)`, with what it names when that
    /// is known without reading it; nil for others.
    func newObjectText(_ number: Int32) -> (text: [UInt8], named: [(number: Int32, generation: Int32)]?)? { newObjects?.texts[number] }

    /// A stream's dictionary, where its keys are set.
    func streamDictionary(_ stream: qpdf_oh) -> qpdf_oh {
        if newObjects?.streamData[objectID(stream)] != nil { return stream }
        return qpdf_oh_get_dict(data, stream)
    }

    /// The data of a stream made by `newStream(holding:)` in a session numbering its new objects; nil for others.
    func newStreamData(_ number: Int32) -> [UInt8]? { newObjects?.streamData[number] }

    /// Whether a new object is written from what Redline built (a text, or a stream's entries and data), not from qpdf.
    func hasOwnText(_ number: Int32) -> Bool {
        guard let newObjects else { return false }
        return newObjects.texts[number] != nil || (newObjects.streamEntries[number] != nil && newObjects.streamData[number] != nil)
    }

    /// Replaces a stream's data: the file's streams through qpdf, a new one's here.
    func replaceData(of stream: qpdf_oh, with bytes: [UInt8]) throws {
        let id = objectID(stream)
        if newObjects?.streamData[id] != nil {
            newObjects!.setData(bytes, of: id)
            return
        }
        qpdf_oh_replace_stream_data(data, stream, bytes, bytes.count, qpdf_oh_new_null(data), qpdf_oh_new_null(data))
        try check()
    }

    /// Lets `foreign` go: nothing more is copied from it, and what was copied stays under its numbers.
    func forgetCopies(from foreign: QPDFSession) {
        newObjects?.copies[ObjectIdentifier(foreign)] = nil
    }

    /// `object` of `foreign` copied into this session with everything it refers to, as `qpdf_oh_copy_foreign_object`
    /// copies (which numbers through qpdf, see above). Each foreign object is copied once, in this call and every
    /// later one from the same session (as qpdf's copy does); streams keep their data as stored, filters and all.
    func copyForeign(_ object: qpdf_oh, from foreign: QPDFSession) throws -> qpdf_oh {
        guard newObjects != nil else {
            let copy = qpdf_oh_copy_foreign_object(data, foreign.data, object)
            try check()
            return copy
        }
        let source = ObjectIdentifier(foreign)
        var numbers = newObjects!.copies[source]?.numbers ?? [:]
        defer { newObjects?.copies[source] = (foreign, numbers) }
        var waiting: [(foreign: qpdf_oh, number: Int32)] = []
        func reference(to indirect: qpdf_oh) throws -> qpdf_oh {
            let id = foreign.objectID(indirect)
            if let known = numbers[id] { return qpdf_get_object_by_id(data, known, 0) }
            let number = try takeNumber()
            numbers[id] = number
            waiting.append((indirect, number))
            // Something stands under the number until the copy does: qpdf takes a reference to nothing for null, and
            // a dictionary entry set to null is no entry.
            qpdf_replace_object(data, number, 0, qpdf_oh_new_dictionary(data))
            return qpdf_get_object_by_id(data, number, 0)
        }
        func value(_ item: qpdf_oh, inside: Bool, leavingOut left: String? = nil) throws -> qpdf_oh {
            if inside, foreign.objectID(item) != 0 { return try reference(to: item) }
            if foreign.isDictionary(item) {
                let copy = qpdf_oh_new_dictionary(data)
                for key in foreign.dictionaryKeys(item) where key != left {
                    qpdf_oh_replace_key(data, copy, key, try value(foreign.key(item, key), inside: true))
                }
                return copy
            }
            if foreign.isArray(item) {
                let copy = qpdf_oh_new_array(data)
                for element in foreign.arrayItems(item) { qpdf_oh_append_item(data, copy, try value(element, inside: true)) }
                return copy
            }
            // A number, name, string, boolean or null, written as qpdf reads it back; a failed parse is an
            // uninitialised handle, which qpdf must never be given inside a dictionary.
            guard let text = qpdf_oh_unparse_resolved(foreign.data, item) else { return qpdf_oh_new_null(data) }
            let copy = qpdf_oh_parse(data, text)
            try check()
            return copy
        }
        let top = foreign.objectID(object) != 0 ? try reference(to: object) : try value(object, inside: false)
        while let (item, number) = waiting.popLast() {
            if foreign.isStream(item) {
                guard let stored = foreign.streamData(item, level: qpdf_dl_none) else {
                    throw Failure(code: qpdf_e_damaged_pdf, message: "\(foreign.label): a stream could not be read")
                }
                // The update writes /Length; the painter's may be an object of its own, which nothing would need.
                let dictionary = try value(qpdf_oh_get_dict(foreign.data, item), inside: false, leavingOut: "/Length")
                qpdf_replace_object(data, number, 0, dictionary)
                newObjects!.setData(stored, of: number)
            } else {
                qpdf_replace_object(data, number, 0, try value(item, inside: false))
            }
        }
        try foreign.check()
        try check()
        return top
    }
}
