import Foundation
import RedlineCore
import XMPMetadata
import Testing

@Suite struct BookmarkTests {
    /// As Apple Preview writes it: element form, page order, no names.
    static let previewPacket = """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
          <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
              <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Report</rdf:li></rdf:Alt></dc:title>
            </rdf:Description>
            <rdf:Description rdf:about="" xmlns:apple-preview="http://ns.apple.com/Preview/1.0/">
              <apple-preview:Bookmarks>
                <rdf:Seq>
                  <rdf:li rdf:parseType="Resource">
                    <apple-preview:PageIndex>1</apple-preview:PageIndex>
                    <apple-preview:UUID>0f3c1e2a-0000-4000-8000-000000000001</apple-preview:UUID>
                  </rdf:li>
                  <rdf:li>
                    <rdf:Description>
                      <apple-preview:PageIndex>3</apple-preview:PageIndex>
                      <apple-preview:UUID>0F3C1E2A-0000-4000-8000-000000000002</apple-preview:UUID>
                    </rdf:Description>
                  </rdf:li>
                  <rdf:li rdf:parseType="Resource">
                    <apple-preview:PageIndex>99</apple-preview:PageIndex>
                    <apple-preview:UUID>0F3C1E2A-0000-4000-8000-000000000003</apple-preview:UUID>
                  </rdf:li>
                </rdf:Seq>
              </apple-preview:Bookmarks>
            </rdf:Description>
          </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """

    /// As PSPDFKit writes it: attribute form, with the JSON holding names and its own order.
    static let pspdfPacket = """
        <?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:apple-preview="http://ns.apple.com/Preview/1.0/" xmlns:pspdf="http://pspdfkit.com/pdf/xmp/1.0/"
          pspdf:Bookmarks="[{&quot;action&quot;:{&quot;actionType&quot;:&quot;Goto&quot;,&quot;pageIndex&quot;:4},&quot;name&quot;:&quot;Results&quot;,&quot;uuid&quot;:&quot;B2&quot;},{&quot;action&quot;:{&quot;actionType&quot;:&quot;Goto&quot;,&quot;pageIndex&quot;:0},&quot;name&quot;:&quot;Cover&quot;,&quot;uuid&quot;:&quot;OTHER&quot;},{&quot;action&quot;:{&quot;actionType&quot;:&quot;URI&quot;,&quot;uri&quot;:&quot;https://example.com&quot;},&quot;name&quot;:&quot;Site&quot;,&quot;uuid&quot;:&quot;B3&quot;}]">
          <apple-preview:Bookmarks><rdf:Seq>
            <rdf:li apple-preview:PageIndex="0" apple-preview:UUID="B1"/>
            <rdf:li apple-preview:PageIndex="4" apple-preview:UUID="B2"/>
          </rdf:Seq></apple-preview:Bookmarks>
        </rdf:Description></rdf:RDF></x:xmpmeta>
        <?xpacket end="w"?>
        """

    @Test func readsPreviewsElementForm() throws {
        let bookmarks = try XMPBookmarks.read(Data(Self.previewPacket.utf8), pageCount: 10)
        #expect(bookmarks.map(\.pageIndex) == [1, 3])
        #expect(bookmarks.map(\.id) == ["0F3C1E2A-0000-4000-8000-000000000001", "0F3C1E2A-0000-4000-8000-000000000002"])
        #expect(bookmarks.allSatisfy { $0.name == nil })
    }

    @Test func readsPSPDFKitsAttributeFormWithNamesByUUIDElseByPage() throws {
        let bookmarks = try XMPBookmarks.read(Data(Self.pspdfPacket.utf8), pageCount: 10)
        // PSPDFKit's array gives the custom order; Preview's items say which pages are bookmarked.
        #expect(bookmarks.map(\.title) == ["Results", "Cover", "Site"])
        #expect(bookmarks.map(\.id) == ["B2", "B1", "B3"])
        #expect(bookmarks.map(\.pageIndex) == [4, 0, nil])
        #expect(bookmarks[2].otherAction?.contains("https://example.com") == true)
    }

