import Foundation
import RedlineCore
import XMPMetadata
import Testing

/// XMP packets are untrusted: a DOCTYPE is never parsed, text that is not what it claims is refused before
/// any XML parser sees it, and reading or rewriting a packet never prints anything.
@Suite(.serialized) struct XMPSafetyTests {
    static let bookmark = #"<apple-preview:Bookmarks><rdf:Seq><rdf:li rdf:parseType="Resource"><apple-preview:PageIndex>1</apple-preview:PageIndex><apple-preview:UUID>6A0E1C5B-2F7D-4C8A-9B3E-1D2F3A4B5C6D</apple-preview:UUID></rdf:li></rdf:Seq></apple-preview:Bookmarks>"#

    static func packet(_ body: String, prolog: String = "") -> Data {
        Data(("<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n" + prolog
              + #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">"#
              + #"<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:apple-preview="http://ns.apple.com/Preview/1.0/">"#
              + body + "</rdf:Description></rdf:RDF></x:xmpmeta>\n<?xpacket end=\"w\"?>").utf8)
    }

    /// Whether captured output holds what libxml2 prints (`Entity: line 1: parser error : …`, `I/O warning : …`).
    /// Other tests run at the same time and their runner's lines land on the same descriptor, so the check
    /// looks for libxml2's own words, not for silence.
    static func isLibXML2(_ output: Data) -> Bool {
        let text = String(decoding: output, as: UTF8.self)
        return ["parser error", "namespace error", "I/O warning", "I/O error", "Entity: line", "validity error",
                "failed to load external entity"].contains { text.contains($0) }
    }

