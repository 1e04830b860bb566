import CQPDF
import Foundation
import RedlineCore

/// Rebuilds the cross-reference of a file qpdf 11.3 cannot reconstruct: one whose trailer it cannot parse
/// (nested deeper than its limit), whose cross-reference *stream* is broken (no `trailer` keyword to start
/// from), or that was cut off before its trailer. Poppler and newer qpdf read such files; this makes
/// Debian's qpdf read them too, keeping every object the file still has: pages, outline, links, annotations.
///
/// The file's bytes are scanned for `N G obj` (stream data skipped), the last trailer — a `trailer`
/// dictionary or a cross-reference stream's dictionary — gives /Root, /Info, /ID and /Encrypt (else the last
/// catalog found), object streams are read through qpdf to learn which objects they hold, and a new
/// cross-reference stream is appended. The result is the original bytes plus that section, for qpdf to read
/// from memory; the file on disk is not touched.
enum CrossReferenceRebuilder {
    struct Rebuilt {
        var data: Data
        var objectCount: Int
        /// Streams written again with the length of the data found.
        var mendedStreams: Int
        /// Objects written again with their integers past 64 bits as reals.
        var widenedObjects: Int
    }

    static let largestObjectNumber = 8_388_607

    /// `onlyMending`: nil unless a stream's length or a number past 64 bits had to be mended (a file qpdf read or
    /// reconstructed itself, but whose streams or objects it would lose).
    static func rebuild(_ damaged: Data, password: String?, onlyMending: Bool = false) -> Rebuilt? {
        // A file that lost its `%PDF-` line (poppler reads those) gets one in front, before any offset is taken.
        let hasHeader = damaged.prefix(1024).range(of: Data("%PDF-".utf8)) != nil
        var original = hasHeader ? damaged : Data("%PDF-1.7\n".utf8) + damaged
        var scan = Scan(bytes: [UInt8](original))
        scan.run()
        scan.keepStreamsWhoseIndirectLengthIsRight()
        let mendsLooseObjects = !scan.mended.isEmpty || !scan.widened.isEmpty
        // Object streams may hold numbers past 64 bits too: known only once they are read, below.
        guard !scan.objects.isEmpty, !onlyMending || mendsLooseObjects || !scan.objectStreams.isEmpty else { return nil }
        let mendedCount = scan.mended.count
        var widenedCount = scan.widened.keys.filter { scan.mended[$0] == nil }.count
        // Each such object is written again after the file's bytes (a stream with the length of the data found,
        // numbers past 64 bits as reals), and the new cross-reference points at that copy.
        func append(_ number: Int, generation: Int, value: [UInt8], data: Range<Int>?) {
            original.append(0x0A)
            scan.objects[number] = (original.count, generation)
            original.append(contentsOf: Array("\(number) \(generation) obj\n".utf8))
            original.append(contentsOf: value)
            if let data {
                original.append(contentsOf: Array("\nstream\n".utf8))
                original.append(contentsOf: scan.bytes[data])
                original.append(contentsOf: Array("\nendstream".utf8))
            }
            original.append(contentsOf: Array("\nendobj\n".utf8))
        }
        for (number, stream) in scan.mended.sorted(by: { $0.key < $1.key }) {
            var dictionary = stream.dictionary
            dictionary["/Length"] = ArraySlice(Array(String(stream.data.count).utf8))
            var text: [UInt8] = Array("<<".utf8)
            for (key, value) in dictionary.sorted(by: { $0.key < $1.key }) where !value.isEmpty {
                text += Array(" \(key) ".utf8) + (WideIntegers.widened(value) ?? Array(value))
            }
            append(number, generation: stream.generation, value: text + Array(" >>".utf8), data: stream.data)
        }
        for (number, object) in scan.widened.sorted(by: { $0.key < $1.key }) where scan.mended[number] == nil {
            append(number, generation: object.generation, value: object.value, data: object.data)
        }
        var compressed: [Int: (stream: Int, index: Int)] = [:]
        var compressedCatalog: Int?
        if !scan.objectStreams.isEmpty {
            // A first pass with the uncompressed objects only, so qpdf can decode the object streams.
            let firstPass = appendCrossReference(to: original, objects: scan.objects, compressed: [:],
                                                 trailer: scan.trailer(root: scan.catalogs.last ?? scan.objects.keys.min()!))
            let read = contents(ofObjectStreams: scan.objectStreams, in: firstPass, password: password)
            (compressed, compressedCatalog) = (read.places, read.catalog)
            // qpdf refuses an object stream's object holding such a number, and what follows it in the stream: each
            // is written again loose after the file's bytes, which makes it the current one.
            for (number, value) in read.widened.sorted(by: { $0.key < $1.key }) {
                // Unless a loose one after its stream replaced it.
                if let place = compressed[number], let loose = scan.objects[number]?.offset, let stream = scan.objects[place.stream]?.offset,
                   loose > stream { continue }
                append(number, generation: 0, value: value, data: nil)
                widenedCount += 1
            }
        }
        if onlyMending && mendedCount == 0 && widenedCount == 0 { return nil }
        guard let root = scan.chosenTrailer?.root ?? scan.catalogs.last ?? compressedCatalog else { return nil }
        // An object both loose and in an object stream: the later one in the file is the current one.
        var loose = scan.objects
        for (number, place) in compressed {
            if let offset = loose[number]?.offset, let streamOffset = scan.objects[place.stream]?.offset, offset > streamOffset {
                compressed[number] = nil
            } else {
                loose[number] = nil
            }
        }
        let data = appendCrossReference(to: original, objects: loose, compressed: compressed, trailer: scan.trailer(root: root))
        return Rebuilt(data: data, objectCount: loose.count + compressed.count, mendedStreams: mendedCount,
                       widenedObjects: widenedCount)
    }

