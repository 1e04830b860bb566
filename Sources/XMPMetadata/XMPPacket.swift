import Foundation
import RedlineCore

/// What an XMP packet must be before any XML parser sees it. A PDF is untrusted input: a packet that declares
/// a document type can make a parser read local files or fetch URLs (external entities) or expand a few bytes
/// into gigabytes (nested entities), and bytes that are not the text they claim to be have crashed
/// FoundationXML. XMP has no use for a DOCTYPE, so a packet with one is not read at all.
enum XMPPacket {
    static let largestPacket = PDFLimits.largestXMPPacket
    /// libxml2 refuses documents deeper than 256 levels, noisily; real packets are a dozen deep.
    static let deepestNesting = 200
    /// libxml2 checks an element's attributes against each other, in time that grows with their square:
    /// 200,000 on one element never finish. Real packets put a few dozen properties on one description.
    static let mostAttributes = 1000

    /// The packet as UTF-8, ready for parsing, or `XMPBookmarks.Malformed` saying why it is not read.
    static func checked(_ packet: Data) throws -> Data {
        guard packet.count <= largestPacket else {
            throw XMPBookmarks.Malformed(reason: "the packet is larger than \(largestPacket >> 20) MB")
        }
        let text = try decoded(packet)
        let bytes = Array(text.utf8)
        if let declaration = declarationInProlog(bytes) {
            throw XMPBookmarks.Malformed(reason: "it declares \(declaration) (XMP has none; external or nested "
                                         + "entities are never read)")
        }
        if mostAttributesOnOneElement(bytes) > mostAttributes {
            throw XMPBookmarks.Malformed(reason: "an element has more than \(mostAttributes) attributes")
        }
        if let control = text.unicodeScalars.first(where: { $0.value < 0x20 && !["\t", "\n", "\r"].contains($0) }) {
            throw XMPBookmarks.Malformed(reason: "it holds the control character U+\(String(format: "%04X", control.value)), "
                                         + "which XML does not allow")
        }
        return Data(text.utf8)
    }

    /// A declaration (`<!DOCTYPE`, `<!ENTITY`, …) before the root element, where a document type would have to
    /// stand: processing instructions and comments are skipped exactly, so none can hide one.
    static func declarationInProlog(_ bytes: [UInt8]) -> String? {
        var index = 0
        func starts(_ text: String) -> Bool {
            let pattern = Array(text.utf8)
            return index + pattern.count <= bytes.count && bytes[index..<(index + pattern.count)].elementsEqual(pattern)
        }
        func skip(past end: String) {
            let pattern = Array(end.utf8)
            while index < bytes.count, !starts(end) { index += 1 }
            index = min(bytes.count, index + pattern.count)
        }
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            case UInt8(ascii: "<") where starts("<?"): skip(past: "?>")
            case UInt8(ascii: "<") where starts("<!--"): skip(past: "-->")
            case UInt8(ascii: "<") where starts("<!"):
                let name = bytes[(index + 2)...].prefix { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) }
                return String(decoding: name, as: UTF8.self).uppercased()
            default:
                // The root element, or text the parser will refuse: the prolog ends here.
                return nil
            }
        }
        return nil
    }

    /// The most attributes (namespace declarations included) any one start tag has, counted in one pass
    /// that steps over comments, CDATA sections and processing instructions.
    static func mostAttributesOnOneElement(_ bytes: [UInt8]) -> Int {
        var most = 0
        var index = 0
        func starts(_ text: String) -> Bool {
            let pattern = Array(text.utf8)
            return index + pattern.count <= bytes.count && bytes[index..<(index + pattern.count)].elementsEqual(pattern)
        }
        func skip(past end: String) {
            while index < bytes.count, !starts(end) { index += 1 }
            index += end.utf8.count
        }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if starts("<!--") { skip(past: "-->"); continue }
            if starts("<![CDATA[") { skip(past: "]]>"); continue }
            if starts("<?") { skip(past: "?>"); continue }
            if starts("<!") || starts("</") { skip(past: ">"); continue }
            var count = 0
            var quote: UInt8?
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: "=") {
                    count += 1
                } else if byte == UInt8(ascii: ">") {
                    break
                }
                index += 1
            }
            most = max(most, count)
        }
        return most
    }

    /// UTF-8 (with or without a byte order mark), or UTF-16 or UTF-32 with one, as XMP allows; anything that
    /// does not decode cleanly is refused rather than guessed at. A declaration naming another encoding is
    /// rewritten, since the parser now gets UTF-8.
    private static func decoded(_ packet: Data) throws -> String {
        let bytes = [UInt8](packet.prefix(4))
        let encoding: String.Encoding
        var body = packet
        switch bytes {
        case let b where b.starts(with: [0x00, 0x00, 0xFE, 0xFF]): encoding = .utf32BigEndian; body = packet.dropFirst(4)
        case let b where b.starts(with: [0xFF, 0xFE, 0x00, 0x00]): encoding = .utf32LittleEndian; body = packet.dropFirst(4)
        case let b where b.starts(with: [0xFE, 0xFF]): encoding = .utf16BigEndian; body = packet.dropFirst(2)
        case let b where b.starts(with: [0xFF, 0xFE]): encoding = .utf16LittleEndian; body = packet.dropFirst(2)
        default: encoding = .utf8
        }
        guard var text = String(data: Data(body), encoding: encoding) else {
            throw XMPBookmarks.Malformed(reason: encoding == .utf8 ? "it is not UTF-8 text" : "it is not the \(encoding) text its byte order mark promises")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        if encoding != .utf8, text.hasPrefix("<?xml"), let end = text.range(of: "?>") {
            let declaration = text[..<end.upperBound].replacingOccurrences(
                of: #"encoding\s*=\s*["'][^"']*["']"#, with: "encoding=\"UTF-8\"", options: .regularExpression)
            text = declaration + text[end.upperBound...]
        }
        return text
    }
}
