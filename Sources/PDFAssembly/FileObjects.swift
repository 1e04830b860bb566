import CQPDF
import Foundation
import QPDFCrossReference
import RedlineCore

/// The file's own text of its objects, found through qpdf's cross-reference and read by `ObjectText`. qpdf keeps
/// every object it parses for the document's life, about 6 KB and 36 µs for an annotation: 100,000 annotations read
/// through it took 3.6 s and 630 MiB before anything was done with them. Only what a reading needs is read here, and
/// nothing is kept. An object this cannot read (its text is not plain, or it is in a file Redline rebuilt, or its
/// strings are encrypted) is asked of qpdf as before, so the two never disagree on what the file says.
final class FileObjects {
    private struct Place {
        let generation: Int32
        /// In the file: where the object starts and where the next one does, which it cannot run past.
        let start: Int
        let end: Int
        /// In an object stream: which, and the object's position in it (`start` and `end` unused).
        let stream: Int32?
        let index: Int
    }

    /// An object stream's data and where each of its objects starts.
    private struct Stored {
        let data: [UInt8]
        let starts: [(number: Int32, start: Int)]
    }

    private unowned let session: QPDFSession
    private var places: [Int32: Place] = [:]
    private let read: (_ offset: Int, _ count: Int) -> [UInt8]
    private var stored: [Int32: Stored?] = [:]
    /// The highest object number the cross-reference lists: what a new object numbered by hand must pass.
    private(set) var highest: Int32 = 0
    private var storedBytes = 0

    /// An object's text is not read past this: a larger one is qpdf's.
    private static let largest = 64 << 20
    /// Object streams kept decoded at once, in bytes.
    private static let storedBudget = 64 << 20

    /// Nil when the session's objects are not the file's bytes as qpdf's cross-reference finds them.
    init?(session: QPDFSession) {
        // A document read from memory (the painter's drawings) is named by its label.
        guard session.repairs.isEmpty, let path = session.sourcePath ?? (session.input.isEmpty ? nil : session.label) else { return nil }
        self.session = session
        let input = session.input
        var entries: UnsafeMutablePointer<redline_xref_entry>?
        var count = 0
        var encrypted: Int32 = 0
        let size: Int
        if input.isEmpty {
            guard let source = SourceFile(path: path), source.identity == session.sourceIdentity,
                  redline_xref_read(nil, 0, path, session.password, &entries, &count, &encrypted) == 0 else { return nil }
            size = source.size
            read = source.read
        } else {
            guard input.withUnsafeBufferPointer({
                redline_xref_read($0.baseAddress, $0.count, path, session.password, &entries, &count, &encrypted)
            }) == 0 else { return nil }
            size = input.count
            read = { offset, count in
                guard offset >= 0, offset < input.count else { return [] }
                return Array(input[offset..<min(input.count, offset + count)])
            }
        }
        defer { redline_xref_free(entries) }
        guard let entries else { return nil }
        let rows = UnsafeBufferPointer(start: entries, count: count)
        // Each object ends where the next one in the file starts: reading stops there, so all objects read cost at
        // most the file's size, whatever their text.
        let starts = rows.filter { $0.type == 1 && $0.offset >= 0 && $0.offset < size }.map { Int($0.offset) }.sorted()
        places.reserveCapacity(rows.count)
        var next = 0
        highest = rows.map(\.number).max() ?? 0
        for row in rows.sorted(by: { $0.type == $1.type ? $0.offset < $1.offset : $0.type < $1.type }) {
            switch row.type {
            case 1 where encrypted == 0 && row.offset >= 0 && row.offset < size:
                let start = Int(row.offset)
                while next < starts.count, starts[next] <= start { next += 1 }
                let end = next < starts.count ? starts[next] : size
                places[row.number] = Place(generation: row.generation, start: start, end: end, stream: nil, index: 0)
            case 2:
                places[row.number] = Place(generation: 0, start: 0, end: 0, stream: row.stream, index: Int(row.index))
            default:
                continue
            }
        }
    }