    /// Which objects each object stream holds, by reading its header (`number offset` pairs) through qpdf, a
    /// catalog among them, in case the file has none outside, and those holding integers past 64 bits, written
    /// with them as reals.
    private static func contents(ofObjectStreams streams: [Int], in data: Data, password: String?)
        -> (places: [Int: (stream: Int, index: Int)], catalog: Int?, widened: [Int: [UInt8]]) {
        let session = QPDFSession(label: "object streams")
        var result: [Int: (stream: Int, index: Int)] = [:]
        var catalog: Int?
        var widened: [Int: [UInt8]] = [:]
        // The session keeps the bytes: qpdf goes on reading them after the call that opened them returns.
        guard (try? session.read(memory: [UInt8](data), password: password)) != nil else { return (result, nil, [:]) }
        for stream in streams {
            let object = qpdf_get_object_by_id(session.data, Int32(stream), 0)
            guard session.isStream(object) else { continue }
            let dictionary = qpdf_oh_get_dict(session.data, object)
            guard let count = session.integer(session.key(dictionary, "/N")), let first = session.integer(session.key(dictionary, "/First")),
                  count >= 0, first >= 0 else { continue }
            var buffer: UnsafeMutablePointer<UInt8>?
            var length = 0
            let code = qpdf_oh_get_stream_data(session.data, object, qpdf_dl_generalized, nil, &buffer, &length)
            defer { free(buffer) }
            _ = session.takeWarnings()
            guard code & QPDF_ERRORS == 0, let buffer else {
                _ = try? session.check()
                continue
            }
            let decoded = [UInt8](UnsafeBufferPointer(start: buffer, count: length))
            var header = PDFByteScanner(decoded)
            var entries: [(number: Int, offset: Int)] = []
            for _ in 0..<min(count, 1_000_000) {
                header.skipWhitespaceAndComments()
                guard let number = header.integer() else { break }
                header.skipWhitespaceAndComments()
                guard let offset = header.integer() else { break }
                entries.append((number, offset))
            }
            for (index, entry) in entries.enumerated() where entry.number > 0 && entry.number <= largestObjectNumber {
                result[entry.number] = (stream, index)
                let start = first + entry.offset
                let end = index + 1 < entries.count ? first + entries[index + 1].offset : decoded.count
                guard start >= 0, start < end, end <= decoded.count else { continue }
                if Scan.isCatalog(decoded[start..<end]) { catalog = entry.number }
                if let wide = WideIntegers.widened(decoded[start..<end]) { widened[entry.number] = wide }
            }
        }
        return (result, catalog, widened)
    }

