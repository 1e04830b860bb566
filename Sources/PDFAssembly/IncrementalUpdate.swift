import CQPDF
import CZlib
import Foundation
import RedlineCore

/// Saving by appending (ISO 32000-1 §7.5.6): the original bytes, untouched, then the objects the save changed or
/// made, a cross-reference section of the kind the file ends with (a table, or a stream) pointing back at the
/// original's with /Prev, and a trailer. Signatures over the original bytes stay valid, and a save costs what
/// changed, not the file.
///
/// What changed is found by comparison, not by trusting every write to say so: the pages the writers changed
/// (`QPDFSession.changedPages`) and everything they reach (other pages, and the annotations no writer named in
/// `QPDFSession.changedAnnotations`, apart), the catalog and its metadata are compared, object by object, with the
/// original as a second qpdf reads it; objects numbered from the session's first new one are new, and those the
/// changed ones reach are written. qpdf's C API cannot write one object, so
/// objects are written from qpdf's own unparsed text and raw stream data.
enum IncrementalUpdate {
    /// Why this session is rewritten whole, or nil when appending to it is right as far as the session tells (the
    /// file's end is looked at by `original(of:)`).
    static func obstacle(_ session: QPDFSession) -> String? {
        if session.rewrites { return WriteOutcome.rewriteAsked }
        if qpdf_is_encrypted(session.data) != 0 { return "the document is encrypted, and new objects cannot be encrypted here" }
        // What was repaired is named: a page tree's counts put right said "cross-reference", which was whole.
        if !session.repairs.isEmpty { return "the document was repaired on opening (\(session.repairs.joined(separator: "; "))), and is written as repaired" }
        if session.sawWarnings || qpdf_more_warnings(session.data) != 0 {
            return "the document was repaired on opening: its own cross-reference is not one to append to"
        }
        if session.sourcePath == nil { return "the document was not read from a file" }
        return nil
    }

    /// A save whose new objects Redline numbered (`QPDFSession+NewObjects`) found it cannot be appended after all (qpdf
    /// met damage while the writers read): it is made again with qpdf numbering them, and written whole.
    struct CannotAppend: Error {
        let reason: String
    }

    /// Runs a save with new objects numbered for an appended update first, and again with qpdf's numbering when
    /// appending turned out to be wrong.
    static func numberingNewObjects<Result>(_ save: (_ forAppending: Bool) throws -> Result) throws -> Result {
        do {
            do {
                return try save(true)
            } catch is CannotAppend {
                return try save(false)
            }
        } catch is MendingNeeded {
            // The file is read from its mended copy now (`MendedFiles`), which is not thrown again for.
            return try numberingNewObjects(save)
        }
    }

    /// A save met an object qpdf could not read, in a file not yet read from its mended copy (`MendedFiles`).
    struct MendingNeeded: Error {}

    /// Whether a save of this session will be appended (what `document(of:)` finds, before anything is changed), and
    /// the number its first new object gets: the trailer's /Size or one past the highest number the cross-reference
    /// lists, whichever is more. Nil when it will be rewritten.
    static func appendedNumbering(for session: QPDFSession, fileObjects: FileObjects) -> Int32? {
        guard obstacle(session) == nil, (try? original(of: session)) != nil else { return nil }
        let size = session.int64(session.key(qpdf_get_trailer(session.data), "/Size")) ?? 0
        let first = max(Int64(fileObjects.highest) + 1, min(max(size, 1), Int64(Int32.max)))
        // Room for the objects of a save (the painter's fonts, one appearance per annotation) and a cross-reference stream.
        guard first < Int64(Int32.max) - (1 << 24) else { return nil }
        return Int32(first)
    }

    /// The original's bytes by offset, its size and its last cross-reference section; throws why when they are not
    /// one to append to.
    private static func original(of session: QPDFSession) throws -> (read: ReadAt, size: Int, tail: Tail) {
        guard let path = session.sourcePath, let opened = session.sourceIdentity, let source = SourceFile(path: path),
              opened == source.identity else { throw CannotAppend(reason: "the original could not be read again") }
        let input = session.input
        let size = source.size
        let read: ReadAt = !input.isEmpty ? { offset, count in
            guard offset >= 0, offset < input.count else { return [] }
            return Array(input[offset..<min(input.count, offset + count)])
        } : source.read
        guard let tail = Tail(size: size, read: read) else { throw CannotAppend(reason: "the file does not end with a cross-reference to append to") }
        // qpdf forgives a table other readers cannot parse; an update pointing back at it would make them repair the file.
        guard tail.kind == .stream || Tail.wellFormedTables(size: size, read: read, from: tail.startXref) else {
            throw CannotAppend(reason: "its cross-reference table is not well-formed")
        }
        return (read, size, tail)
    }