    /// Whether object `number` is one this may read (it may still find its text is not plain).
    func has(number: Int32, generation: Int32) -> Bool {
        places[number]?.generation == generation && !session.changedAnnotations.contains(number)
    }

    /// The dictionary object `number` holds in the file, or nil when it is not one read here (ask qpdf): what a
    /// writer of this session changed is no longer what the file says.
    func dictionary(number: Int32, generation: Int32) -> [String: ObjectText]? {
        guard let place = readable(number, generation) else { return nil }
        let object: ObjectText?
        if let stream = place.stream {
            object = storedObject(number: number, index: place.index, in: stream)
        } else {
            object = text(at: place)?.withUnsafeBufferPointer { ObjectText.parseIndirect($0, number: number, generation: generation) }
        }
        guard case .dictionary(let entries)? = object else { return nil }
        return entries
    }

    /// The dictionary of stream object `number` as the file has it, or nil when it is not one read here (ask qpdf).
    func streamDictionary(number: Int32, generation: Int32) -> [String: ObjectText]? {
        guard let place = readable(number, generation), place.stream == nil else { return nil }
        return text(at: place)?.withUnsafeBufferPointer { ObjectText.parseStreamDictionary($0, number: number, generation: generation) }
    }

    /// A stream object's dictionary and its data as stored (still encoded), when the file says plainly where the data
    /// ends: a /Length (direct, or an integer object of its own as cairo writes it) followed by `endstream`. Nil
    /// otherwise (ask qpdf).
    func storedStream(number: Int32, generation: Int32) -> (entries: [String: ObjectText], data: [UInt8])? {
        guard let place = readable(number, generation), place.stream == nil, let text = text(at: place),
              let (entries, start) = text.withUnsafeBufferPointer({ ObjectText.parseStream($0, number: number, generation: generation) }) else { return nil }
        let length: Int64?
        switch entries["/Length"] {
        case .integer(let value)?: length = value
        case .reference(let lengthNumber, let lengthGeneration)?:
            guard let lengthPlace = readable(lengthNumber, lengthGeneration), lengthPlace.stream == nil,
                  case .integer(let value)? = self.text(at: lengthPlace)?.withUnsafeBufferPointer({
                      ObjectText.parseIndirect($0, number: lengthNumber, generation: lengthGeneration)
                  }) else { return nil }
            length = value
        default: length = nil
        }
        guard let length, length >= 0, length <= Int64(text.count - start) else { return nil }
        let end = start + Int(length)
        var after = end
        while after < text.count, [0x0A, 0x0D, 0x20].contains(text[after]) { after += 1 }
        guard text[after...].starts(with: "endstream".utf8) else { return nil }
        return (entries, Array(text[start..<end]))
    }

    /// The objects of the page tree's leaves, in order, read from the file's text; nil when any node is not read here,
    /// a node is met twice, or the tree is deeper than readers go.
    func pages(root: (number: Int32, generation: Int32)) -> [(number: Int32, generation: Int32)]? {
        pageLeaves(root: root)?.map { ($0.number, $0.generation) }
    }

    /// The same with each page's dictionary, read on the way (the painter's pages are each read once, not twice).
    func pageLeaves(root: (number: Int32, generation: Int32)) -> [(number: Int32, generation: Int32, entries: [String: ObjectText])]? {
        guard case .reference(let number, let generation)? = dictionary(number: root.number, generation: root.generation)?["/Pages"] else { return nil }
        var found: [(number: Int32, generation: Int32, entries: [String: ObjectText])] = []
        var seen: Set<Int32> = []
        var waiting: [(number: Int32, generation: Int32, depth: Int)] = [(number, generation, 0)]
        while let node = waiting.popLast() {
            guard node.depth < ObjectText.deepest, seen.insert(node.number).inserted,
                  let entries = dictionary(number: node.number, generation: node.generation) else { return nil }
            guard case .array(let kids)? = entries["/Kids"] else {
                guard entries["/Type"] == .name("Page") else { return nil }
                found.append((node.number, node.generation, entries))
                continue
            }
            for kid in kids.reversed() {
                guard case .reference(let kidNumber, let kidGeneration) = kid else { return nil }
                waiting.append((kidNumber, kidGeneration, node.depth + 1))
            }
        }
        return found
    }