    /// Items without a UUID: two of Preview's, one of PSPDFKit's that leads nowhere Preview lists.
    static let packetWithoutUUIDs = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:apple-preview="http://ns.apple.com/Preview/1.0/" xmlns:pspdf="http://pspdfkit.com/pdf/xmp/1.0/"
          pspdf:Bookmarks="[{&quot;action&quot;:{&quot;actionType&quot;:&quot;URI&quot;,&quot;uri&quot;:&quot;https://example.com&quot;},&quot;name&quot;:&quot;Site&quot;}]">
          <apple-preview:Bookmarks><rdf:Seq>
            <rdf:li apple-preview:PageIndex="0"/>
            <rdf:li apple-preview:PageIndex="2"/>
            <rdf:li apple-preview:PageIndex="2"/>
          </rdf:Seq></apple-preview:Bookmarks>
        </rdf:Description></rdf:RDF></x:xmpmeta>
        """

    @Test func itemsWithoutUUIDGetTheSameWellFormedDistinctIDsOnEveryRead() throws {
        let packet = Data(Self.packetWithoutUUIDs.utf8)
        let first = try XMPBookmarks.read(packet, pageCount: 5)
        let second = try XMPBookmarks.read(packet, pageCount: 5)
        #expect(first.count == 4)
        #expect(first.map(\.id) == second.map(\.id))
        #expect(Set(first.map(\.id)).count == 4)
        #expect(first.allSatisfy { UUID(uuidString: $0.id) != nil })
        // Another packet gives other ids: two documents' bookmarks do not share them.
        let other = try XMPBookmarks.read(Data(Self.packetWithoutUUIDs.replacingOccurrences(of: "Site", with: "Home").utf8), pageCount: 5)
        #expect(Set(other.map(\.id)).isDisjoint(with: first.map(\.id)))
    }

    @Test func writesBothPropertiesAndReadsThemBack() throws {
        let list = BookmarkList([Bookmark(id: "b", pageIndex: 5, name: "Later", sortKey: 0),
                                 Bookmark(id: "a", pageIndex: 2, name: "Früh & <soon>", sortKey: 1),
                                 Bookmark(id: "c", pageIndex: nil, name: "Site", sortKey: 2,
                                          otherAction: #"{"actionType":"URI","uri":"https://example.com"}"#)])
        let packet = try #require(try XMPBookmarks.write(list.bookmarks, into: Data(Self.previewPacket.utf8)))
        let text = String(decoding: packet, as: UTF8.self)
        #expect(text.hasPrefix("<?xpacket begin="))
        #expect(text.contains("<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">Report</rdf:li></rdf:Alt></dc:title>"))
        #expect(!text.contains("0F3C1E2A"), "the old bookmarks are replaced")
        let back = try XMPBookmarks.read(packet, pageCount: 10)
        #expect(back == list.bookmarks)
        // Preview's list is in page order; pages from 0.
        let pages = text.components(separatedBy: "<apple-preview:PageIndex>").dropFirst().map { $0.prefix { $0.isNumber } }
        #expect(pages == ["2", "5"])
    }

    @Test func noBookmarksLeftRemovesThePropertiesAndNoPacketGetsOne() throws {
        let emptied = try #require(try XMPBookmarks.write([], into: Data(Self.pspdfPacket.utf8)))
        let text = String(decoding: emptied, as: UTF8.self)
        #expect(!text.contains("Bookmarks"))
        #expect(!text.contains("rdf:Description"), "a description left empty is dropped")
        #expect(try XMPBookmarks.write([], into: nil) == nil)
        let fresh = try #require(try XMPBookmarks.write([Bookmark(id: "x", pageIndex: 0, sortKey: 0)], into: nil))
        #expect(try XMPBookmarks.read(fresh, pageCount: 1).map(\.id) == ["X"])
    }

    @Test func malformedMetadataIsAnErrorThatSaysSo() {
        #expect(throws: XMPBookmarks.Malformed.self) {
            try XMPBookmarks.read(Data("<x:xmpmeta><rdf:RDF>".utf8), pageCount: 3)
        }
        let badJSON = Self.pspdfPacket.replacingOccurrences(of: "[{&quot;action", with: "{oops[{&quot;action")
        #expect(throws: XMPBookmarks.Malformed(reason: "pspdf:Bookmarks is not a JSON array")) {
            try XMPBookmarks.read(Data(badJSON.utf8), pageCount: 10)
        }
    }

    @Test func sortOrdersAndMoves() {
        var list = BookmarkList()
        list.put(Bookmark(id: "p9", pageIndex: 9, sortKey: 0))
        list.put(Bookmark(id: "none", pageIndex: nil, name: "Site", sortKey: 0))
        list.put(Bookmark(id: "p2", pageIndex: 2, sortKey: 0))
        list.put(Bookmark(id: "p2b", pageIndex: 2, name: "Second on 2", sortKey: 0))
        #expect(list.sorted(.custom).map(\.id) == ["P9", "NONE", "P2", "P2B"])
        #expect(list.sorted(.page).map(\.id) == ["P2", "P2B", "P9", "NONE"])
        list.move("P2", by: -1)
        #expect(list.sorted(.custom).map(\.id) == ["P9", "P2", "NONE", "P2B"])
        list.move("P9", by: -1)
        #expect(list.sorted(.custom).map(\.id) == ["P9", "P2", "NONE", "P2B"])
        // Renaming replaces the bookmark with the same identifier, where it stands.
        list.put(list.bookmark("NONE")!.renamed("Website"))
        #expect(list.sorted(.custom).map(\.title) == ["Page 10", "Page 3", "Website", "Second on 2"])
        #expect(list.toggle(page: 9, newID: "new") == false)
        #expect(list.toggle(page: 0, newID: "new") == true)
        #expect(list.sorted(.custom).last?.id == "NEW")
    }

    struct FixedProvider: BookmarkProvider {
        let identifier: String
        let held: [Bookmark]
        let accepting: Bool

        func load() throws -> [Bookmark] { held }
        func accepts(_ bookmark: Bookmark) -> Bool { accepting }
        func save(_ bookmarks: [Bookmark], into write: inout DocumentWrite) throws {
            write.metadata = Data((identifier + ":" + bookmarks.map(\.id).joined(separator: ",")).utf8)
        }
    }

    struct BrokenProvider: BookmarkProvider {
        let identifier = "broken"
        func load() throws -> [Bookmark] { throw XMPBookmarks.Malformed(reason: "test") }
        func accepts(_ bookmark: Bookmark) -> Bool { false }
        func save(_ bookmarks: [Bookmark], into write: inout DocumentWrite) throws {}
    }

    @Test func theChainMergesOnReadAndGivesNewBookmarksToTheFirstThatAccepts() throws {
        let declining = FixedProvider(identifier: "first", held: [Bookmark(id: "a", pageIndex: 0, sortKey: 0)], accepting: false)
        let accepting = FixedProvider(identifier: "second", held: [Bookmark(id: "a", pageIndex: 5, sortKey: 0),
                                                                   Bookmark(id: "b", pageIndex: 1, sortKey: 0)], accepting: true)
        let manager = BookmarkManager(providers: [BrokenProvider(), declining, accepting])
        #expect(manager.list.bookmarks.map(\.id) == ["A", "B"])
        #expect(manager.list.bookmark("A")?.pageIndex == 0, "a bookmark two providers hold is the first's")
        #expect(manager.problems == ["the XMP metadata is malformed: test"])
        var list = manager.list
        list.put(Bookmark(id: "new", pageIndex: 3, sortKey: 0))
        let shares = try manager.shares(of: list)
        #expect(shares.map { $0.bookmarks.map(\.id) } == [[], ["A"], ["B", "NEW"]])

        let nobody = BookmarkManager(providers: [declining])
        #expect(throws: BookmarkError.noProviderAccepts("Page 2")) {
            try nobody.shares(of: list)
        }
    }
}