    /// The update to append to the original's bytes, or nil (with why) when the document must be rewritten. The
    /// original is read where it is: its end and its cross-reference tables by offset, its objects by a second qpdf
    /// (from memory when the session was read from memory), and its bytes copied by the file system when written.
    static func document(of session: QPDFSession, minimumVersion: String?) throws -> (WrittenDocument?, WriteOutcome) {
        do {
            return try appended(session, minimumVersion: minimumVersion)
        } catch let refusal as CannotAppend where !session.numbersItsNewObjects {
            return (nil, .rewritten(because: refusal.reason))
        }
    }

    private static func appended(_ session: QPDFSession, minimumVersion: String?) throws -> (WrittenDocument?, WriteOutcome) {
        if let obstacle = obstacle(session) { throw CannotAppend(reason: obstacle) }
        guard let firstNew = session.firstNewObjectID else { throw CannotAppend(reason: "the document was not read from a file") }
        guard let path = session.sourcePath, let opened = session.sourceIdentity, let source = SourceFile(path: path) else {
            throw CannotAppend(reason: "the original could not be read again")
        }
        // A session read from memory holds the file's bytes as they were: a file changed since is another document.
        guard opened == source.identity else { throw QPDFSession.changedOnDisk(path) }
        let input = session.input
        let inMemory = !input.isEmpty
        let (read, size, tail) = try original(of: session)
        let before = QPDFSession(label: session.label)
        do {
            if inMemory {
                try before.read(memory: input, password: session.password)
            } else {
                try before.check(qpdf_read(before.data, path, session.password))
            }
        } catch {
            throw CannotAppend(reason: "the original could not be read again")
        }
        let kept = KeptBytes(path: path, length: size, identity: opened)
        if let minimumVersion { raiseVersion(of: session, to: minimumVersion) }
        var writer = Writer(session: session, before: before, firstNew: firstNew)
        var objects = try writer.changedObjects()
        if objects.isEmpty {
            // Nothing differs (an XFDF file's own annotations imported again): the copy is the original, unless the
            // trailer changed (a document without /ID given one), which an update with the catalog in it carries.
            guard writer.trailerChanged() else { return (WrittenDocument(prefix: kept, bytes: Data(), outcome: .unchanged), .unchanged) }
            let root = qpdf_get_root(session.data)
            objects = [Object(id: session.objectID(root), generation: Int32(qpdf_oh_get_generation(session.data, root)))]
        }
        var update = Data()
        if let last = read(size - 1, 1).first, last != 0x0A, last != 0x0D { update.append(0x0A) }
        var offsets: [(id: Int32, generation: Int32, offset: Int)] = []
        for object in objects {
            offsets.append((object.id, object.generation, size + update.count))
            update.append(try writer.text(of: object))
        }
        let xrefOffset = size + update.count
        update.append(try writer.crossReference(offsets, at: xrefOffset, kind: tail.kind, previous: tail.startXref))
        update.append(contentsOf: Array("startxref\n\(xrefOffset)\n%%EOF\n".utf8))
        withExtendedLifetime(before) {}
        let outcome = WriteOutcome.appended(bytes: update.count)
        var document = WrittenDocument(prefix: kept, bytes: update, outcome: outcome)
        document.appendedObjects = offsets.map { AppendedObject(number: $0.id, generation: $0.generation, offset: $0.offset) }
        return (document, outcome)
    }

    /// A header older than the markup needs is raised by the catalog's /Version (§7.7.2), as an update must.
    private static func raiseVersion(of session: QPDFSession, to minimum: String) {
        let header = qpdf_get_pdf_version(session.data).map { String(cString: $0) } ?? "1.0"
        let root = qpdf_get_root(session.data)
        let stated = session.name(session.key(root, "/Version")) ?? header
        guard let have = Double(stated), let want = Double(minimum), have < want, let headerValue = Double(header), headerValue < want else { return }
        qpdf_oh_replace_key(session.data, root, "/Version", session.newName(minimum))
    }

