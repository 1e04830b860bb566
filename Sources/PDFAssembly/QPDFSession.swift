import CQPDF
import Foundation
import RedlineCore

/// One qpdf_data and the C API's error protocol around it: every call's errors become a thrown Swift error.
/// Object handles (`qpdf_oh`) mean something only with the session that made them.
final class QPDFSession {
    let data: qpdf_data
    let label: String
    /// The bytes qpdf reads from when the document came from memory: they must live as long as the session.
    var input: [UInt8] = []
    /// What Redline itself repaired on opening, in the user's words (qpdf's own repairs are its warnings).
    var repairs: [String] = []
    /// The password the document was opened with, when it was its owner's: the owner may do what the
    /// permissions forbid others.
    var openedByOwner = false

    /// Whether annotations may change: the permissions allow it, or the owner opened the document. qpdf gives the
    /// user password back when opened with it, and something else when the owner password matched.
    func noteOwner(password: String?) {
        guard let password, !password.isEmpty, let user = qpdf_get_user_password(data) else { return }
        openedByOwner = String(cString: user) != password
    }

    var allowsAnnotationChanges: Bool { openedByOwner || qpdf_allow_modify_annotation(data) != 0 }

    /// One null handle for every entry a dictionary lacks, made before any `releasingHandles` could let it go.
    let null: qpdf_oh

    // What an incremental update needs (`IncrementalUpdate`).
    /// Where the document was read from: what an update is appended to.
    var sourcePath: String?
    /// The file at `sourcePath` as it was before it was read: qpdf reads objects from it as they are asked for, so
    /// one changed since (another program rewrote it) gives parts of another document.
    var sourceIdentity: FileIdentity?
    /// Pages the writers changed (the page, its /Annots, its resources): what is compared with the original.
    var changedPages: Set<Int> = []
    /// The file's annotations (object numbers) a writer changed or may have changed, popups and appearances included:
    /// of a changed page's annotations only these are compared, so marking one page of 100,000 annotations does not
    /// read them all twice. A writer that touches an annotation of the file says so here (`noteChanged(annotation:)`).
    var changedAnnotations: Set<Int32> = []
    /// Annotations written as streams, known by their dictionaries' handles (`AnnotationReader`): the stream's number.
    var annotationStreams: [qpdf_oh: Int32] = [:]
    /// Objects of the file whose stream data a writer replaced: the one change comparing dictionaries cannot see.
    var replacedStreamData: Set<Int32> = []
    /// Objects outside the pages and the catalog a writer changed in place (the outline's entries): an appended
    /// update compares them with the original too.
    var alsoChanged: [qpdf_oh] = []
    /// The number qpdf gave the first object made in this session: every object from it on is new.
    var firstNewObjectID: Int32?
    /// qpdf warned about something (a repair) while reading.
    var sawWarnings = false
    /// qpdf could not read an object at all and read it as null (a number past 64 bits in it, a stream /Length it
    /// cannot seek past): what it made of the document lacks that object.
    var lostObjects = false
    /// The writer was asked for a complete rewrite.
    var rewrites = false
    /// The password the document was opened with: a second reading of the original needs it.
    var password: String?
    /// How the last write was made.
    var outcome: WriteOutcome?
    /// The file's own text of its objects (`FileObjects`), found once; nil where the session is not the file's bytes.
    lazy var fileObjects: FileObjects? = FileObjects(session: self)
    /// The pages' objects, read from the file's text without qpdf's page tree; nil when it cannot be read so.
    lazy var pageObjects: [(number: Int32, generation: Int32)]? = {
        let root = qpdf_get_root(data)
        guard objectID(root) != 0 else { return nil }
        return fileObjects?.pages(root: (objectID(root), Int32(qpdf_oh_get_generation(data, root))))
    }()
    /// The pages' objects with their dictionaries, read from the file's text: the painter's documents, whose pages
    /// are each read once to make an appearance of.
    lazy var pageLeaves: [(number: Int32, generation: Int32, entries: [String: ObjectText])]? = {
        let root = qpdf_get_root(data)
        guard objectID(root) != 0 else { return nil }
        return fileObjects?.pageLeaves(root: (objectID(root), Int32(qpdf_oh_get_generation(data, root))))
    }()
    /// New objects numbered by Redline, for an appended update only (`QPDFSession+NewObjects`); nil when qpdf numbers them.
    var newObjects: NewObjectNumbers?

