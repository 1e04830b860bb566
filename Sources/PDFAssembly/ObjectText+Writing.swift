import CQPDF
import Foundation
import RedlineCore

/// Objects built as values and then either written as text (a new object of a session that numbers its new objects,
/// which qpdf never holds) or given to qpdf. An annotation built key by key through qpdf's C API costs a trapped
/// call and a handle per key, and qpdf keeps the object for the session's life: about 4 KB for each of 100,000
/// imported annotations, and as long again to free them.
extension ObjectText {
    /// The object as PDF syntax; a dictionary's keys in order, so the same object is always the same text.
    var pdfText: String { String(decoding: pdfBytes, as: UTF8.self) }

    var pdfBytes: [UInt8] {
        var out: [UInt8] = []
        write(into: &out)
        return out
    }

    private func write(into out: inout [UInt8]) {
        switch self {
        case .null: out += "null".utf8
        case .boolean(let value): out += (value ? "true" : "false").utf8
        case .integer(let value): Self.writeInteger(value, into: &out)
        case .real(let value): out += PDFNumber.format(value).utf8
        case .string(let bytes): Self.writeString(bytes, into: &out)
        case .name(let name): Self.writeName(name.utf8, into: &out)
        case .reference(let number, let generation):
            Self.writeInteger(Int64(number), into: &out)
            out.append(0x20)
            Self.writeInteger(Int64(generation), into: &out)
            out += " R".utf8
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(0x20) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .dictionary(let entries):
            out += "<<".utf8
            for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
                out.append(0x20)
                Self.writeName(key.utf8.dropFirst(), into: &out)
                out.append(0x20)
                value.write(into: &out)
            }
            out += " >>".utf8
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
    /// Which bytes stand in a name as they are: printable ASCII but the delimiters and `#` (a table, not a set: each
    /// byte of every key of 100,000 annotations was hashed).
    private static let standsInName: [Bool] = (0...255).map { byte in
        (0x21...0x7E).contains(byte) && !"()<>[]{}/%#".utf8.contains(UInt8(byte))
    }

    /// Decimal digits without a String made for them.
    private static func writeInteger(_ value: Int64, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                      UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[index]) }
        }
    }

    /// Printable ASCII as a literal string (its delimiters escaped); anything else in hex.
    private static func writeString(_ bytes: [UInt8], into out: inout [UInt8]) {
        if bytes.allSatisfy({ (0x20...0x7E).contains($0) }) {
            out.append(UInt8(ascii: "("))
            for byte in bytes {
                if byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "\\") { out.append(UInt8(ascii: "\\")) }
                out.append(byte)
            }
            out.append(UInt8(ascii: ")"))
            return
        }
        out.append(UInt8(ascii: "<"))
        for byte in bytes {
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0F)])
        }
        out.append(UInt8(ascii: ">"))
    }

    /// A name with what cannot stand in one (white space, delimiters, `#`, bytes past ASCII) as `#xx` (§7.3.5).
    private static func writeName<Bytes: Sequence<UInt8>>(_ name: Bytes, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "/"))
        for byte in name {
            if standsInName[Int(byte)] {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "#"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            }
        }
    }

    /// Numbers as reals, written as `PDFNumber` writes them (whole ones without a point).
    static func numbers(_ values: [Double]) -> ObjectText { .array(values.map(ObjectText.real)) }

    static func names(_ values: [String]) -> ObjectText { .array(values.map(ObjectText.name)) }

    var containsReference: Bool {
        switch self {
        case .reference: true
        case .array(let items): items.contains(where: \.containsReference)
        case .dictionary(let entries): entries.values.contains(where: \.containsReference)
        default: false
        }
    }
}

extension QPDFSession {
    /// Text as a PDF text string, encoded as qpdf encodes it (PDFDocEncoding where it can, else UTF-16 with its mark):
    /// plain ASCII here, anything else by qpdf.
    func textValue(_ value: String) -> ObjectText {
        if value.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) { return .string(Array(value.utf8)) }
        var length = 0
        let handle = newText(value)
        defer { qpdf_oh_release(data, handle) }
        guard let bytes = qpdf_oh_get_binary_string_value(data, handle, &length) else { return .string([]) }
        return .string(Array(UnsafeRawBufferPointer(start: bytes, count: length)))
    }

    /// A reference to an indirect object of this session.
    func reference(to object: qpdf_oh) -> ObjectText {
        .reference(number: objectID(object), generation: Int32(qpdf_oh_get_generation(data, object)))
    }

    /// The value as a qpdf object: parsed from its text in one call when it names no object (qpdf's parser has no
    /// document to find one in), else built part by part.
    func handle(for value: ObjectText) -> qpdf_oh {
        if !value.containsReference { return qpdf_oh_parse(data, value.pdfText) }
        switch value {
        case .reference(let number, let generation): return qpdf_get_object_by_id(data, number, generation)
        case .array(let items):
            let array = qpdf_oh_new_array(data)
            for item in items { qpdf_oh_append_item(data, array, handle(for: item)) }
            return array
        case .dictionary(let entries):
            let dictionary = qpdf_oh_new_dictionary(data)
            for (key, entry) in entries { qpdf_oh_replace_key(data, dictionary, key, handle(for: entry)) }
            return dictionary
        default: return qpdf_oh_parse(data, value.pdfText)
        }
    }

    /// Sets `entries` in `object`: as the text of a new object this session numbers itself (qpdf holds an empty
    /// dictionary in its place, which nothing must read or change), else key by key in qpdf's object.
    func write(_ entries: [String: ObjectText], into object: qpdf_oh) {
        let id = objectID(object)
        if newObjects != nil, let first = firstNewObjectID, id >= first, newObjects?.streamData[id] == nil {
            let value = ObjectText.dictionary(entries)
            newObjects!.setText(value.pdfBytes, of: id, naming: value.references)
            return
        }
        for (key, value) in entries { qpdf_oh_replace_key(data, object, key, handle(for: value)) }
    }
}