    /// Bytes of the original by offset: fewer at its end.
    typealias ReadAt = (_ offset: Int, _ count: Int) -> [UInt8]

    /// Where the file's last cross-reference section is, and of which kind.
    struct Tail {
        enum Kind { case table, stream }
        let startXref: Int
        let kind: Kind

        init?(size: Int, read: ReadAt) {
            let marker = Array("startxref".utf8)
            let window = max(0, size - 4096)
            let end = read(window, size - window)
            guard end.count == size - window, end.count > marker.count,
                  let foundHere = stride(from: end.count - marker.count, through: 0, by: -1).first(where: {
                      end[$0..<($0 + marker.count)].elementsEqual(marker)
                  }) else { return nil }
            let found = window + foundHere
            var index = foundHere + marker.count
            while index < end.count, [0x20, 0x0A, 0x0D, 0x09, 0x0C, 0x00].contains(end[index]) { index += 1 }
            var value = 0
            var digits = 0
            while index < end.count, (0x30...0x39).contains(end[index]), digits < 15 {
                value = value * 10 + Int(end[index] - 0x30)
                index += 1
                digits += 1
            }
            guard digits > 0, value > 0, value < found else { return nil }
            let there = read(value, 1024)
            var at = 0
            while at < there.count, [0x20, 0x0A, 0x0D, 0x09, 0x0C, 0x00].contains(there[at]) { at += 1 }
            if there[at..<min(there.count, at + 4)].elementsEqual(Array("xref".utf8)) {
                kind = .table
            } else {
                // "N G obj": an object, the cross-reference stream.
                guard FileEndBytes.startsWithObjectHeader(there[at..<min(there.count, at + 32)]) else { return nil }
                kind = .stream
            }
            startXref = value
        }

        /// Whether the table at `offset`, and each before it by /Prev, is as ISO 32000-1 §7.5.4 writes one: subsection
        /// headers, 20-byte entries, then `trailer`. A cross-reference stream met on the way is qpdf's to judge. Each
        /// section is read in a window from where it starts, made larger when the section reaches past it.
        static func wellFormedTables(size: Int, read: ReadAt, from offset: Int) -> Bool {
            var next: Int? = offset
            var seen: Set<Int> = []
            while let start = next, seen.insert(start).inserted, seen.count <= 64 {
                guard start >= 0, start < size else { return false }
                var length = 1 << 16
                while true {
                    let window = read(start, length)
                    let whole = start + window.count >= size
                    switch section(window, whole: whole, fileSize: size) {
                    case .notATable: return true
                    case .followedBy(let previous): next = previous
                    case .malformed where !whole:
                        length *= 8
                        continue
                    case .malformed: return false
                    }
                    break
                }
            }
            return next == nil
        }

        private enum Section { case notATable, malformed, followedBy(Int?) }