    /// The original bytes, then a cross-reference stream (uncompressed, so nothing can go wrong decoding it)
    /// listing every object, and the `startxref` that leads to it.
    private static func appendCrossReference(to original: Data, objects: [Int: (offset: Int, generation: Int)],
                                             compressed: [Int: (stream: Int, index: Int)], trailer: String) -> Data {
        var data = original
        data.append(contentsOf: Array("\n".utf8))
        let own = max(objects.keys.max() ?? 0, compressed.keys.max() ?? 0) + 1
        let offset = data.count
        var rows: [UInt8] = []
        func row(_ type: UInt8, _ field2: Int, _ field3: Int) {
            rows.append(type)
            for shift in stride(from: 56, through: 0, by: -8) { rows.append(UInt8(truncatingIfNeeded: field2 >> shift)) }
            for shift in stride(from: 24, through: 0, by: -8) { rows.append(UInt8(truncatingIfNeeded: field3 >> shift)) }
        }
        for number in 0...own {
            if number == own {
                row(1, offset, 0)
            } else if let object = objects[number] {
                row(1, object.offset, object.generation)
            } else if let place = compressed[number] {
                row(2, place.stream, place.index)
            } else {
                row(0, 0, number == 0 ? 65535 : 0)
            }
        }
        let header = "\(own) 0 obj\n<< /Type /XRef /Size \(own + 1) /W [1 8 4] \(trailer) /Length \(rows.count) >>\nstream\n"
        data.append(contentsOf: Array(header.utf8))
        data.append(contentsOf: rows)
        data.append(contentsOf: Array("\nendstream\nendobj\nstartxref\n\(offset)\n%%EOF\n".utf8))
        return data
    }

    /// One pass over the file's bytes.
    struct Scan {
        let bytes: [UInt8]
        var objects: [Int: (offset: Int, generation: Int)] = [:]
        var objectStreams: [Int] = []
        var catalogs: [Int] = []
        /// Trailers in file order: `trailer` dictionaries and cross-reference stream dictionaries.
        var trailers: [[String: ArraySlice<UInt8>]] = []
        /// Streams whose /Length does not lead to `endstream` (indirect, wrong, or past the file's end), with where
        /// their data was found: qpdf trusts the length, and one near 2^63 loses the stream (and its page).
        var mended: [Int: (generation: Int, dictionary: [String: ArraySlice<UInt8>], data: Range<Int>)] = [:]
        /// Objects holding an integer past 64 bits, their value with it written as a real (`WideIntegers`), and
        /// their stream's data when they are a stream.
        var widened: [Int: (generation: Int, value: [UInt8], data: Range<Int>?)] = [:]

        mutating func run() {
            var scanner = PDFByteScanner(bytes)
            while scanner.position < bytes.count {
                let byte = bytes[scanner.position]
                let start = scanner.position
                if PDFByteScanner.isDigit(byte), let header = scanner.objectHeader() {
                    record(header, at: start, scanner: &scanner)
                } else if byte == UInt8(ascii: "t"), scanner.keyword("trailer", at: scanner.position) {
                    scanner.position += 7
                    if let dictionary = scanner.dictionary(), dictionary["/Root"] != nil { trailers.append(dictionary) }
                } else {
                    scanner.position += 1
                }
            }
        }