    /// Where object `number` is, when it is that generation and no writer of the session changed it.
    private func readable(_ number: Int32, _ generation: Int32) -> Place? {
        guard let place = places[number], place.generation == generation, !session.changedAnnotations.contains(number) else { return nil }
        return place
    }

    /// The file's bytes of an object not in an object stream, up to where the next object starts; nil past `largest`.
    private func text(at place: Place) -> [UInt8]? {
        place.end - place.start <= Self.largest ? read(place.start, place.end - place.start) : nil
    }

    private func storedObject(number: Int32, index: Int, in stream: Int32) -> ObjectText? {
        if stored[stream] == nil {
            if storedBytes > Self.storedBudget {
                stored.removeAll()
                storedBytes = 0
            }
            let decoded = decode(stream)
            storedBytes += decoded?.data.count ?? 0
            stored[stream] = .some(decoded)
        }
        guard let decoded = stored[stream] ?? nil, index < decoded.starts.count, decoded.starts[index].number == number else { return nil }
        let start = decoded.starts[index].start
        let end = index + 1 < decoded.starts.count ? decoded.starts[index + 1].start : decoded.data.count
        guard start <= end, end <= decoded.data.count else { return nil }
        return decoded.data.withUnsafeBufferPointer { ObjectText.parseStored(UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }

    /// An object stream's data and its header (`/N` pairs of number and offset, offsets from `/First`), or nil when
    /// they do not make sense: qpdf reads those objects then.
    private func decode(_ stream: Int32) -> Stored? {
        session.releasingHandles {
            let object = qpdf_get_object_by_id(session.data, stream, 0)
            guard session.isStream(object) else { return nil }
            let dictionary = qpdf_oh_get_dict(session.data, object)
            guard session.name(session.key(dictionary, "/Type")) == "ObjStm",
                  let count = session.int64(session.key(dictionary, "/N")), let first = session.int64(session.key(dictionary, "/First")),
                  let data = session.streamData(object, level: qpdf_dl_generalized),
                  count >= 0, count <= data.count, first >= 0, first <= data.count else { return nil }
            let header = data.withUnsafeBufferPointer { ObjectText.integers(UnsafeBufferPointer(rebasing: $0[0..<Int(first)]), count: 2 * Int(count)) }
            guard let header else { return nil }
            var starts: [(number: Int32, start: Int)] = []
            starts.reserveCapacity(Int(count))
            for pair in 0..<Int(count) {
                guard let number = Int32(exactly: header[2 * pair]), let offset = Int(exactly: header[2 * pair + 1]),
                      Int(first) + offset <= data.count, starts.last.map({ $0.start <= Int(first) + offset }) ?? true else { return nil }
                starts.append((number, Int(first) + offset))
            }
            return Stored(data: data, starts: starts)
        }
    }
}

extension QPDFSession {
    /// An object's entries: from the file's own text where `FileObjects` reads it, else through qpdf, which keeps what
    /// it parses (a page of 100,000 annotations is a gigabyte there).
    func entries(of object: qpdf_oh) -> ObjectEntries {
        let number = objectID(object)
        if number != 0, let text = fileObjects?.dictionary(number: number, generation: qpdf_oh_get_generation(data, object)) {
            return ObjectEntries(text, in: self)
        }
        return ObjectEntries(of: object, in: self)
    }

    /// The dictionary of stream object `number`, read as `entries(of:)` reads; nil when the object is no stream.
    func streamEntries(number: Int32, generation: Int32) -> ObjectEntries? {
        if let text = fileObjects?.streamDictionary(number: number, generation: generation) { return ObjectEntries(text, in: self) }
        return releasingHandles {
            let object = qpdf_get_object_by_id(data, number, generation)
            return isStream(object) ? ObjectEntries(of: object, in: self) : nil
        }
    }
}
