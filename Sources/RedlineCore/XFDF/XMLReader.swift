import Foundation

/// A strict reader for the XML XFDF is written in, in pure Swift (the core links no XML library). What it refuses
/// is what makes XML dangerous to read: a document type declaration (the door to entity expansion and to reading
/// local files through external entities) and any entity but the five XML predefines.
public struct XMLReader {
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let line: Int
        public let message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// Deeper than any XFDF a tool writes; a bound keeps hostile nesting from exhausting the stack.
    public static let deepestNesting = 64

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1

    public static func read(_ bytes: [UInt8]) throws -> XMLTreeElement {
        var reader = XMLReader(bytes: bytes)
        return try reader.document()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func document() throws -> XMLTreeElement {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        guard String(validating: bytes[index...], as: UTF8.self) != nil else { throw fail("not UTF-8 text") }
        try skipMisc()
        guard peek("<") else { throw fail(index >= bytes.count ? "no root element" : "text before the root element") }
        let root = try element(depth: 0)
        try skipMisc()
        guard index >= bytes.count else { throw fail("more after the root element </\(root.name)>") }
        return root
    }

    /// White space, comments, processing instructions (the XML declaration among them) between elements.
    private mutating func skipMisc() throws {
        while true {
            skipSpace()
            if peek("<?") {
                try skip(past: "?>", what: "processing instruction")
            } else if peek("<!--") {
                try skip(past: "-->", what: "comment")
            } else if peek("<!DOCTYPE") || peek("<!doctype") {
                throw fail("a document type declaration (DOCTYPE) is not allowed: it can define entities")
            } else {
                return
            }
        }
    }

    private mutating func element(depth: Int) throws -> XMLTreeElement {
        guard depth < Self.deepestNesting else { throw fail("elements nested deeper than \(Self.deepestNesting)") }
        let start = line
        index += 1
        let name = try self.name()
        var attributes: [(name: String, value: String)] = []
        while true {
            let spaced = skipSpace()
            if peek("/>") {
                index += 2
                return XMLTreeElement(name, attributes: attributes, line: start)
            }
            if peek(">") {
                index += 1
                break
            }
            guard spaced, index < bytes.count else { throw fail("<\(name)> is not closed") }
            let attributeName = try self.name()
            skipSpace()
            guard peek("=") else { throw fail("attribute \(attributeName) of <\(name)> has no value") }
            index += 1
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                throw fail("the value of \(attributeName) in <\(name)> is not quoted")
            }
            let quote = bytes[index]
            index += 1
            let value = try characters(until: quote, in: "attribute \(attributeName) of <\(name)>")
            index += 1
            guard !attributes.contains(where: { $0.name == attributeName }) else {
                throw fail("attribute \(attributeName) appears twice in <\(name)>")
            }
            attributes.append((attributeName, value))
        }
        var children: [XMLTreeElement.Child] = []
        while true {
            guard index < bytes.count else { throw Failure(line: start, message: "<\(name)> is never closed") }
            if peek("</") {
                index += 2
                let closing = try self.name()
                skipSpace()
                guard closing == name, peek(">") else { throw fail("</\(closing)> closes <\(name)> of line \(start)") }
                index += 1
                return XMLTreeElement(name, attributes: attributes, children: children, line: start)
            } else if peek("<!--") {
                try skip(past: "-->", what: "comment")
            } else if peek("<![CDATA[") {
                index += 9
                let begin = index
                try skip(past: "]]>", what: "CDATA section")
                children.append(.text(String(decoding: bytes[begin..<(index - 3)], as: UTF8.self)))
            } else if peek("<?") {
                try skip(past: "?>", what: "processing instruction")
            } else if peek("<!") {
                throw fail("a declaration is not allowed inside <\(name)>")
            } else if peek("<") {
                children.append(.element(try element(depth: depth + 1)))
            } else {
                children.append(.text(try characters(until: UInt8(ascii: "<"), in: "<\(name)>")))
            }
        }
    }

    /// Text up to `end` (not consumed), entities replaced.
    private mutating func characters(until end: UInt8, in place: String) throws -> String {
        var out = [UInt8]()
        while index < bytes.count, bytes[index] != end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "&") {
                out += Array(try entity(in: place).utf8)
                continue
            }
            if byte == UInt8(ascii: "<") { throw fail("'<' inside \(place)") }
            if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D {
                throw fail("the control character U+\(String(format: "%04X", byte)) is not allowed in XML (in \(place))")
            }
            if byte == 0x0A { line += 1 }
            out.append(byte)
            index += 1
        }
        guard index < bytes.count else { throw fail("\(place) is never closed") }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func entity(in place: String) throws -> String {
        guard let semicolon = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw fail("an '&' that starts no entity in \(place)")
        }
        let name = String(decoding: bytes[(index + 1)..<semicolon], as: UTF8.self)
        index = semicolon + 1
        switch name {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default:
            let value: UInt32? = name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16)
                : name.hasPrefix("#") ? UInt32(name.dropFirst(), radix: 10) : nil
            guard let value, let scalar = Unicode.Scalar(value), Self.isAllowed(scalar) else {
                throw fail(name.hasPrefix("#") ? "&\(name); is no character" : "the entity &\(name); is not allowed (only XML's own five are)")
            }
            return String(Character(scalar))
        }
    }

    private mutating func name() throws -> String {
        let begin = index
        while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
        guard index > begin else { throw fail("a name was expected") }
        return String(decoding: bytes[begin..<index], as: UTF8.self)
    }

    /// XML 1.0's characters: tab, line ends and everything from U+0020 but the two non-characters U+FFFE and U+FFFF.
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar == "\n" || scalar == "\r" || (scalar.value >= 0x20 && scalar.value != 0xFFFE && scalar.value != 0xFFFF)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let begin = index
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
            if bytes[index] == 0x0A { line += 1 }
            index += 1
        }
        return index > begin
    }

    private func peek(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return text.withUTF8Buffer { buffer in (0..<count).allSatisfy { bytes[index + $0] == buffer[$0] } }
    }

    private mutating func skip(past end: StaticString, what: String) throws {
        let start = line
        while index < bytes.count {
            if peek(end) {
                index += end.utf8CodeUnitCount
                return
            }
            if bytes[index] == 0x0A { line += 1 }
            index += 1
        }
        throw Failure(line: start, message: "a \(what) is never closed")
    }

    private func fail(_ message: String) -> Failure { Failure(line: line, message: message) }
}