    init(label: String) {
        self.label = label
        data = qpdf_init()
        qpdf_silence_errors(data)
        qpdf_set_suppress_warnings(data, QPDF_TRUE)
        null = qpdf_oh_new_null(data)
    }

    deinit {
        // An error no one asked for (a reading given up on its first failure) is let go with the session: qpdf
        // would print it on stderr, a second line beside Redline's one.
        if qpdf_has_error(data) != 0 { _ = qpdf_get_error(data) }
        var handle: qpdf_data? = data
        qpdf_cleanup(&handle)
    }

    struct Failure: Error {
        let code: qpdf_error_code_e
        let message: String
    }

    /// The file a session reads from changed while it was read: nothing made from it is written.
    static func changedOnDisk(_ path: String) -> Failure {
        Failure(code: qpdf_e_system, message: FileState.changedWhileSaving(path))
    }

    /// Throws the pending error, if any; collects nothing else.
    func check() throws {
        guard qpdf_has_error(data) != 0, let error = qpdf_get_error(data) else { return }
        throw Failure(code: qpdf_get_error_code(data, error), message: text(of: error))
    }

    func check(_ code: QPDF_ERROR_CODE) throws {
        if code & QPDF_ERRORS != 0 { try check() }
    }

    /// Reads a document from memory, keeping the bytes for as long as qpdf may look at them.
    func read(memory bytes: [UInt8], password: String?) throws {
        guard !bytes.isEmpty else { throw Failure(code: qpdf_e_damaged_pdf, message: "\(label): the document is empty") }
        input = bytes
        let code = input.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                qpdf_read_memory(data, label, $0, UInt64(buffer.count), password)
            }
        }
        try check(code)
    }

    /// Starts writing the whole document into memory. qpdf 11 writes the trailer's /Size only where the original
    /// trailer had one: a damaged file without it came out without it too, a copy every reader must repair. A
    /// placeholder is put in first; the writer gives it the true value.
    func beginWritingToMemory() throws {
        let trailer = qpdf_get_trailer(data)
        if qpdf_oh_is_dictionary(data, trailer) != 0, qpdf_oh_has_key(data, trailer, "/Size") == 0 {
            qpdf_oh_replace_key(data, trailer, "/Size", qpdf_oh_new_integer(data, 0))
        }
        try check(qpdf_init_write_memory(data))
    }

    /// Warnings since the last call: what qpdf repaired or doubted.
    func takeWarnings() -> [String] {
        var warnings: [String] = []
        while qpdf_more_warnings(data) != 0, let warning = qpdf_next_warning(data) {
            warnings.append(text(of: warning))
        }
        if !warnings.isEmpty { sawWarnings = true }
        if warnings.contains(where: { $0.contains("error reading object") }) { lostObjects = true }
        return warnings
    }

    /// An error's words, as `check` throws them.
    func message(of error: qpdf_error?) -> String {
        error.map(text(of:)) ?? "unknown error"
    }

    private func text(of error: qpdf_error) -> String {
        let detail = qpdf_get_error_message_detail(data, error).map { String(cString: $0) } ?? ""
        return detail.isEmpty ? (qpdf_get_error_full_text(data, error).map { String(cString: $0) } ?? "unknown error") : detail
    }

    // MARK: Objects

    /// A stream's data at a decode level; nil (its error taken) when qpdf cannot give it.
    func streamData(_ stream: qpdf_oh, level: qpdf_stream_decode_level_e) -> [UInt8]? {
        var buffer: UnsafeMutablePointer<UInt8>?
        var length = 0
        let code = qpdf_oh_get_stream_data(data, stream, level, nil, &buffer, &length)
        defer { free(buffer) }
        guard code & QPDF_ERRORS == 0, let buffer else {
            _ = try? check()
            return nil
        }
        return [UInt8](UnsafeBufferPointer(start: buffer, count: length))
    }

    /// Whether qpdf can number a new object: false when the file mentions object 2147483647. Asked through
    /// `qpdf_make_indirect_object`, which traps the error, with an object nothing refers to, so nothing writes it;
    /// `qpdf_oh_new_stream` would throw the same error past the C API and abort.
    /// Asked once: qpdf counts every object to answer, and a file that could take one more can take the few a save
    /// adds (only 2^31 new objects would fill it).
    var canTakeNewObjects: Bool {
        if let knownToTakeNewObjects { return knownToTakeNewObjects }
        let made = qpdf_make_indirect_object(data, qpdf_oh_new_null(data))
        let answer = qpdf_has_error(data) == 0
        if answer, firstNewObjectID == nil { firstNewObjectID = qpdf_oh_get_object_id(data, made) }
        if !answer { _ = qpdf_get_error(data) }
        knownToTakeNewObjects = answer
        return answer
    }
    private var knownToTakeNewObjects: Bool?

    /// A new, empty stream object numbered by qpdf; throws where qpdf can number no new object rather than abort.
    /// Writers make streams with `newStream(holding:)`, which numbers them as the session does.
    func qpdfNewStream() throws -> qpdf_oh {
        guard canTakeNewObjects else {
            throw Failure(code: qpdf_e_damaged_pdf, message: "\(label): its objects are numbered up to \(Int32.max), so no object can be added")
        }
        return qpdf_oh_new_stream(data)
    }

    /// Runs `body` and then lets go of every handle it made. The C API keeps each handle it returns (every key
    /// read, every array item) in a table until the session ends: reading 100,000 annotations left some five
    /// million there, about a gigabyte. Handles are numbered upwards from one, so what `body` made lies between
    /// two fresh ones. Objects outlive their handles (qpdf-c.h), so what `body` put into the document stays; a
    /// handle made inside must not leave it.
    func releasingHandles<Result>(_ body: () throws -> Result) rethrows -> Result {
        let first = qpdf_oh_new_null(data)
        defer {
            let last = qpdf_oh_new_null(data)
            if last >= first { for handle in first...last { qpdf_oh_release(data, handle) } }
        }
        return try body()
    }

    /// A dictionary's (or a stream dictionary's) entry; null for any other object. A damaged file puts null, a number
    /// or a name where a dictionary belongs, and qpdf's C API turns a key asked of one into an error that fails the
    /// whole job: an entry of something that is no dictionary is absent, as readers take it.
    func key(_ object: qpdf_oh, _ name: String) -> qpdf_oh {
        if qpdf_oh_is_dictionary(data, object) != 0 { return qpdf_oh_get_key(data, object, name) }
        if qpdf_oh_is_stream(data, object) != 0 { return qpdf_oh_get_key(data, qpdf_oh_get_dict(data, object), name) }
        return qpdf_oh_new_null(data)
    }
    func isNull(_ object: qpdf_oh) -> Bool { qpdf_oh_is_null(data, object) != 0 }
    func isDictionary(_ object: qpdf_oh) -> Bool { qpdf_oh_is_dictionary(data, object) != 0 }
    func isArray(_ object: qpdf_oh) -> Bool { qpdf_oh_is_array(data, object) != 0 }
    func isStream(_ object: qpdf_oh) -> Bool { qpdf_oh_is_stream(data, object) != 0 }

    /// A number where a real is allowed: any integer qpdf holds or a real, as a double within the
    /// specification's limits (`PDFLimits.real`); nil for anything else. Poppler reads an integer too large
    /// for 32 bits as a real, so this does too: the geometry must be the page poppler draws.
    func real(_ object: qpdf_oh) -> Double? {
        guard qpdf_oh_is_number(data, object) != 0 else { return nil }
        if qpdf_oh_is_integer(data, object) != 0 { return PDFLimits.real(Double(qpdf_oh_get_int_value(data, object))) }
        return PDFLimits.real(qpdf_oh_get_numeric_value(data, object))
    }

    /// An integer object within 32 bits; nil for reals (as poppler reads /Rotate) and for values past the limits.
    func integer(_ object: qpdf_oh) -> Int? {
        guard qpdf_oh_is_integer(data, object) != 0 else { return nil }
        return PDFLimits.integer(qpdf_oh_get_int_value(data, object))
    }

    /// The raw 64-bit value of an integer object, for fields with their own rules (`PDFLimits.flags`).
    func int64(_ object: qpdf_oh) -> Int64? {
        qpdf_oh_is_integer(data, object) != 0 ? qpdf_oh_get_int_value(data, object) : nil
    }

    func arrayItems(_ object: qpdf_oh) -> [qpdf_oh] {
        guard isArray(object) else { return [] }
        return (0..<qpdf_oh_get_array_n_items(data, object)).map { qpdf_oh_get_array_item(data, object, $0) }
    }

    func dictionaryKeys(_ object: qpdf_oh) -> [String] {
        guard isDictionary(object) || isStream(object) else { return [] }
        var keys: [String] = []
        qpdf_oh_begin_dict_key_iter(data, object)
        while qpdf_oh_dict_more_keys(data) != 0 {
            if let key = qpdf_oh_dict_next_key(data) { keys.append(String(cString: key)) }
        }
        return keys
    }

    /// A rectangle as poppler reads one: four usable numbers, not all zero; nil otherwise, so the box reads as absent.
    func box(_ object: qpdf_oh) -> PDFBox? {
        let items = arrayItems(object)
        guard items.count == 4 else { return nil }
        let numbers = items.compactMap(real)
        return numbers.count == 4 ? Self.box(numbers) : nil
    }

    /// Four numbers as a rectangle poppler reads: not all zero.
    static func box(_ numbers: [Double]) -> PDFBox? {
        numbers.count == 4 && numbers.contains(where: { $0 != 0 }) ? PDFBox(numbers) : nil
    }

    /// An object's identity in the file, for loop checks; direct objects have none.
    func objectID(_ object: qpdf_oh) -> Int32 { qpdf_oh_get_object_id(data, object) }

    /// An annotation of the file a writer changes (or may): what an incremental update compares. One written into
    /// /Annots itself has no number and is compared with the array.
    func noteChanged(annotation object: qpdf_oh) {
        let id = objectID(object)
        if id != 0 { changedAnnotations.insert(id) }
        if let stream = annotationStreams[object] { changedAnnotations.insert(stream) }
    }

    /// A page attribute looked up the way readers do: on the page, else up the /Parent chain.
    func inherited(_ name: String, of page: qpdf_oh) -> qpdf_oh {
        var node = page
        var seen = Set<Int32>()
        for _ in 0..<64 {
            let value = key(node, name)
            if !isNull(value) { return value }
            let parent = key(node, "/Parent")
            let id = objectID(parent)
            guard isDictionary(parent), id == 0 || seen.insert(id).inserted else { break }
            node = parent
        }
        return qpdf_oh_new_null(data)
    }
}