        /// One table, read from `bytes` (the file from where the table starts; `whole` when up to its end).
        private static func section(_ bytes: [UInt8], whole: Bool, fileSize: Int) -> Section {
            guard bytes[0..<min(bytes.count, 4)].elementsEqual(Array("xref".utf8)) else { return .notATable }
            var index = 4
            func skipEOL() { while index < bytes.count, bytes[index] == 0x0D || bytes[index] == 0x0A || bytes[index] == 0x20 { index += 1 } }
            func number() -> Int? {
                var value = 0, digits = 0
                while index < bytes.count, (0x30...0x39).contains(bytes[index]), digits < 12 {
                    value = value * 10 + Int(bytes[index] - 0x30)
                    index += 1
                    digits += 1
                }
                return digits > 0 ? value : nil
            }
            skipEOL()
            while index < bytes.count, bytes[index] != UInt8(ascii: "t") {
                guard number() != nil, index < bytes.count, bytes[index] == 0x20 else { return .malformed }
                index += 1
                guard let count = number(), count <= fileSize / 20 else { return .malformed }
                skipEOL()
                for _ in 0..<count {
                    guard index + 20 <= bytes.count else { return .malformed }
                    let entry = bytes[index..<(index + 20)]
                    let digits = entry.prefix(10).allSatisfy { (0x30...0x39).contains($0) }
                        && entry[(index + 11)..<(index + 16)].allSatisfy { (0x30...0x39).contains($0) }
                    guard digits, entry[index + 10] == 0x20, entry[index + 16] == 0x20,
                          entry[index + 17] == UInt8(ascii: "n") || entry[index + 17] == UInt8(ascii: "f"),
                          [0x20, 0x0D, 0x0A].contains(entry[index + 18]), [0x0D, 0x0A].contains(entry[index + 19]) else { return .malformed }
                    index += 20
                }
                skipEOL()
            }
            guard bytes[index..<min(bytes.count, index + 7)].elementsEqual(Array("trailer".utf8)) else { return .malformed }
            // The trailer's /Prev, if any: the section before this one. A window that ends inside it is too short.
            guard whole || index + 4096 <= bytes.count else { return .malformed }
            let window = bytes[index..<min(bytes.count, index + 4096)]
            let dictionary = window[..<(FileEndBytes.first("startxref", in: window) ?? window.endIndex)]
            return .followedBy(FileEndBytes.value(of: "/Prev", in: dictionary, digits: 18))
        }
    }

    struct Object: Hashable {
        let id: Int32
        let generation: Int32
    }

    struct Writer {
        let session: QPDFSession
        let before: QPDFSession
        let firstNew: Int32
        /// The object number of the cross-reference stream, when one is written: after every other.
        private var highest: Int32 = 0
        /// New objects' texts, made while finding what they refer to, until they are written.
        private var texts: [Int32: Data] = [:]

        init(session: QPDFSession, before: QPDFSession, firstNew: Int32) {
            self.session = session
            self.before = before
            self.firstNew = firstNew
        }

        /// The objects to write, in number order: the file's that differ from the original, and the new ones they
        /// (or the trailer) reach.
        mutating func changedObjects() throws -> [Object] {
            let t = session.data
            var visited: Set<Int32> = []
            var changed: [Object] = []
            var newOnes: [Object] = []
            // (object, exploring): inside a changed page every object of the file is compared, since writers change
            // them in place (an annotation, its popup, /Annots, resources); elsewhere only what a change leads to.
            var queue: [(qpdf_oh, Bool)] = []
            // What new objects' texts name, by number: a new object with a text of its own is written without ever
            // asking qpdf for a handle to it (100,000 annotations and their forms were 0.3 s of handles).
            var named: [(number: Int32, generation: Int32)] = []
            let pageIDs = Set((0..<Int(qpdf_get_num_pages(t))).map { session.objectID(qpdf_get_page_n(t, $0)) })
            let changedPageIDs = Set(session.changedPages.map { session.objectID(qpdf_get_page_n(t, $0)) })
            let root = qpdf_get_root(t)
            let trailer = qpdf_get_trailer(t)
            for page in session.changedPages.sorted() { queue.append((qpdf_get_page_n(t, page), true)) }
            // The catalog and its metadata (whose data a writer may replace), the trailer and what it names.
            queue.append((root, false))
            queue.append((session.key(root, "/Metadata"), false))
            queue.append((trailer, false))
            queue.append(contentsOf: session.alsoChanged.map { ($0, false) })
            var index = 0
            while index < queue.count || !named.isEmpty {
                if let reference = named.popLast() {
                    guard !visited.contains(reference.number) else { continue }
                    if reference.number >= firstNew, session.hasOwnText(reference.number) {
                        visited.insert(reference.number)
                        let object = Object(id: reference.number, generation: reference.generation)
                        newOnes.append(object)
                        if let references = try written(object) {
                            named += references.filter { $0.number >= firstNew && !visited.contains($0.number) }
                        }
                    } else {
                        queue.append((qpdf_get_object_by_id(t, reference.number, reference.generation), false))
                    }
                    continue
                }
                let (object, exploring) = queue[index]
                index += 1
                let id = session.objectID(object)
                var descend = exploring
                if id != 0 {
                    guard visited.insert(id).inserted else { continue }
                    let generation = Int32(qpdf_oh_get_generation(t, object))
                    if id >= firstNew {
                        let object = Object(id: id, generation: generation)
                        newOnes.append(object)
                        // Its text, needed to write it, names what it refers to: no handle for each of its values.
                        // Text Redline wrote itself names objects of the file only as they are (a page, a reply's
                        // parent, the 100,000 appearances a flattened page draws): only its new objects are followed.
                        if session.numbersItsNewObjects, let references = try written(object) {
                            let ownText = session.newObjectText(id) != nil
                            named += references.filter { !visited.contains($0.number) && (!ownText || $0.number >= firstNew) }
                            continue
                        }
                        descend = true
                    } else {
                        // Another page, or the page tree: a change to it would have named it.
                        if pageIDs.contains(id) && !changedPageIDs.contains(id) { continue }
                        if !pageIDs.contains(id), session.name(session.key(object, "/Type")) == "Pages" { continue }
                        if differs(object, id: id, generation: generation) {
                            changed.append(Object(id: id, generation: generation))
                            descend = true
                        }
                    }
                } else {
                    descend = true
                }
                guard descend else { continue }
                let inherited = exploring && (id == 0 || id < firstNew)
                if changedPageIDs.contains(id) {
                    // Of the page's annotations, those a writer did not name are as they were (a writer says which
                    // it touches): comparing them all would read every one of a crowded page twice.
                    let annotations = session.key(object, "/Annots")
                    queue.append(contentsOf: children(of: object, leavingOut: "/Annots").map { ($0, true) })
                    let arrayID = session.objectID(annotations)
                    if arrayID != 0 {
                        guard visited.insert(arrayID).inserted else { continue }
                        let generation = Int32(qpdf_oh_get_generation(t, annotations))
                        if arrayID >= firstNew { newOnes.append(Object(id: arrayID, generation: generation)) }
                        else if differs(annotations, id: arrayID, generation: generation) { changed.append(Object(id: arrayID, generation: generation)) }
                    }
                    for item in session.arrayItems(annotations) {
                        let itemID = session.objectID(item)
                        if itemID != 0, itemID < firstNew, !session.changedAnnotations.contains(itemID) { continue }
                        queue.append((item, true))
                    }
                    continue
                }
                queue.append(contentsOf: children(of: object).map { ($0, inherited) })
            }
            let all = (changed + newOnes).sorted { $0.id < $1.id }
            highest = max(all.last?.id ?? 0, firstNew - 1)
            return all
        }

