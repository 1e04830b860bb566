import Foundation
import RedlineCore
import Testing

/// Telling what another program did to the outline's folder from what Preview did to the metadata.
@Suite struct OutlineFolderTests {
    static let a = "AAAAAAAA-0000-0000-0000-000000000001", b = "AAAAAAAA-0000-0000-0000-000000000002"
    static let c = "AAAAAAAA-0000-0000-0000-000000000003"

    static func list(_ items: [(String, Int, String?)]) -> BookmarkList {
        BookmarkList(items.enumerated().map { Bookmark(id: $1.0, pageIndex: $1.1, name: $1.2, sortKey: $0) })
    }

    static func summary(_ list: BookmarkList) -> [String] {
        list.sorted(.custom).map { "\($0.pageIndex ?? -1) \($0.name ?? "-")" }
    }

    @Test func aFolderJustWrittenChangesNothing() {
        let list = Self.list([(Self.a, 3, "Intro"), (Self.b, 9, nil)])
        let labels = PageLabels([.init(firstPage: 0, style: .lowerRoman), .init(firstPage: 4, style: .decimal)])
        let folder = OutlineFolder(for: list, labels: labels)
        #expect(folder.entries.map(\.title) == ["Intro", "Page 6"], "page 10 is printed as 6")
        #expect(folder.reconciled(list, pageCount: 20) == list)
        #expect(folder.isInStep(with: list, labels: labels))
        #expect(!folder.isInStep(with: Self.list([(Self.a, 3, "Intro")]), labels: labels))
    }

    @Test func renamesMovesRemovalsAndAdditionsInTheFolderAreTakenIn() {
        let list = Self.list([(Self.a, 3, "Intro"), (Self.b, 9, nil), (Self.c, 12, "Old")])
        var folder = OutlineFolder(for: list)
        folder.entries[0].title = "Introduction"
        folder.entries[1].pageIndex = 10
        folder.entries.remove(at: 2)
        folder.entries.insert(OutlineFolder.Entry(bookmarkID: nil, title: "Added elsewhere", pageIndex: 15), at: 0)
        let result = folder.reconciled(list, pageCount: 20)
        #expect(Self.summary(result) == ["15 Added elsewhere", "3 Introduction", "10 -"])
        // The added one keeps its id from one reading to the next, so a save pairs it up.
        #expect(result.bookmarks[0].id == folder.reconciled(list, pageCount: 20).bookmarks[0].id)
    }

    @Test func metadataChangesSinceTheFolderWasWrittenStay() {
        let written = Self.list([(Self.a, 3, "Intro"), (Self.b, 9, nil)])
        let folder = OutlineFolder(for: written)
        // In Preview since: b removed, c added, a renamed.
        let now = Self.list([(Self.a, 3, "Opening"), (Self.c, 12, nil)])
        #expect(Self.summary(folder.reconciled(now, pageCount: 20)) == ["3 Opening", "12 -"])
    }

    @Test func entriesLeadingNowhereAndRepeatedEntriesArePassedOver() {
        let list = Self.list([(Self.a, 3, "Intro")])
        var folder = OutlineFolder(for: list)
        folder.entries.append(folder.entries[0])
        folder.entries.append(OutlineFolder.Entry(bookmarkID: nil, title: "Past the end", pageIndex: 99))
        folder.entries.append(OutlineFolder.Entry(bookmarkID: nil, title: "Named destination", pageIndex: nil))
        #expect(Self.summary(folder.reconciled(list, pageCount: 20)) == ["3 Intro"])
        // Its entry moved past the end: the bookmark stays where it was.
        folder.entries[0].pageIndex = 500
        #expect(Self.summary(folder.reconciled(list, pageCount: 20)) == ["3 Intro"])
    }

    @Test func aHundredThousandEntriesReconcileInOnePass() {
        let list = BookmarkList((0..<100_000).map { Bookmark(id: String(format: "00000000-0000-0000-0000-%012d", $0), pageIndex: $0 % 500, sortKey: $0) })
        var folder = OutlineFolder(for: list)
        folder.entries.reverse()
        let result = folder.reconciled(list, pageCount: 500)
        #expect(result.bookmarks.count == 100_000)
        #expect(result.sorted(.custom).first?.id == list.bookmarks.last?.id)
    }
}
