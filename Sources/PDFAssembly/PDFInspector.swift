import CQPDF
import Foundation
import RedlineCore

/// Opens a PDF with qpdf to learn its page geometry: /Rotate, media and crop boxes, inherited from the
/// page tree, which poppler cannot tell apart (0 from 180). Reading repairs what it can and says so.
public enum PDFInspector {
    /// `readingAnnotations: false` leaves the annotations out, for what never looks at them (listing bookmarks):
    /// a page of 100,000 was most of such a command's time and memory.
    /// `keepingForSave`: the reading is kept for the save the same command makes next (`openSessionForWriting`).
    /// `readingOutline`: the outline's folder of bookmarks too, only where they are kept there: finding it walks the
    /// whole outline (20,000 entries added a third of a second to every open).
    public static func describe(path: String, password: String?, readingAnnotations: Bool = true,
                                keepingForSave: Bool = false, readingOutline: Bool = false) throws -> DocumentDescription {
        try describe(path: path, password: password, readingAnnotations: readingAnnotations, mendingTried: false,
                     keepingForSave: keepingForSave, readingOutline: readingOutline)
    }

    /// A reading `describe` made, kept for the save that follows in the same command (`apply`): reading the file
    /// again, parsing its cross-reference twice (qpdf's and `FileObjects`') and walking its page tree was a fifth of
    /// a one-page save of a book. One at a time, kept only when asked (the editor, which saves much later, never
    /// asks), only a reading that repaired nothing, and taken, not shared, by the first `openSessionForWriting` of
    /// the same file as it still is on disk.
    nonisolated(unsafe) private static var keptForSave: QPDFSession?
    private static let keptForSaveLock = NSLock()

    private static func keepForSave(_ session: QPDFSession) {
        keptForSaveLock.withLock { keptForSave = session }
    }

    private static func takeKeptForSave(path: String, password: String?) -> QPDFSession? {
        keptForSaveLock.withLock {
            defer { keptForSave = nil }
            guard let kept = keptForSave, kept.sourcePath == path, kept.password == password,
                  let identity = kept.sourceIdentity, SourceFile(path: path)?.identity == identity else { return nil }
            return kept
        }
    }

    /// What bookmarks are read from, without reading the pages: the metadata packet, the /ID, the permissions, and
    /// the page count the page tree's root states: listing a manual's bookmarks parsed every page object. A root
    /// without a usable /Count is counted as `describe` counts, and so is one whose count places bookmarks
    /// (`pagesCounted`): a /Count that is wrong would hide bookmarks or show some on pages the file has not.
    /// `readingOutline`: the outline's folder of bookmarks too, and the page labels its titles use.
    public static func bookmarkSources(path: String, password: String?, readingOutline: Bool = false) throws -> BookmarkSources {
        let session = try openSession(path: path, password: password, readingPages: false)
        let root = session.key(qpdf_get_root(session.data), "/Pages")
        guard session.isDictionary(root), let count = session.integer(session.key(root, "/Count")), count > 0,
              count <= Int(Int32.max), session.isArray(session.key(root, "/Kids")), session.takeWarnings().isEmpty else {
            return BookmarkSources(try describe(path: path, password: password, readingAnnotations: false, readingOutline: readingOutline))
        }
        var sources = BookmarkSources(pageCount: Int(count), metadata: nil, metadataProblem: nil,
                                      permanentID: DocumentMetadata.permanentID(in: session),
                                      allowsChanges: session.openedByOwner || qpdf_allow_modify_other(session.data) != 0)
        switch DocumentMetadata.read(in: session) {
        case .none: break
        case .packet(let packet): sources.metadata = packet
        case .unreadable(let reason): sources.metadataProblem = reason
        }
        if readingOutline {
            sources.outlineFolder = OutlineFolderAccess.read(in: session)
            sources.pageLabels = PageLabelReader.read(in: session, pageCount: Int(count))
        }
        return sources
    }