        /// The values inside a dictionary, array or stream dictionary; direct ones are looked into as well.
        private func children(of object: qpdf_oh, leavingOut left: String = "/Parent") -> [qpdf_oh] {
            if session.isStream(object) { return children(of: qpdf_oh_get_dict(session.data, object)) }
            if session.isArray(object) { return session.arrayItems(object) }
            if session.isDictionary(object) {
                return session.dictionaryKeys(object).filter { $0 != "/Parent" && $0 != left }.map { session.key(object, $0) }
            }
            return []
        }

        /// Whether the trailer names another catalog, information dictionary or identity than the original's.
        func trailerChanged() -> Bool {
            ["/Root", "/Info", "/ID", "/Encrypt"].contains { key in
                let now = session.key(qpdf_get_trailer(session.data), key), then = before.key(qpdf_get_trailer(before.data), key)
                return qpdf_oh_unparse(session.data, now).map { String(cString: $0) } != qpdf_oh_unparse(before.data, then).map { String(cString: $0) }
            }
        }

        private func differs(_ object: qpdf_oh, id: Int32, generation: Int32) -> Bool {
            if session.replacedStreamData.contains(id) { return true }
            let old = qpdf_get_object_by_id(before.data, Int32(id), Int32(generation))
            return unparsed(object, in: session) != unparsed(old, in: before)
        }

        /// An object's contents as qpdf writes them (references as `N G R`); a stream's dictionary.
        private func unparsed(_ object: qpdf_oh, in owner: QPDFSession) -> String {
            let shown = owner.isStream(object) ? qpdf_oh_get_dict(owner.data, object) : object
            let text = qpdf_oh_unparse_resolved(owner.data, shown).map { String(cString: $0) } ?? ""
            return (owner.isStream(object) ? "stream " : "") + text
        }

        /// `N G obj … endobj`: a stream with its raw data (compressed here when it came without a filter).
        mutating func text(of object: Object) throws -> Data {
            if let known = texts.removeValue(forKey: object.id) { return known }
            return try Self.text(of: object, in: session).text
        }

