import Foundation
import RedlineCore
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Bookmarks in a document's XMP packet, as Apple Preview and PSPDFKit store them (docs/bookmarks.md):
/// `apple-preview:Bookmarks`, an `rdf:Seq` of page index and UUID items, and `pspdf:Bookmarks`, one text
/// property holding a JSON array with the names. Every other property of the packet is left as it was.
public enum XMPBookmarks {
    /// The largest packet read: more is refused, unread.
    public static let largestPacket = XMPPacket.largestPacket
    public static let previewNamespace = "http://ns.apple.com/Preview/1.0/"
    public static let pspdfNamespace = "http://pspdfkit.com/pdf/xmp/1.0/"
    static let rdfNamespace = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

    public struct Malformed: Error, Equatable, CustomStringConvertible {
        public let reason: String

        public init(reason: String) {
            self.reason = reason
        }

        public var description: String { "the XMP metadata is malformed: \(reason)" }
    }

    /// The bookmarks a packet holds, in their custom order. Preview's items say which pages are
    /// bookmarked; names come from PSPDFKit's items, by UUID, else by page. Items for pages the
    /// document does not have are ignored, as Preview does.
    public static func read(_ packet: Data, pageCount: Int) throws -> [Bookmark] {
        let document = try parse(packet)
        // Hashed once: every item without a UUID derives its own from it, the same on every read (undo, sidecars
        // and collaborators compare bookmark ids).
        let packetHash = StableHash.fnv1a64(packet)
        let previewItems = try previewBookmarks(in: document, packetHash: packetHash)
        let pspdfItems = try pspdfBookmarks(in: document, packetHash: packetHash)
        var result: [Bookmark] = []
        if let previewItems {
            var names = NameMatcher(pspdfItems)
            for item in previewItems where (0..<pageCount).contains(item.page) {
                let match = names.take(uuid: item.uuid, page: item.page)
                // The custom order is PSPDFKit's array order; Preview's own items follow in page order.
                let position = match ?? pspdfItems.count + result.count
                result.append(Bookmark(id: item.uuid, pageIndex: item.page, name: match.flatMap { pspdfItems[$0].name },
                                       sortKey: position))
            }
            for (position, item) in pspdfItems.enumerated() where item.page == nil {
                result.append(Bookmark(id: item.uuid, pageIndex: nil, name: item.name, sortKey: position, otherAction: item.otherAction))
            }
        } else {
            for (position, item) in pspdfItems.enumerated() where item.page.map({ (0..<pageCount).contains($0) }) ?? true {
                result.append(Bookmark(id: item.uuid, pageIndex: item.page, name: item.name, sortKey: position,
                                       otherAction: item.otherAction))
            }
        }
        return BookmarkList(result).bookmarks
    }

    /// The packet with its bookmark properties replaced by `bookmarks`, or removed when there are none.
    /// Without a packet, a new well-formed one (or nil when there is nothing to store).
    public static func write(_ bookmarks: [Bookmark], into packet: Data?) throws -> Data? {
        guard let packet else {
            guard !bookmarks.isEmpty else { return nil }
            return try write(bookmarks, into: emptyPacket)
        }
        let document = try parse(packet)
        removeBookmarkProperties(from: document)
        if !bookmarks.isEmpty {
            try addBookmarkProperties(bookmarks, to: document)
        }
        var data = document.xmlData(options: [.nodeCompactEmptyElement])
        // libxml2 adds an XML declaration; a packet that had none keeps starting with its xpacket header.
        let hadDeclaration = String(decoding: packet.prefix(64), as: UTF8.self)
            .trimmingCharacters(in: CharacterSet(charactersIn: "\u{FEFF}").union(.whitespacesAndNewlines)).hasPrefix("<?xml ")
        if !hadDeclaration, let text = String(data: data, encoding: .utf8), text.hasPrefix("<?xml "),
           let end = text.range(of: "?>") {
            data = Data(text[end.upperBound...].drop { $0 == "\n" }.utf8)
        }
        // Never store metadata that cannot be read back: a reader that fails on it loses every bookmark.
        do {
            _ = try read(data, pageCount: Int.max)
        } catch {
            throw Malformed(reason: "the bookmarks could not be written into it (\(error))")
        }
        return data
    }

    // MARK: Reading

