import Foundation

/// A strict reader for the XML XFDF is written in, in pure Swift (the core links no XML library). What it refuses
/// is what makes XML dangerous to read: a document type declaration (the door to entity expansion and to reading
/// local files through external entities) and any entity but the five XML predefines. What it accepts it reads as
/// a conforming reader of XML 1.0 with namespaces would: line ends and attribute values normalised, prefixes
/// resolved (`xfdf:annots`), and what such a reader refuses (an undeclared prefix, `xml:` rebound, one attribute
/// twice under two prefixes) refused too, so that what Redline writes back from it is XML every reader takes.
/// Every step is linear in the input.
public struct XMLReader {
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let line: Int
        public let message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// Deeper than any XFDF a tool writes; a bound keeps hostile nesting from exhausting the stack.
    public static let deepestNesting = 64
    /// More than any XFDF or XHTML element carries; a bound keeps one element from holding the whole input.
    public static let mostAttributes = 256

    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"
    static let xmlnsNamespace = "http://www.w3.org/2000/xmlns/"

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    /// The namespaces in scope: for each prefix ("" for the default), the URIs declared for it, innermost last.
    private var namespaces: [String: [String]] = ["xml": [XMLReader.xmlNamespace]]

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
        var attributeNames = Set<String>()
        var empty = false
        while true {
            let spaced = skipSpace()
            if peek("/>") {
                index += 2
                empty = true
                break
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
            let value = try characters(until: quote, in: "attribute \(attributeName) of <\(name)>", attribute: true)
            index += 1
            // A few are compared in place; past that a set keeps the check linear (100,000 attributes took 81 s).
            let repeated: Bool
            if attributes.count < 16 {
                repeated = attributes.contains { $0.name == attributeName }
            } else {
                if attributeNames.isEmpty { attributeNames = Set(attributes.map(\.name)) }
                repeated = !attributeNames.insert(attributeName).inserted
            }
            guard !repeated else { throw fail("attribute \(attributeName) appears twice in <\(name)>") }
            guard attributes.count < Self.mostAttributes else { throw fail("<\(name)> has more than \(Self.mostAttributes) attributes") }
            attributes.append((attributeName, value))
        }
        let declared = try declareNamespaces(of: attributes, in: name, line: start)
        defer { for prefix in declared { namespaces[prefix]?.removeLast() } }
        let namespace = try resolve(name, attributes: attributes, line: start)
        if empty { return XMLTreeElement(name, attributes: attributes, line: start, namespace: namespace) }
        var children: [XMLTreeElement.Child] = []
        while true {
            guard index < bytes.count else { throw Failure(line: start, message: "<\(name)> is never closed") }
            if peek("</") {
                index += 2
                let closing = try self.name()
                skipSpace()
                guard closing == name, peek(">") else { throw fail("</\(closing)> closes <\(name)> of line \(start)") }
                index += 1
                return XMLTreeElement(name, attributes: attributes, children: children, line: start, namespace: namespace)
            } else if peek("<!--") {
                try skip(past: "-->", what: "comment")
            } else if peek("<![CDATA[") {
                index += 9
                let begin = index
                try skip(past: "]]>", what: "CDATA section")
                children.append(.text(Self.normalisingLineEnds(bytes[begin..<(index - 3)])))
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

    /// Text up to `end` (not consumed), entities replaced, line ends (CR LF, a lone CR) made LF as XML 1.0 §2.11
    /// says; in an attribute (§3.3.3) every literal tab and line end is a space, while a character reference keeps
    /// what it names.
    /// `place` names where, for a message: made only when there is one to give (it was a string for every value read).
    private mutating func characters(until end: UInt8, in place: @autoclosure () -> String, attribute: Bool = false) throws -> String {
        // Most text has nothing to replace: read as it stands, without copying it byte by byte.
        let begin = index
        while index < bytes.count, bytes[index] != end, bytes[index] >= 0x20, bytes[index] != UInt8(ascii: "&"), bytes[index] != UInt8(ascii: "<") {
            index += 1
        }
        if index < bytes.count, bytes[index] == end { return String(decoding: bytes[begin..<index], as: UTF8.self) }
        var out = [UInt8](bytes[begin..<index])
        while index < bytes.count, bytes[index] != end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "&") {
                out += Array(try entity(in: place()).utf8)
                continue
            }
            if byte == UInt8(ascii: "<") { throw fail("'<' inside \(place())") }
            if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D {
                throw fail("the control character U+\(String(format: "%04X", byte)) is not allowed in XML (in \(place()))")
            }
            index += 1
            switch byte {
            case 0x0D:
                if index < bytes.count, bytes[index] == 0x0A { index += 1 }
                line += 1
                out.append(attribute ? 0x20 : 0x0A)
            case 0x0A:
                line += 1
                out.append(attribute ? 0x20 : 0x0A)
            case 0x09 where attribute:
                out.append(0x20)
            default:
                out.append(byte)
            }
        }
        guard index < bytes.count else { throw fail("\(place()) is never closed") }
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

    /// CDATA's bytes with CR LF and lone CRs made LF.
    private static func normalisingLineEnds(_ slice: ArraySlice<UInt8>) -> String {
        var out = [UInt8]()
        out.reserveCapacity(slice.count)
        var previous: UInt8 = 0
        for byte in slice {
            if byte == 0x0D {
                out.append(0x0A)
            } else if !(byte == 0x0A && previous == 0x0D) {
                out.append(byte)
            }
            previous = byte
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Namespaces (Namespaces in XML 1.0, third edition)

    /// Binds the prefixes the element's `xmlns` attributes declare; returns them, to be unbound when it closes.
    private mutating func declareNamespaces(of attributes: [(name: String, value: String)], in element: String, line: Int) throws -> [String] {
        var declared: [String] = []
        for (name, uri) in attributes where name == "xmlns" || name.hasPrefix("xmlns:") {
            let prefix = name == "xmlns" ? "" : String(name.dropFirst(6))
            if !prefix.isEmpty { try checkQualifiedName(name, in: element, line: line) }
            let refusal: String? = switch (prefix, uri) {
            case ("xmlns", _): "the prefix xmlns cannot be declared"
            case ("xml", Self.xmlNamespace): nil
            case ("xml", _): "the prefix xml cannot be bound to another namespace"
            case (_, Self.xmlNamespace), (_, Self.xmlnsNamespace): "\(name) binds a namespace reserved for xml or xmlns"
            case (let prefix, "") where !prefix.isEmpty: "\(name) cannot undeclare a prefix (XML 1.0)"
            default: nil
            }
            if let refusal { throw Failure(line: line, message: "\(refusal) (in <\(element)>)") }
            namespaces[prefix, default: []].append(uri)
            declared.append(prefix)
        }
        return declared
    }

    /// The element's namespace URI; checks every name's prefix is declared and no attribute is given twice under
    /// two prefixes of one namespace.
    private func resolve(_ element: String, attributes: [(name: String, value: String)], line: Int) throws -> String? {
        try checkQualifiedName(element, in: element, line: line)
        let elementPrefix = Self.prefix(of: element)
        if elementPrefix == "xmlns" { throw Failure(line: line, message: "<\(element)> uses the prefix xmlns, which names no element") }
        let namespace = try uri(of: elementPrefix, in: element, name: element, line: line)
        var expanded = Set<String>()
        for (name, _) in attributes where name != "xmlns" && !name.hasPrefix("xmlns:") {
            try checkQualifiedName(name, in: element, line: line)
            guard let prefix = Self.prefix(of: name) else { continue }
            let uri = try uri(of: prefix, in: element, name: name, line: line) ?? ""
            guard expanded.insert(uri + " " + name.dropFirst(prefix.utf8.count + 1)).inserted else {
                throw Failure(line: line, message: "attribute \(name) of <\(element)> is given twice under two prefixes of one namespace")
            }
        }
        return namespace
    }

    private func uri(of prefix: String?, in element: String, name: String, line: Int) throws -> String? {
        guard let prefix else { return namespaces[""]?.last.flatMap { $0.isEmpty ? nil : $0 } }
        guard let uri = namespaces[prefix]?.last else {
            throw Failure(line: line, message: "the prefix \(prefix) of \(name) in <\(element)> is not declared")
        }
        return uri
    }

    private static func prefix(of name: String) -> String? {
        name.utf8.firstIndex(of: UInt8(ascii: ":")).map { String(name[..<$0]) }
    }

    /// A name is at most two parts around one colon, each starting with a letter or an underscore.
    private func checkQualifiedName(_ name: String, in element: String, line: Int) throws {
        // Counted in place: splitting every name into an array was a fifth of reading 100,000 annotations' XML.
        var colons = 0
        var startsWell = name.utf8.first.map(Self.isNameStartByte) ?? false
        var afterColon = false
        for byte in name.utf8 {
            if afterColon { startsWell = startsWell && Self.isNameStartByte(byte) }
            afterColon = byte == UInt8(ascii: ":")
            if afterColon { colons += 1 }
        }
        guard colons <= 1, startsWell, !afterColon else {
            let place = name == element ? "" : " (in <\(element)>)"
            throw Failure(line: line, message: "\(name) is not a name XML with namespaces allows\(place)")
        }
    }

    private static func isNameStartByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte >= 0x80
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
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
            if endsLine(at: index) { line += 1 }
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
            if endsLine(at: index) { line += 1 }
            index += 1
        }
        throw Failure(line: start, message: "a \(what) is never closed")
    }

    private func fail(_ message: String) -> Failure { Failure(line: line, message: message) }

    /// A line feed, or a carriage return not followed by one (XML 1.0 §2.11: CR LF and a lone CR each end a line).
    private func endsLine(at offset: Int) -> Bool {
        bytes[offset] == 0x0A || (bytes[offset] == 0x0D && (offset + 1 == bytes.count || bytes[offset + 1] != 0x0A))
    }
}