    private static func describe(path: String, password: String?, readingAnnotations: Bool, mendingTried: Bool,
                                 keepingForSave: Bool = false, readingOutline: Bool) throws -> DocumentDescription {
        let session = try openSession(path: path, password: password)
        let count = qpdf_get_num_pages(session.data)
        do {
            try session.check()
        } catch let failure as QPDFSession.Failure {
            throw DocumentError.damaged(path: path, reason: failure.message)
        }
        guard count > 0 else { throw DocumentError.damaged(path: path, reason: "the page tree is damaged: no pages found") }
        let pages = geometries(in: session)
        let annotations = readingAnnotations ? AnnotationReader(session: session).read(pages: pages).map(\.annotation) : []
        let (damaged, lost, repairs, objectsLost) = repairsSaid(in: session)
        // qpdf met an object it could not read only now, reading pages and annotations (a file whose cross-reference is
        // intact is read lazily): the mended copy may keep it, and then is what this process reads the file from.
        if objectsLost, !mendingTried, let identity = session.sourceIdentity, !MendedFiles.contains(identity),
           let mended = rebuiltSession(path: path, password: password, onlyMending: true),
           qpdf_get_num_pages(mended.data) >= count {
            MendedFiles.insert(identity)
            return try describe(path: path, password: password, readingAnnotations: readingAnnotations, mendingTried: true,
                                readingOutline: readingOutline)
        }
        if keepingForSave, session.repairs.isEmpty, damaged.isEmpty, lost == nil, repairs.isEmpty, !objectsLost {
            keepForSave(session)
        }
        var description = DocumentDescription(pages: pages, repairs: (lost.map { [$0] } ?? []) + repairs,
                                              isEncrypted: qpdf_is_encrypted(session.data) != 0, annotations: annotations,
                                              allowsAnnotationChanges: session.allowsAnnotationChanges)
        description.allowsChanges = session.openedByOwner || qpdf_allow_modify_other(session.data) != 0
        switch DocumentMetadata.read(in: session) {
        case .none: break
        case .packet(let packet): description.metadata = packet
        case .unreadable(let reason): description.metadataProblem = reason
        }
        description.permanentID = DocumentMetadata.permanentID(in: session)
        description.pageLabels = PageLabelReader.read(in: session, pageCount: Int(count))
        if readingOutline { description.outlineFolder = OutlineFolderAccess.read(in: session) }
        description.crowdedPages = crowdedPages(in: session)
        description.signedPages = SignedPages.indices(in: session)
        description.damagedPages = damaged
        return description
    }

    /// Every page's boxes and rotation, inherited from the page tree.
    static func geometries(in session: QPDFSession) -> [PageGeometry] {
        let count = max(0, Int(qpdf_get_num_pages(session.data)))
        return (0..<count).map { index in
            let page = qpdf_get_page_n(session.data, index)
            guard let mediaBox = session.box(session.inherited("/MediaBox", of: page)), !mediaBox.isEmpty else {
                // Readers fall back to US Letter when a page has no usable media box.
                return PageGeometry(mediaBox: PDFBox(x1: 0, y1: 0, x2: 612, y2: 792))
            }
            let cropBox = session.box(session.inherited("/CropBox", of: page))
            let rotate = session.integer(session.inherited("/Rotate", of: page)) ?? 0
            return PageGeometry(mediaBox: mediaBox, cropBox: cropBox, rotation: PageRotation(degrees: rotate))
        }
    }