    private static func parse(_ untrusted: Data) throws -> XMLDocument {
        let packet = try XMPPacket.checked(untrusted)
        try checkQuietly(packet)
        do {
            return try XMLDocument(data: packet, options: [.nodePreserveWhitespace, .nodeLoadExternalEntitiesNever])
        } catch {
            throw Malformed(reason: "not well-formed XML")
        }
    }

    /// The document parser recovers from broken XML and prints libxml2's complaints on stderr (over the
    /// editor's screen); the streaming parser reports quietly, and this check makes it strict, so the document
    /// parser only ever sees XML it will read without a word.
    private static func checkQuietly(_ packet: Data) throws {
        let check = WellFormedness()
        let parser = XMLParser(data: packet)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = check
        _ = parser.parse()
        if check.deepest > XMPPacket.deepestNesting {
            throw Malformed(reason: "its elements nest more than \(XMPPacket.deepestNesting) deep")
        }
        if let error = parser.parserError ?? check.error {
            throw Malformed(reason: "not well-formed XML: \(explanation((error as NSError).code)) (line \(parser.lineNumber))")
        }
        guard check.roots == 1, check.depth == 0 else {
            throw Malformed(reason: check.roots == 0 ? "no XML element" : "the XML ends inside an element")
        }
    }

    /// XMLParser's error codes, in words.
    private static func explanation(_ code: Int) -> String {
        switch code {
        case 4: "there is no XML"
        case 5: "it ends before its elements are closed"
        case 9, 68: "a character or name is not allowed there"
        case 73, 76: "an element is closed with the wrong name"
        case 201, 202: "a prefix has no namespace declared"
        default: "XML error \(code)"
        }
    }

    private struct PreviewItem {
        var page: Int
        var uuid: String
    }

    /// nil when the packet has no `apple-preview:Bookmarks` at all (an empty list is an answer).
    private static func previewBookmarks(in document: XMLDocument, packetHash: UInt64) throws -> [PreviewItem]? {
        let properties = try elements(named: "Bookmarks", namespace: previewNamespace, in: document)
        guard !properties.isEmpty else { return nil }
        var items: [PreviewItem] = []
        for property in properties {
            for (position, item) in try property.nodes(forXPath: ".//*[local-name()='li']").compactMap({ $0 as? XMLElement }).enumerated() {
                guard let pageText = try value(named: "PageIndex", in: item), let page = Int(pageText.trimmingCharacters(in: .whitespaces)),
                      page >= 0 else { continue }
                // An item without its UUID gets one: Preview itself would crash on it, Redline keeps the page. The
                // same packet always gives the same one, so reading a file twice names its bookmarks alike.
                let uuid = try value(named: "UUID", in: item)?.trimmingCharacters(in: .whitespaces)
                    ?? StableUUID.derived(seed: packetHash, item: "apple-preview \(items.count) \(position) \(page)").uuidString
                items.append(PreviewItem(page: page, uuid: uuid.uppercased()))
            }
        }
        return items
    }

    /// PSPDFKit's items, each given to at most one of Preview's: the one with its UUID, else the next one on
    /// its page. Indexed, with a cursor per key past the ones already given, so tens of thousands of bookmarks
    /// (or thousands sharing one UUID) match in linear time.
    private struct NameMatcher {
        private var byUUID: Queues<String>
        private var byPage: Queues<Int>
        private var taken: Set<Int> = []

        init(_ items: [PSPDFItem]) {
            byUUID = Queues(items.enumerated().map { ($0.element.uuid, $0.offset) })
            byPage = Queues(items.enumerated().compactMap { item in item.element.page.map { ($0, item.offset) } })
        }

        mutating func take(uuid: String, page: Int) -> Int? {
            guard let index = byUUID.next(uuid, skipping: taken) ?? byPage.next(page, skipping: taken) else { return nil }
            taken.insert(index)
            return index
        }

        struct Queues<Key: Hashable> {
            private var indexes: [Key: [Int]] = [:]
            private var cursors: [Key: Int] = [:]

            init(_ entries: [(Key, Int)]) {
                for (key, index) in entries { indexes[key, default: []].append(index) }
            }

            /// The first index under `key` not yet taken; those before it never are again.
            mutating func next(_ key: Key, skipping taken: Set<Int>) -> Int? {
                guard let list = indexes[key] else { return nil }
                var cursor = cursors[key] ?? 0
                while cursor < list.count, taken.contains(list[cursor]) { cursor += 1 }
                cursors[key] = cursor
                return cursor < list.count ? list[cursor] : nil
            }
        }
    }