// MARK: Strings and names

extension QPDFSession {
    /// A PDF text string as Swift text (PDFDocEncoding and UTF-16 both decoded by qpdf); nil for other objects.
    func text(_ object: qpdf_oh) -> String? {
        guard qpdf_oh_is_string(data, object) != 0 else { return nil }
        var length = 0
        guard let bytes = qpdf_oh_get_binary_utf8_value(data, object, &length) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
    }

    /// A name without its slash; nil for other objects.
    func name(_ object: qpdf_oh) -> String? {
        guard qpdf_oh_is_name(data, object) != 0, let name = qpdf_oh_get_name(data, object) else { return nil }
        return String(String(cString: name).dropFirst())
    }

    /// Text or name: some writers use names where the specification asks for text (/State /Accepted).
    func textOrName(_ object: qpdf_oh) -> String? { text(object) ?? name(object) }

    func newText(_ value: String) -> qpdf_oh { qpdf_oh_new_unicode_string(data, value) }
    func newName(_ value: String) -> qpdf_oh { qpdf_oh_new_name(data, "/" + value) }
    func newNumber(_ value: Double) -> qpdf_oh { qpdf_oh_parse(data, PDFNumber.format(value)) }
    func newNumbers(_ values: [Double]) -> qpdf_oh {
        qpdf_oh_parse(data, "[" + values.map(PDFNumber.format).joined(separator: " ") + "]")
    }
}