        /// A new object's text, kept for `text(of:)`, and what it names (a stream's dictionary's references, for a
        /// stream); nil when the text is not read here (the caller then looks through qpdf).
        private mutating func written(_ object: Object) throws -> [(number: Int32, generation: Int32)]? {
            // What Redline built is written without qpdf: no handles to let go (two made and let go per object cost
            // more than writing it).
            let made = session.hasOwnText(object.id) ? try Self.text(of: object, in: session)
                : try session.releasingHandles { try Self.text(of: object, in: session) }
            texts[object.id] = made.text
            switch made.named {
            case .values(let references): return references
            case .text(let text): return text.withUnsafeBufferPointer { ObjectText.parse($0) }?.references
            }
        }

        /// What a written object names: known from the value it was built from, or to be read from its text.
        private enum Named {
            case values([(number: Int32, generation: Int32)])
            case text([UInt8])
        }

        /// The object's text and what in it names other objects (all of it, or a stream's dictionary).
        private static func text(of object: Object, in session: QPDFSession) throws -> (text: Data, named: Named) {
            let t = session.data
            var out = Data("\(object.id) \(object.generation) obj\n".utf8)
            if let made = session.newObjectText(object.id) {
                out.append(contentsOf: made.text)
                out.append(Data("\nendobj\n".utf8))
                return (out, made.named.map(Named.values) ?? .text(made.text))
            }
            if var entries = session.newStreamEntries(object.id), var data = session.newStreamData(object.id) {
                if entries["/Filter"] == nil, data.count > 256, let packed = deflate(data) {
                    data = packed
                    entries["/Filter"] = .name("FlateDecode")
                }
                entries["/Length"] = .integer(Int64(data.count))
                let dictionary = ObjectText.dictionary(entries)
                out.append(contentsOf: dictionary.pdfBytes)
                out.append(Data("\nstream\n".utf8))
                out.append(contentsOf: data)
                out.append(Data("\nendstream\nendobj\n".utf8))
                return (out, .values(dictionary.references))
            }
            let handle = qpdf_get_object_by_id(t, object.id, object.generation)
            let named: Named
            let made = session.newStreamData(object.id)
            if made != nil || session.isStream(handle) {
                guard var data = made ?? session.streamData(handle, level: qpdf_dl_none) else {
                    throw QPDFSession.Failure(code: qpdf_e_damaged_pdf, message: "object \(object.id) could not be read")
                }
                // A copy of the dictionary is written: the session's stays as it is, should a rewrite follow.
                let original = session.streamDictionary(handle)
                let dictionary = qpdf_oh_new_dictionary(t)
                for key in session.dictionaryKeys(original) { qpdf_oh_replace_key(t, dictionary, key, session.key(original, key)) }
                if session.isNull(session.key(dictionary, "/Filter")), data.count > 256, let packed = deflate(data),
                   session.name(session.key(dictionary, "/Type")) != "Metadata" {
                    data = packed
                    qpdf_oh_replace_key(t, dictionary, "/Filter", session.newName("FlateDecode"))
                    qpdf_oh_remove_key(t, dictionary, "/DecodeParms")
                }
                qpdf_oh_replace_key(t, dictionary, "/Length", qpdf_oh_new_integer(t, Int64(data.count)))
                let text = unparsed(dictionary, in: session)
                named = .text(text)
                out.append(contentsOf: text)
                out.append(Data("\nstream\n".utf8))
                out.append(contentsOf: data)
                out.append(Data("\nendstream\nendobj\n".utf8))
            } else {
                let text = unparsed(handle, in: session)
                named = .text(text)
                out.append(contentsOf: text)
                out.append(Data("\nendobj\n".utf8))
            }
            try session.check()
            return (out, named)
        }