    /// Reads a file into a session, turning qpdf's errors into the user's words. A file qpdf cannot read,
    /// or whose pages it cannot find, gets its cross-reference rebuilt (`CrossReferenceRebuilder`) and is
    /// read again from memory; page tree counts are corrected (`PageTreeCounts`). What was repaired is in
    /// the session's `repairs`. `repairing: false` reads the file exactly as it is, for checking a copy;
    /// `readingPages: false` leaves the page tree unread (its shape, its counts), for reading only the catalog,
    /// the trailer and what they name.
    static func openSession(path: String, password: String?, repairing: Bool = true, readingPages: Bool = true) throws -> QPDFSession {
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT { throw DocumentError.notFound(path: path) }
            throw DocumentError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        // A device or a FIFO would be read for ever (/dev/zero never ends); a folder is no document.
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw DocumentError.unreadable(path: path, reason: status.st_mode & S_IFMT == S_IFDIR ? "it is a folder" : "it is not a regular file")
        }
        guard status.st_size > 0 else { throw DocumentError.damaged(path: path, reason: "the file is empty") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw DocumentError.unreadable(path: path, reason: "permission denied")
        }
        var session = QPDFSession(label: path)
        let identity = FileIdentity(status)
        do {
            if isDense(path: path, size: Int(status.st_size)) {
                try session.read(memory: try wholeFile(path: path, size: Int(status.st_size)), password: password)
            } else {
                try session.check(qpdf_read(session.data, path, password))
            }
            if readingPages, !PageTreeShape.measuredWell(identity) {
                if let refusal = PageTreeShape.refusal(in: session) { throw DocumentError.damaged(path: path, reason: refusal) }
                PageTreeShape.noteMeasuredWell(identity)
            }
            let pages = readingPages ? qpdf_get_num_pages(session.data) : 0
            try session.check()
            // qpdf rebuilt the cross-reference itself, trusting every stream's /Length: a stream whose length is
            // wrong past what it recovers from (one near 2^63) is lost with its page, where MuPDF finds its data.
            if repairing, qpdf_more_warnings(session.data) != 0 || MendedFiles.contains(identity),
               let mended = rebuiltSession(path: path, password: password, onlyMending: true),
               !readingPages || qpdf_get_num_pages(mended.data) >= pages {
                session = mended
            }
        } catch let failure as QPDFSession.Failure {
            switch failure.code {
            case qpdf_e_password:
                throw password == nil ? DocumentError.passwordRequired(path: path) : DocumentError.wrongPassword(path: path)
            case qpdf_e_system:
                throw DocumentError.unreadable(path: path, reason: failure.message)
            default:
                guard repairing, let rebuilt = rebuiltSession(path: path, password: password)
                        ?? withoutNonPageKids(path: path, password: password) else {
                    throw DocumentError.damaged(path: path, reason: inWords(failure.message))
                }
                session = rebuilt
            }
        }
        session.noteOwner(password: password)
        session.sourcePath = path
        session.sourceIdentity = identity
        session.password = password
        if repairing, readingPages {
            let corrected = PageTreeCounts.correct(in: session)
            if corrected > 0 { session.repairs.append("page tree /Count corrected in \(corrected) place\(corrected == 1 ? "" : "s")") }
        }
        return session
    }

    /// Whether a file is better parsed from memory: one of many small objects, up to 64 MiB. qpdf reads a file through
    /// stdio and seeks before every object it parses, a system call each: 1.8 of 6.5 s for 100,000 annotations. A
    /// file large for its images (a scan: tens of kilobytes per object) keeps being read from disk, where a copy in
    /// memory would cost more than its few seeks. The trailer's /Size says how many objects the file numbers, read
    /// from its end; without one found there, objects are counted by their `endobj` in a pass of 1 MiB reads
    /// (objects inside object streams are parsed from memory by qpdf anyway, and are rightly not counted).
    private static func isDense(path: String, size: Int) -> Bool {
        guard size <= 64 << 20 else { return false }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        if let numbered = numberedObjects(descriptor, size: size) { return numbered > 0 && size / numbered < 2048 }
        let marker = Array("endobj".utf8)
        var chunk = [UInt8](repeating: 0, count: (1 << 20) + marker.count)
        var carried = 0
        var objects = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + carried, 1 << 20) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            let filled = carried + count
            chunk.withUnsafeBytes { buffer in
                // memchr finds each `e`; the rest of the marker is compared there (memmem is not in Swift's Glibc).
                var start = buffer.baseAddress!
                let end = start + filled
                while end - start >= marker.count, let found = memchr(start, Int32(marker[0]), end - start - marker.count + 1) {
                    let candidate = UnsafeRawPointer(found)
                    if memcmp(candidate, marker, marker.count) == 0 { objects += 1 }
                    start = candidate + 1
                }
            }
            // The last few bytes go first in the next read, so a marker across two reads is found once.
            carried = min(marker.count - 1, filled)
            chunk.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: $0.baseAddress! + filled - carried, byteCount: carried) }
        }
        return objects > 0 && size / objects < 2048
    }

    /// The trailer's /Size (one more than the highest object number): in the last 4 KiB of the file (a table's
    /// trailer), or at the start of the cross-reference stream `startxref` names. Nil when neither says it.
    private static func numberedObjects(_ descriptor: Int32, size: Int) -> Int? {
        func read(_ offset: Int, _ count: Int) -> ArraySlice<UInt8>? {
            guard offset >= 0, offset < size else { return nil }
            var bytes = [UInt8](repeating: 0, count: min(count, size - offset))
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, $0.count, off_t(offset)) }
            guard got > 0 else { return nil }
            return bytes[..<got]
        }
        func sizeKey(in bytes: ArraySlice<UInt8>) -> Int? {
            guard let key = FileEndBytes.last("/Size", in: bytes) else { return nil }
            var index = key + 5
            while index < bytes.endIndex, FileEndBytes.isWhitespace(bytes[index]), bytes[index] != 0 { index += 1 }
            return FileEndBytes.number(in: bytes, at: &index, digits: 10)
        }
        guard let end = read(max(0, size - 4096), 4096) else { return nil }
        let marker = FileEndBytes.last("startxref", in: end)
        if let marker, let trailer = FileEndBytes.last("trailer", in: end[..<marker]) {
            return sizeKey(in: end[(trailer + 7)..<marker])
        }
        // `startxref`, the offset, then `%%EOF`: the offset is what stands before a letter or `%`, white space aside.
        guard let marker else { return nil }
        var index = marker + 9
        while index < end.endIndex, FileEndBytes.isWhitespace(end[index]) { index += 1 }
        guard let offset = FileEndBytes.number(in: end, at: &index, digits: 18) else { return nil }
        while index < end.endIndex, FileEndBytes.isWhitespace(end[index]) { index += 1 }
        guard index == end.endIndex || end[index] == UInt8(ascii: "%") || (end[index] | 0x20) >= 0x61 && (end[index] | 0x20) <= 0x7A,
              let stream = read(offset, 4096), let dictionaryEnd = FileEndBytes.first("stream", in: stream) else { return nil }
        return sizeKey(in: stream[..<dictionaryEnd])
    }

    /// A file's bytes as `stat` sized them, read in one go: what it held when it was opened. Not
    /// `FileManager.contents` as `rebuiltSession` reads: qpdf needs bytes that stay put ([UInt8], not Data, whose
    /// small form lives inline), and converting its Data copies the file: 25 MiB more at the peak of listing 100,000
    /// annotations.
    private static func wholeFile(path: String, size: Int) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw DocumentError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, size - filled) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw DocumentError.unreadable(path: path, reason: String(cString: strerror(errno))) }
            if count == 0 { break }
            filled += count
        }
        bytes.removeLast(size - filled)
        return bytes
    }

    /// A session to change and write: as `openSession`, and able to take new objects. qpdf numbers a new object one
    /// past the highest number the file mentions, and a file that mentions 2147483647 (a dangling reference is
    /// enough) leaves it none: such a file is renumbered first, written whole into memory by qpdf (which numbers
    /// what it writes from 1, and writes a dangling reference as null) and read again. Annotation ids do not depend
    /// on object numbers, so the edits still find what they name.
    /// `forAppending`: new objects are numbered by Redline when the save will be appended (`QPDFSession+NewObjects`),
    /// and the file's highest number matters only to that.
    static func openSessionForWriting(path: String, password: String?, forAppending: Bool = false, rewrite: Bool = false) throws -> QPDFSession {
        let session = try takeKeptForSave(path: path, password: password) ?? openSession(path: path, password: password)
        session.rewrites = rewrite
        if forAppending, let objects = session.fileObjects, let first = IncrementalUpdate.appendedNumbering(for: session, fileObjects: objects) {
            session.numberNewObjects(from: first)
            return session
        }
        guard !session.canTakeNewObjects else { return session }
        do {
            try session.beginWritingToMemory()
            qpdf_set_decode_level(session.data, qpdf_dl_none)
            qpdf_set_preserve_encryption(session.data, QPDF_TRUE)
            try session.check(qpdf_write(session.data))
            guard let buffer = qpdf_get_buffer(session.data) else { throw QPDFSession.Failure(code: qpdf_e_damaged_pdf, message: "no output") }
            let renumbered = QPDFSession(label: path)
            try renumbered.read(memory: [UInt8](UnsafeBufferPointer(start: buffer, count: qpdf_get_buffer_length(session.data))),
                                password: password)
            renumbered.openedByOwner = session.openedByOwner
            renumbered.rewrites = rewrite
            renumbered.repairs = session.repairs + ["objects renumbered: the file numbers one \(Int32.max), past which qpdf can add none"]
            guard renumbered.canTakeNewObjects else { throw QPDFSession.Failure(code: qpdf_e_damaged_pdf, message: "still full") }
            return renumbered
        } catch {
            throw DocumentError.damaged(path: path, reason: "its objects are numbered up to \(Int32.max), so nothing can be added to it, and renumbering them failed")
        }
    }

    /// The file read again with the kids of its page tree that are no page or node (a null) left out: qpdf 11 stops
    /// at one and refuses the document, poppler passes over it. Nil when there is none, or the tree still gives no
    /// pages. A fresh reading: qpdf keeps the part of its page list it made before it stopped.
    private static func withoutNonPageKids(path: String, password: String?) -> QPDFSession? {
        let session = QPDFSession(label: path)
        do {
            try session.check(qpdf_read(session.data, path, password))
            guard PageTreeShape.refusal(in: session) == nil else { return nil }
            let dropped = PageTreeKids.dropNonPages(in: session)
            guard dropped > 0 else { return nil }
            let pages = qpdf_get_num_pages(session.data)
            try session.check()
            guard pages > 0 else { return nil }
            _ = session.takeWarnings()
            session.repairs.append("\(dropped) entr\(dropped == 1 ? "y" : "ies") of the page tree that \(dropped == 1 ? "is" : "are") no page left out")
            return session
        } catch {
            return nil
        }
    }

    /// The file read again with a cross-reference Redline rebuilt; nil when that does not give a document
    /// with pages either.
    /// Rebuilding reads the whole file into memory and scans it: only for files up to this size.
    static let largestRebuilt = 256 << 20

    private static func rebuiltSession(path: String, password: String?, onlyMending: Bool = false) -> QPDFSession? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_size <= largestRebuilt,
              let original = FileManager.default.contents(atPath: path),
              let rebuilt = CrossReferenceRebuilder.rebuild(original, password: password, onlyMending: onlyMending) else { return nil }
        let session = QPDFSession(label: path)
        do {
            try session.read(memory: [UInt8](rebuilt.data), password: password)
            let pages = qpdf_get_num_pages(session.data)
            try session.check()
            guard pages > 0 else { return nil }
        } catch {
            return nil
        }
        _ = session.takeWarnings()
        // Mending alone leaves the file's cross-reference as it was: what was mended is the news.
        if !onlyMending { session.repairs.append("cross-reference rebuilt from the \(rebuilt.objectCount) objects found") }
        if rebuilt.mendedStreams > 0 {
            session.repairs.append("\(rebuilt.mendedStreams) stream\(rebuilt.mendedStreams == 1 ? "" : "s") read to their endstream, their /Length being wrong")
        }
        if rebuilt.widenedObjects > 0 {
            session.repairs.append("\(rebuilt.widenedObjects) object\(rebuilt.widenedObjects == 1 ? "" : "s") read with numbers too long for 64 bits as reals")
        }
        return session
    }

    /// Pages whose /Annots lists more than poppler makes a page with, and how many.
    static func crowdedPages(in session: QPDFSession) -> [Int: Int] {
        var crowded: [Int: Int] = [:]
        for index in 0..<max(0, Int(qpdf_get_num_pages(session.data))) {
            let count = session.releasingHandles { () -> Int in
                let list = session.key(qpdf_get_page_n(session.data, index), "/Annots")
                return session.isArray(list) ? Int(qpdf_oh_get_array_n_items(session.data, list)) : 0
            }
            if count > DocumentDescription.mostAnnotationsPopplerDraws { crowded[index] = count }
        }
        return crowded
    }

    /// The document as qpdf reads it after every repair, written whole into memory: what poppler draws from when it
    /// cannot read the damaged file itself, or reads a different number of pages from it. `crowded`: pages listing
    /// more annotations than poppler makes a page with (it refuses such a page and every one after it) list none in
    /// the copy; their content is drawn, their annotations stay listed from qpdf's reading.
    public static func copyForDrawing(path: String, password: String?, crowded pages: Set<Int> = []) throws -> Data {
        let session = try openSession(path: path, password: password)
        if !pages.isEmpty, let appended = appendedCopy(session, leavingAnnotationsOff: pages) { return appended }
        do {
            for index in pages.sorted() where index < Int(qpdf_get_num_pages(session.data)) {
                qpdf_oh_remove_key(session.data, qpdf_get_page_n(session.data, index), "/Annots")
            }
            DocumentMetadata.keepOversizedStreamAsStored(in: session)
            try session.beginWritingToMemory()
            qpdf_set_decode_level(session.data, qpdf_dl_none)
            try session.check(qpdf_write(session.data))
        } catch let failure as QPDFSession.Failure {
            throw DocumentError.damaged(path: path, reason: failure.message)
        }
        guard let bytes = qpdf_get_buffer(session.data) else {
            throw DocumentError.damaged(path: path, reason: pages.isEmpty ? "it could not be repaired" : "no copy could be made")
        }
        return Data(bytes: bytes, count: qpdf_get_buffer_length(session.data))
    }

    /// The file with an update appended that lists no annotations on `pages`: nothing else of it is read or written.
    /// A complete copy would make qpdf resolve every object of the file (1 GiB for a page of 100,000 annotations).
    /// Nil where an update cannot be appended (a repaired or encrypted file): the copy is made whole then.
    private static func appendedCopy(_ session: QPDFSession, leavingAnnotationsOff pages: Set<Int>) -> Data? {
        guard let objects = session.fileObjects, objects.highest < Int32.max - 1 else { return nil }
        // No object is made: the first number one would get is past every number the file lists.
        session.firstNewObjectID = objects.highest + 1
        let count = Int(qpdf_get_num_pages(session.data))
        for index in pages.sorted() where index < count {
            qpdf_oh_remove_key(session.data, qpdf_get_page_n(session.data, index), "/Annots")
            session.changedPages.insert(index)
        }
        guard IncrementalUpdate.obstacle(session) == nil,
              let (written, _) = try? IncrementalUpdate.document(of: session, minimumVersion: nil), let written else { return nil }
        var copy: Data
        if !session.input.isEmpty {
            copy = Data(session.input)
        } else {
            guard let prefix = written.prefix, let source = SourceFile(path: prefix.path), source.identity == prefix.identity else { return nil }
            copy = Data(source.read(0, prefix.length))
            guard copy.count == prefix.length else { return nil }
        }
        copy.append(written.bytes)
        return copy
    }

    /// Keeps the status line short: the first repair, and how many more.
    /// qpdf's words for a file nothing could be rebuilt from, in the user's: what is wrong with the file, not with
    /// qpdf's recovery. Other messages are qpdf's own, which name the object and offset.
    static func inWords(_ message: String) -> String {
        if message.contains("unable to find trailer dictionary") {
            return "it has no trailer, and none could be rebuilt from what is left (the file is cut short, or is not a PDF)"
        }
        if message.contains("operation for dictionary attempted on object of type null") {
            return "its catalog or page tree is missing (the file is cut short, or damaged past repair)"
        }
        return message
    }

    /// What reading the session repaired, summarised, and the pages a repair could not read whole (with what to say
    /// of them): only a document that needed repair is looked through for those.
    /// `objectsLost`: qpdf could not read an object at all and reads it as null (a number past 64 bits in it, a
    /// stream /Length it cannot seek past).
    static func repairsSaid(in session: QPDFSession) -> (damaged: [Int], lost: String?, repairs: [String], objectsLost: Bool) {
        let warnings = session.takeWarnings()
        let (damaged, lost) = DamagedPages.note(in: session, warnings: warnings)
        let all = warnings + session.takeWarnings()
        return (damaged, lost, summarise(session.repairs + all), session.lostObjects)
    }

    static func summarise(_ warnings: [String]) -> [String] {
        guard let first = warnings.first else { return [] }
        return warnings.count == 1 ? [first] : [first, "and \(warnings.count - 1) more repair\(warnings.count == 2 ? "" : "s")"]
    }
}
