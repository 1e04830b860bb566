import CQPDF
import Foundation
import RedlineCore

/// A dictionary read whole from the text qpdf writes of it (`ObjectText`), with the readings annotations need. An
/// entry that refers to another object is resolved through qpdf when asked for; text is decoded as qpdf decodes it.
/// Values are read as `QPDFSession`'s readers read handles: numbers within `PDFLimits`, names without their slash.
struct ObjectEntries {
    let session: QPDFSession
    let entries: [String: ObjectText]

    /// The entries of a dictionary or a stream's dictionary; empty for anything else.
    init(of object: qpdf_oh, in session: QPDFSession) {
        self.session = session
        let dictionary = session.isStream(object) ? qpdf_oh_get_dict(session.data, object) : object
        guard session.isDictionary(dictionary), case .dictionary(let entries)? = session.objectText(dictionary) else {
            entries = [:]
            return
        }
        self.entries = entries
    }

    init(_ entries: [String: ObjectText], in session: QPDFSession) {
        self.session = session
        self.entries = entries
    }

    /// An entry with a reference followed (up to a few steps: a reference to a reference is rare and a loop is
    /// possible); nil when absent or null.
    subscript(_ key: String) -> ObjectText? {
        entries[key].flatMap(session.resolved)
    }

    /// The object an entry refers to, when it is a reference: what /IRT and /Popup name.
    func reference(_ key: String) -> (number: Int32, generation: Int32)? {
        guard case .reference(let number, let generation)? = entries[key] else { return nil }
        return (number, generation)
    }

    func dictionary(_ key: String) -> ObjectEntries? {
        guard case .dictionary(let entries)? = self[key] else { return nil }
        return ObjectEntries(entries, in: session)
    }

    func text(_ key: String) -> String? {
        guard case .string(let bytes)? = self[key] else { return nil }
        return session.text(bytes: bytes)
    }

    func name(_ key: String) -> String? {
        guard case .name(let name)? = self[key] else { return nil }
        return name
    }

    /// Text or name: some writers use names where the specification asks for text (/State /Accepted).
    func textOrName(_ key: String) -> String? { text(key) ?? name(key) }

    func real(_ key: String) -> Double? { self[key].flatMap(Self.real) }

    /// An integer within 32 bits; nil for reals and values past the limits.
    func integer(_ key: String) -> Int? {
        guard case .integer(let value)? = self[key] else { return nil }
        return PDFLimits.integer(value)
    }

    func int64(_ key: String) -> Int64? {
        guard case .integer(let value)? = self[key] else { return nil }
        return value
    }

    func boolean(_ key: String) -> Bool? {
        guard case .boolean(let value)? = self[key] else { return nil }
        return value
    }

    /// An array's items, each reference followed (what refers nowhere is null, as qpdf reads it).
    func items(_ key: String) -> [ObjectText] { self[key].map(items) ?? [] }

    func items(_ object: ObjectText) -> [ObjectText] {
        guard case .array(let items) = object else { return [] }
        return items.map { session.resolved($0) ?? .null }
    }

    /// An array of numbers, at most `limit` of them; nil when it is no array or holds anything else.
    func numbers(_ key: String, atMost limit: Int = .max) -> [Double]? { self[key].flatMap { numbers($0, atMost: limit) } }

    func numbers(_ object: ObjectText, atMost limit: Int = .max) -> [Double]? {
        guard case .array(let items) = object else { return nil }
        var values: [Double] = []
        values.reserveCapacity(min(items.count, limit))
        for item in items.prefix(limit) {
            guard let value = session.resolved(item).flatMap(Self.real) else { return nil }
            values.append(value)
        }
        return values
    }

    /// A rectangle as poppler reads one: four usable numbers, not all zero; nil otherwise.
    func box(_ key: String) -> PDFBox? { numbers(key).flatMap(QPDFSession.box) }

    /// A number where a real is allowed, within the specification's limits, as `QPDFSession.real` reads one.
    static func real(_ object: ObjectText) -> Double? {
        object.number.flatMap(PDFLimits.real)
    }
}

extension QPDFSession {
    /// An object's text as qpdf writes it, read back; nil when qpdf writes nothing this reader takes.
    func objectText(_ object: qpdf_oh) -> ObjectText? {
        guard let text = qpdf_oh_unparse_resolved(data, object) else { return nil }
        let length = strlen(text)
        return text.withMemoryRebound(to: UInt8.self, capacity: length) { ObjectText.parse(UnsafeBufferPointer(start: $0, count: length)) }
    }

    /// A value with its reference followed; nil for null and for what refers nowhere. Three steps at most: qpdf
    /// writes a reference's target in full, so a further step is a reference to a reference.
    func resolved(_ value: ObjectText) -> ObjectText? {
        var value = value
        for _ in 0..<3 {
            switch value {
            case .null: return nil
            case .reference(let number, let generation):
                guard let target = objectText(qpdf_get_object_by_id(data, number, generation)) else { return nil }
                value = target
            default: return value
            }
        }
        return nil
    }

    /// A PDF text string's bytes as text: plain ASCII as it is (PDFDocEncoding agrees with it there); anything else
    /// decoded by qpdf (PDFDocEncoding, UTF-16 with its mark), as `text(_:)` reads a string object.
    func text(bytes: [UInt8]) -> String? {
        if bytes.allSatisfy({ (0x20...0x7E).contains($0) || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        return releasingHandles {
            let string = bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { qpdf_oh_new_binary_string(data, $0.baseAddress, $0.count) }
            }
            return text(string)
        }
    }
}