        /// An object found at `start` (where its number begins: the offset the table must hold). Later
        /// definitions of a number replace earlier ones, as incremental updates do.
        private mutating func record(_ header: (number: Int, generation: Int), at start: Int, scanner: inout PDFByteScanner) {
            guard header.number > 0, header.number <= CrossReferenceRebuilder.largestObjectNumber else { return }
            objects[header.number] = (start, header.generation)
            let afterHeader = scanner.position
            mended[header.number] = nil
            widened[header.number] = nil
            scanner.skipWhitespaceAndComments()
            let valueStart = scanner.position
            guard let dictionary = scanner.dictionary() else {
                // An array or a number (a /MediaBox kept apart from its page) may hold an integer past 64 bits too.
                scanner.position = valueStart
                if valueStart < bytes.count, bytes[valueStart] == UInt8(ascii: "[") || bytes[valueStart] == UInt8(ascii: "-")
                    || PDFByteScanner.isDigit(bytes[valueStart]),
                   let value = scanner.skipValue(), let wide = WideIntegers.widened(value) {
                    widened[header.number] = (header.generation, wide, nil)
                }
                scanner.position = afterHeader
                return
            }
            let wide = WideIntegers.widened(bytes[valueStart..<scanner.position])
            let type = dictionary["/Type"]?.name
            if type == "/ObjStm" { objectStreams.append(header.number) }
            if type == "/Catalog" { catalogs.append(header.number) }
            if type == "/XRef", dictionary["/Root"] != nil { trailers.append(dictionary) }
            switch scanner.skipStream(length: dictionary["/Length"]?.integerValue) {
            case .searched(let data) where data.upperBound < bytes.count:
                mended[header.number] = (header.generation, dictionary, data)
                // Kept for when the length proves right after all (an indirect one): written as found then.
                if let wide { widened[header.number] = (header.generation, wide, data) }
            case .searched, .none:
                if let wide { widened[header.number] = (header.generation, wide, nil) }
            case .byLength(let data):
                if let wide { widened[header.number] = (header.generation, wide, data) }
            }
        }

        /// A stream whose /Length names an object holding the right length (as cairo and many writers do) is as
        /// qpdf reads it: only lengths that are wrong are mended.
        mutating func keepStreamsWhoseIndirectLengthIsRight() {
            for (number, stream) in mended {
                guard let lengthNumber = stream.dictionary["/Length"]?.reference, let place = objects[lengthNumber] else { continue }
                var scanner = PDFByteScanner(bytes)
                scanner.position = place.offset
                guard scanner.objectHeader() != nil else { continue }
                scanner.skipWhitespaceAndComments()
                guard let length = scanner.integer(maxDigits: 18) else { continue }
                guard scanner.endstream(afterData: stream.data.lowerBound, length: length) != nil else { continue }
                mended[number] = nil
                widened[number]?.data = stream.data.lowerBound..<(stream.data.lowerBound + length)
            }
        }

        var chosenTrailer: (root: Int, entries: [String: ArraySlice<UInt8>])? {
            for entries in trailers.reversed() {
                if let root = entries["/Root"]?.reference { return (root, entries) }
            }
            return nil
        }

        /// The trailer entries the new cross-reference stream carries.
        func trailer(root: Int) -> String {
            var text = "/Root \(root) 0 R"
            if let entries = chosenTrailer?.entries {
                for key in ["/Info", "/ID", "/Encrypt"] {
                    guard let value = entries[key], value.count < 4096 else { continue }
                    text += " \(key) " + String(decoding: value, as: UTF8.self)
                }
            }
            return text
        }

        static func isCatalog(_ bytes: ArraySlice<UInt8>) -> Bool {
            var scanner = PDFByteScanner(Array(bytes))
            return scanner.dictionary()?["/Type"]?.name == "/Catalog"
        }
    }
}