        private static func unparsed(_ object: qpdf_oh, in session: QPDFSession) -> [UInt8] {
            guard let text = qpdf_oh_unparse_resolved(session.data, object) else { return Array("null".utf8) }
            return Array(UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text)))
        }

        /// The cross-reference section for the written objects, and its trailer: a table with `trailer`, or a stream.
        mutating func crossReference(_ entries: [(id: Int32, generation: Int32, offset: Int)], at offset: Int, kind: Tail.Kind,
                                     previous: Int) throws -> Data {
            let t = session.data
            let trailer = qpdf_get_trailer(t)
            var fields: [String: String] = [:]
            for key in ["/Root", "/Info", "/Encrypt"] {
                let value = session.key(trailer, key)
                guard !session.isNull(value) else { continue }
                fields[key] = qpdf_oh_unparse(t, value).map { String(cString: $0) }
            }
            // /ID keeps its first half (what the document is known by) and gets a new second (this version of it).
            let ids = session.arrayItems(session.key(trailer, "/ID"))
            if let first = ids.first, qpdf_oh_is_string(t, first) != 0, let firstText = qpdf_oh_unparse_binary(t, first) {
                let fresh = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
                fields["/ID"] = "[\(String(cString: firstText)) <\(fresh)>]"
            }
            if fields["/Root"] == nil { fields["/Root"] = qpdf_oh_unparse(t, qpdf_get_root(t)).map { String(cString: $0) } }
            fields["/Prev"] = "\(previous)"
            switch kind {
            case .table:
                fields["/Size"] = "\(Int(highest) + 1)"
                var text = "xref\n"
                for run in Self.runs(entries.map { ($0.id, $0.generation, $0.offset) }) {
                    text += "\(run.first) \(run.rows.count)\n"
                    for row in run.rows { text += DecimalText.padded(row.offset, width: 10) + " " + DecimalText.padded(Int(row.generation), width: 5) + " n\r\n" }
                }
                text += "trailer\n<< " + fields.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: " ") + " >>\n"
                return Data(text.utf8)
            case .stream:
                // The stream is an object too, numbered after every other, and listed in itself.
                let id = highest + 1
                let rows = entries.map { ($0.id, $0.generation, $0.offset) } + [(id, Int32(0), offset)]
                fields["/Size"] = "\(Int(id) + 1)"
                var data: [UInt8] = []
                var index: [String] = []
                for run in Self.runs(rows) {
                    index.append("\(run.first) \(run.rows.count)")
                    for row in run.rows {
                        data.append(1)
                        for shift in stride(from: 32, through: 0, by: -8) { data.append(UInt8((row.offset >> shift) & 0xFF)) }
                        data.append(UInt8((Int(row.generation) >> 8) & 0xFF))
                        data.append(UInt8(Int(row.generation) & 0xFF))
                    }
                }
                fields["/Type"] = "/XRef"
                fields["/W"] = "[1 5 2]"
                fields["/Index"] = "[" + index.joined(separator: " ") + "]"
                fields["/Length"] = "\(data.count)"
                var out = Data("\(id) 0 obj\n<< ".utf8)
                out.append(Data((fields.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: " ") + " >>\nstream\n").utf8))
                out.append(contentsOf: data)
                out.append(Data("\nendstream\nendobj\n".utf8))
                return out
            }
        }

        /// Consecutive object numbers grouped, as cross-reference subsections are.
        static func runs(_ rows: [(id: Int32, generation: Int32, offset: Int)]) -> [(first: Int32, rows: [(id: Int32, generation: Int32, offset: Int)])] {
            var runs: [(first: Int32, rows: [(id: Int32, generation: Int32, offset: Int)])] = []
            for row in rows.sorted(by: { $0.id < $1.id }) {
                // Appended in place: a copy of the last run held while appending (`if let last = runs.last`) made
                // each append copy the run, and 200,000 new objects in one run took 20 s.
                if let last = runs.indices.last, runs[last].first + Int32(runs[last].rows.count) == row.id {
                    runs[last].rows.append(row)
                } else {
                    runs.append((row.id, [row]))
                }
            }
            return runs
        }

        static func deflate(_ data: [UInt8]) -> [UInt8]? {
            var length = compressBound(uLong(data.count))
            var packed = [UInt8](repeating: 0, count: Int(length))
            let status = packed.withUnsafeMutableBufferPointer { target in
                data.withUnsafeBufferPointer { source in
                    compress2(target.baseAddress, &length, source.baseAddress, uLong(source.count), 6)
                }
            }
            guard status == Z_OK else { return nil }
            packed.removeLast(packed.count - Int(length))
            return packed
        }
    }
}