    /// What was written to file descriptor 2 while `body` ran: libxml2 prints there, bypassing Swift.
    func standardError(during body: () -> Void) throws -> Data {
        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("stderr-\(UUID().uuidString)")
        let descriptor = open(capture.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let saved = dup(STDERR_FILENO)
        fflush(nil)
        dup2(descriptor, STDERR_FILENO)
        body()
        fflush(nil)
        dup2(saved, STDERR_FILENO)
        close(saved)
        close(descriptor)
        defer { try? FileManager.default.removeItem(at: capture) }
        return try Data(contentsOf: capture)
    }

    static let hostile: [(String, Data, String)] = [
        ("external file entity", packet("<dc:d>&x;</dc:d>" + bookmark, prolog: #"<!DOCTYPE x:xmpmeta [<!ENTITY x SYSTEM "file:///etc/passwd">]>"#),
         "it declares DOCTYPE"),
        ("external URL entity", packet("<dc:d>&x;</dc:d>", prolog: #"<!DOCTYPE x:xmpmeta [<!ENTITY x SYSTEM "http://127.0.0.1:9/">]>"#),
         "it declares DOCTYPE"),
        ("nested entities", packet("<dc:d>&a;</dc:d>", prolog: #"<!DOCTYPE x [<!ENTITY b "lol"><!ENTITY a "&b;&b;&b;&b;">]>"#),
         "it declares DOCTYPE"),
        ("an entity without a DOCTYPE", packet("<dc:d>x</dc:d>", prolog: #"<!ENTITY x "y">"#), "it declares ENTITY"),
        ("lower-case doctype", packet("<dc:d/>", prolog: "<!doctype x>"), "it declares DOCTYPE"),
        ("0xFF in an element name", packet("<dc:t") + Data([0xFF]) + packet("le/>"), "it is not UTF-8 text"),
        ("an overlong encoding", packet("<dc:t>") + Data([0xC0, 0xAF]) + packet("</dc:t>"), "it is not UTF-8 text"),
        ("a NUL byte", packet("<dc:t>\u{0}</dc:t>"), "it holds the control character U+0000"),
        ("nested 1000 deep", packet(String(repeating: "<dc:n>", count: 1000) + String(repeating: "</dc:n>", count: 1000)),
         "its elements nest more than 200 deep"),
        ("9 MB", packet("<dc:t>" + String(repeating: "A", count: 9 << 20) + "</dc:t>"), "the packet is larger than 8 MB"),
        ("not well-formed", packet("<dc:t></dc:x>"), "not well-formed XML"),
    ]

    @Test func hostilePacketsAreRefusedWithTheirReasonAndNothingIsPrinted() throws {
        for (name, packet, reason) in Self.hostile {
            var error: Error?
            let printed = try standardError {
                do { _ = try XMPBookmarks.read(packet, pageCount: 5) } catch let caught { error = caught }
                _ = try? XMPBookmarks.write([Bookmark(id: UUID().uuidString, pageIndex: 0, sortKey: 0)], into: packet)
            }
            #expect(!Self.isLibXML2(printed), "\(name): printed \(String(decoding: printed.prefix(200), as: UTF8.self))")
            #expect((error as? XMPBookmarks.Malformed)?.reason.hasPrefix(reason) == true, "\(name): \(String(describing: error))")
        }
    }

    @Test func aPacketWithADoctypeIsNeverRewritten() {
        let packet = Self.hostile[0].1
        let provider = XMPBookmarkProvider(metadata: packet, pageCount: 5)
        #expect(!provider.accepts(Bookmark(id: UUID().uuidString, pageIndex: 0, sortKey: 0)), "new bookmarks go elsewhere")
        var write = DocumentWrite(originalMetadata: packet)
        #expect(throws: Never.self) { try provider.save([], into: &write) }
        #expect(write.metadata == nil, "the packet is left exactly as it is")
    }

    @Test(arguments: ["UTF-16BE", "UTF-16LE", "UTF-32BE", "UTF-32LE"])
    func packetsInUTF16AndUTF32WithAByteOrderMarkAreRead(_ name: String) throws {
        let text = String(decoding: Self.packet(Self.bookmark), as: UTF8.self).replacingOccurrences(of: "\u{FEFF}", with: "")
        let (encoding, mark): (String.Encoding, [UInt8]) = switch name {
        case "UTF-16BE": (.utf16BigEndian, [0xFE, 0xFF])
        case "UTF-16LE": (.utf16LittleEndian, [0xFF, 0xFE])
        case "UTF-32BE": (.utf32BigEndian, [0, 0, 0xFE, 0xFF])
        default: (.utf32LittleEndian, [0xFF, 0xFE, 0, 0])
        }
        var bytes = mark
        bytes += [UInt8](try #require(("<?xml version=\"1.0\" encoding=\"UTF-16\"?>" + text).data(using: encoding)))
        let bookmarks = try XMPBookmarks.read(Data(bytes), pageCount: 5)
        #expect(bookmarks.map(\.pageIndex) == [1])
        // Rewritten as UTF-8, which the declaration then says.
        let rewritten = try #require(try XMPBookmarks.write(bookmarks, into: Data(bytes)))
        #expect(String(data: rewritten, encoding: .utf8) != nil)
        #expect(try XMPBookmarks.read(rewritten, pageCount: 5).map(\.pageIndex) == [1])
    }

    @Test func pageIndexesThatAreNoPageAreIgnored() throws {
        let json = #"[{"action":{"actionType":"Goto","pageIndex":1e300},"uuid":"A"},{"action":{"actionType":"Goto","pageIndex":-5},"uuid":"B"},{"action":{"actionType":"Goto","pageIndex":2.5},"uuid":"C"},{"action":{"actionType":"Goto","pageIndex":3},"uuid":"D"}]"#
        let packet = Self.packet(#"<pspdf:Bookmarks xmlns:pspdf="http://pspdfkit.com/pdf/xmp/1.0/">"# + json + "</pspdf:Bookmarks>")
        let bookmarks = try XMPBookmarks.read(packet, pageCount: 5)
        #expect(bookmarks.filter { $0.pageIndex != nil }.map(\.id) == ["D"])
    }

    /// Preview's items and PSPDFKit's names are matched through indexes, each name given once: 20,000
    /// bookmarks sharing one UUID (the worst case for matching) took 15 s in a debug build when every match
    /// searched the whole list, 0.9 s now. The limit only guards against a hang; speed is measured, not asserted.
    @Test(.timeLimit(.minutes(1))) func tensOfThousandsOfBookmarksAreMatchedInLinearTime() throws {
        let count = 20_000
        let items = (0..<count).map { index in
            #"<rdf:li rdf:parseType="Resource"><apple-preview:PageIndex>\#(index % 3)</apple-preview:PageIndex><apple-preview:UUID>6A0E1C5B-2F7D-4C8A-9B3E-1D2F3A4B5C6D</apple-preview:UUID></rdf:li>"#
        }.joined()
        let names = (0..<count).map { #"{"action":{"actionType":"Goto","pageIndex":\#($0 % 3)},"name":"B\#($0)","uuid":"6A0E1C5B-2F7D-4C8A-9B3E-1D2F3A4B5C6D"}"# }
        let packet = Self.packet("<apple-preview:Bookmarks><rdf:Seq>" + items + "</rdf:Seq></apple-preview:Bookmarks>"
                                 + #"<pspdf:Bookmarks xmlns:pspdf="http://pspdfkit.com/pdf/xmp/1.0/">["# + names.joined(separator: ",") + "]</pspdf:Bookmarks>")
        let bookmarks = try XMPBookmarks.read(packet, pageCount: 3)
        #expect(bookmarks.count == count)
        #expect(Set(bookmarks.compactMap(\.name)).count == count, "every name given once")
        #expect(bookmarks.first?.name == "B0" && bookmarks.last?.name == "B\(count - 1)")
    }

    /// libxml2 compares an element's attributes with each other: 200,000 on one element never finished.
    @Test(.timeLimit(.minutes(1))) func elementsWithThousandsOfAttributesAreRefusedBeforeParsing() throws {
        let attributes = (0..<200_000).map { "a\($0)=\"x\"" }.joined(separator: " ")
        let namespaces = (0..<100_000).map { "xmlns:n\($0)=\"http://n/\($0)\"" }.joined(separator: " ")
        for body in ["<dc:t " + attributes + "/>", "<dc:t " + namespaces + "/>"] {
            #expect(throws: XMPBookmarks.Malformed(reason: "an element has more than 1000 attributes")) {
                try XMPBookmarks.read(Self.packet(body), pageCount: 3)
            }
        }
        // A thousand is still read, and so is text that only looks like a declaration after the root begins.
        let thousand = (0..<1000).map { "a\($0)=\"x\"" }.joined(separator: " ")
        #expect(throws: Never.self) { try XMPBookmarks.read(Self.packet("<dc:t " + thousand + "/>" + Self.bookmark), pageCount: 3) }
        #expect(try XMPBookmarks.read(Self.packet("<!-- <!DOCTYPE x> -->" + Self.bookmark), pageCount: 3).count == 1)
    }

    /// Names and ids XML cannot hold (U+FFFE, C0 controls) are still written as metadata that reads back.
    @Test func namesAndIDsXMLCannotHoldAreWrittenSoTheyReadBack() throws {
        let bookmarks = [Bookmark(id: "bad\u{1B}id", pageIndex: 0, name: "One \u{FFFE}\u{1B}[2J", sortKey: 0),
                         Bookmark(id: UUID().uuidString, pageIndex: 1, name: "Two\u{FFFF}", sortKey: 1)]
        var printed = Data()
        var written: Data?
        printed = try standardError { written = try? XMPBookmarks.write(bookmarks, into: Self.packet("")) }
        #expect(!Self.isLibXML2(printed), "\(String(decoding: printed, as: UTF8.self))")
        let read = try XMPBookmarks.read(try #require(written), pageCount: 3)
        #expect(read.map(\.name) == ["One \u{FFFE}\u{1B}[2J", "Two\u{FFFF}"], "names exact")
        #expect(read.first?.id == XMPBookmarks.storableID(bookmarks[0].id), "an id XML cannot hold becomes a UUID made from it")
        #expect(read.first?.id.count == 36 && read.last?.id == bookmarks.last?.id)
    }
}