    private struct PSPDFItem: Equatable {
        var uuid: String
        var page: Int?
        var name: String?
        var otherAction: String?
    }

    private static func pspdfBookmarks(in document: XMLDocument, packetHash: UInt64) throws -> [PSPDFItem] {
        var texts = try elements(named: "Bookmarks", namespace: pspdfNamespace, in: document).compactMap(\.stringValue)
        texts += try document.nodes(forXPath: "//@*[local-name()='Bookmarks' and namespace-uri()='\(pspdfNamespace)']")
            .compactMap(\.stringValue)
        var items: [PSPDFItem] = []
        for text in texts where !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            guard let array = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any] else {
                throw Malformed(reason: "pspdf:Bookmarks is not a JSON array")
            }
            for case let entry as [String: Any] in array {
                let uuid = (entry["uuid"] as? String)?.uppercased()
                    ?? StableUUID.derived(seed: packetHash, item: "pspdf \(items.count)").uuidString
                let action = entry["action"] as? [String: Any]
                let isGoTo = (action?["actionType"] as? String)?.caseInsensitiveCompare("Goto") == .orderedSame
                let page = isGoTo ? (action?["pageIndex"] as? NSNumber).flatMap(pageIndex) : nil
                var other: String?
                if page == nil, let action, let data = try? JSONSerialization.data(withJSONObject: action, options: [.sortedKeys, .withoutEscapingSlashes]) {
                    other = String(data: data, encoding: .utf8)
                }
                items.append(PSPDFItem(uuid: uuid, page: page, name: entry["name"] as? String, otherAction: other))
            }
        }
        return items
    }

    /// A JSON page index as a whole number a document can have; 1e300, -5 or 2.5 are no page.
    private static func pageIndex(_ number: NSNumber) -> Int? {
        let value = number.doubleValue
        guard value.isFinite, value >= 0, value < Double(Int32.max), value == value.rounded() else { return nil }
        return Int(value)
    }

    private static func elements(named name: String, namespace: String, in node: XMLNode) throws -> [XMLElement] {
        try node.nodes(forXPath: "//*[local-name()='\(name)' and namespace-uri()='\(namespace)']").compactMap { $0 as? XMLElement }
    }

    /// A Preview field of one item: a child element (directly or in a nested rdf:Description) or an attribute.
    private static func value(named name: String, in item: XMLElement) throws -> String? {
        let query = "descendant::*[local-name()='\(name)' and namespace-uri()='\(previewNamespace)'] | "
            + "descendant-or-self::*/@*[local-name()='\(name)' and namespace-uri()='\(previewNamespace)']"
        return try item.nodes(forXPath: query).first?.stringValue
    }

    // MARK: Writing

    private static let emptyPacket = Data("""
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
          <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """.utf8)

    private static func removeBookmarkProperties(from document: XMLDocument) {
        for namespace in [previewNamespace, pspdfNamespace] {
            for element in (try? elements(named: "Bookmarks", namespace: namespace, in: document)) ?? [] {
                let parent = element.parent as? XMLElement
                element.detach()
                if let parent { removeIfEmpty(parent) }
            }
            let attributes = (try? document.nodes(forXPath: "//@*[local-name()='Bookmarks' and namespace-uri()='\(namespace)']")) ?? []
            for attribute in attributes {
                guard let owner = attribute.parent as? XMLElement, let name = attribute.name else { continue }
                owner.removeAttribute(forName: name)
                removeIfEmpty(owner)
            }
        }
    }

    /// An rdf:Description left with nothing but rdf:about is dropped.
    private static func removeIfEmpty(_ element: XMLElement) {
        guard element.localName == "Description", element.uri == rdfNamespace else { return }
        let hasChildren = (element.children ?? []).contains { $0.kind == .element }
        let hasProperties = (element.attributes ?? []).contains { $0.localName != "about" }
        if !hasChildren && !hasProperties { element.detach() }
    }

    private static func addBookmarkProperties(_ bookmarks: [Bookmark], to document: XMLDocument) throws {
        guard let rdf = try document.nodes(forXPath: "//*[local-name()='RDF' and namespace-uri()='\(rdfNamespace)']").first as? XMLElement else {
            throw Malformed(reason: "no rdf:RDF element")
        }
        // Every rdf:Description of a packet describes the same resource.
        let about = (try document.nodes(forXPath: "//*[local-name()='Description']/@*[local-name()='about']").first?.stringValue) ?? ""
        let r = rdf.prefix.flatMap { $0.isEmpty ? nil : $0 } ?? "rdf"
        var xml = "<\(r):Description xmlns:\(r)=\"\(rdfNamespace)\" xmlns:apple-preview=\"\(previewNamespace)\" "
            + "xmlns:pspdf=\"\(pspdfNamespace)\" \(r):about=\"\(escaped(about))\">"
        let pageOrdered = BookmarkList(bookmarks).sorted(.page).compactMap { bookmark in
            bookmark.pageIndex.map { (storableID(bookmark.id), $0) }
        }
        if !pageOrdered.isEmpty {
            xml += "<apple-preview:Bookmarks><\(r):Seq>"
            for (id, page) in pageOrdered {
                xml += "<\(r):li \(r):parseType=\"Resource\"><apple-preview:PageIndex>\(page)</apple-preview:PageIndex>"
                    + "<apple-preview:UUID>\(escaped(id))</apple-preview:UUID></\(r):li>"
            }
            xml += "</\(r):Seq></apple-preview:Bookmarks>"
        }
        xml += "<pspdf:Bookmarks>\(escaped(try pspdfJSON(bookmarks)))</pspdf:Bookmarks></\(r):Description>"
        do {
            try checkQuietly(Data(xml.utf8))
        } catch {
            throw Malformed(reason: "the bookmarks could not be written as XML")
        }
        let fragment = try XMLElement(xmlString: xml)
        rdf.addChild(fragment)
    }

    /// Text for XML: the five markup characters escaped, and the characters XML 1.0 cannot hold at all (most
    /// of C0, U+FFFE, U+FFFF: not even as references) replaced by U+FFFD.
    private static func escaped(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(isAllowedInXML(scalar) ? scalar : "\u{FFFD}")
        }
        return String(scalars).replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func isAllowedInXML(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D, 0x20...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// The id written for a bookmark: its own, or for one XML cannot hold (a hostile document's, a markup
    /// file's), a UUID made from it, the same every time, so Preview's and PSPDFKit's items still pair up.
    public static func storableID(_ id: String) -> String {
        guard !id.unicodeScalars.allSatisfy({ isAllowedInXML($0) && $0.value >= 0x20 }) else { return id }
        let digits = Array(StableHash.hex(id) + StableHash.hex("redline-bookmark:" + id)).map { String($0).uppercased() }
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { digits[$0].joined() }.joined(separator: "-")
    }

    /// PSPDFKit's array, in the custom order.
    static func pspdfJSON(_ bookmarks: [Bookmark]) throws -> String {
        let entries: [[String: Any]] = BookmarkList(bookmarks).bookmarks.map { bookmark in
            var action: Any = NSNull()
            if let page = bookmark.pageIndex {
                action = ["actionType": "Goto", "pageIndex": page]
            } else if let other = bookmark.otherAction, let data = other.data(using: .utf8),
                      let object = try? JSONSerialization.jsonObject(with: data) {
                action = object
            }
            var entry: [String: Any] = ["action": action, "uuid": storableID(bookmark.id)]
            if let name = bookmark.name { entry["name"] = name }
            return entry
        }
        let data = try JSONSerialization.data(withJSONObject: entries, options: [.sortedKeys, .withoutEscapingSlashes])
        // JSON escapes C0 itself; U+FFFE and U+FFFF are valid JSON but not XML, so they travel as escapes too.
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\u{FFFE}", with: "\\uFFFE")
            .replacingOccurrences(of: "\u{FFFF}", with: "\\uFFFF")
    }
}

/// Counts what XMLParser sees, to catch what it lets pass (an element left open at the end).
private final class WellFormedness: NSObject, XMLParserDelegate {
    var depth = 0
    var deepest = 0
    var roots = 0
    var error: Error?

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        if depth == 0 { roots += 1 }
        depth += 1
        deepest = max(deepest, depth)
        if depth > XMPPacket.deepestNesting { parser.abortParsing() }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        depth -= 1
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        error = error ?? parseError
    }
}
