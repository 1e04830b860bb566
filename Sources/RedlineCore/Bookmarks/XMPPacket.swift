import Foundation

/// What an XMP packet must be before any XML parser sees it. A PDF is untrusted input: a packet that declares
/// a document type can make a parser read local files or fetch URLs (external entities) or expand a few bytes
/// into gigabytes (nested entities), and bytes that are not the text they claim to be have crashed
/// FoundationXML. XMP has no use for a DOCTYPE, so a packet with one is not read at all.
enum XMPPacket {
    static let largestPacket = 8 << 20
    /// libxml2 refuses documents deeper than 256 levels, noisily; real packets are a dozen deep.
    static let deepestNesting = 200

    /// The packet as UTF-8, ready for parsing, or `XMPBookmarks.Malformed` saying why it is not read.
    static func checked(_ packet: Data) throws -> Data {
        guard packet.count <= largestPacket else {
            throw XMPBookmarks.Malformed(reason: "the packet is larger than \(largestPacket >> 20) MB")
        }
        let text = try decoded(packet)
        if let declaration = ["<!DOCTYPE", "<!ENTITY"].first(where: { text.range(of: $0, options: .caseInsensitive) != nil }) {
            throw XMPBookmarks.Malformed(reason: "it declares \(declaration.dropFirst(2)) (XMP has none; external or nested "
                                         + "entities are never read)")
        }
        if let control = text.unicodeScalars.first(where: { $0.value < 0x20 && !["\t", "\n", "\r"].contains($0) }) {
            throw XMPBookmarks.Malformed(reason: "it holds the control character U+\(String(format: "%04X", control.value)), "
                                         + "which XML does not allow")
        }
        return Data(text.utf8)
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
