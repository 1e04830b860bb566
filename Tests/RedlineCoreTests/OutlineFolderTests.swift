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
        #expect(folder.reconciled(list, pageCount: 20).list == list)
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
        let result = folder.reconciled(list, pageCount: 20).list
        #expect(Self.summary(result) == ["15 Added elsewhere", "3 Introduction", "10 -"])
        // The added one keeps its id from one reading to the next, so a save pairs it up.
        #expect(result.bookmarks[0].id == folder.reconciled(list, pageCount: 20).list.bookmarks[0].id)
    }

    @Test func metadataChangesSinceTheFolderWasWrittenStay() {
        let written = Self.list([(Self.a, 3, "Intro"), (Self.b, 9, nil)])
        let folder = OutlineFolder(for: written)
        // In Preview since: b removed, c added, a renamed.
        let now = Self.list([(Self.a, 3, "Opening"), (Self.c, 12, nil)])
        #expect(Self.summary(folder.reconciled(now, pageCount: 20).list) == ["3 Opening", "12 -"])
    }

    @Test func entriesLeadingNowhereArePassedOverAndACopyIsABookmarkOfItsOwn() {
        let list = Self.list([(Self.a, 3, "Intro")])
        var folder = OutlineFolder(for: list)
        folder.entries.append(folder.entries[0])
        folder.entries.append(OutlineFolder.Entry(bookmarkID: nil, title: "Past the end", pageIndex: 99))
        folder.entries.append(OutlineFolder.Entry(bookmarkID: nil, title: "A web link", pageIndex: nil, object: 7 << 16))
        let (reconciled, paired) = folder.reconciled(list, pageCount: 20)
        #expect(Self.summary(reconciled) == ["3 Intro", "3 Intro"])
        #expect(Set(reconciled.bookmarks.map(\.id)).count == 2)
        // Written again, the web link's entry stays, after the bookmarks.
        let rewritten = OutlineFolder(for: reconciled, previous: paired)
        #expect(rewritten.entries.map(\.title) == ["Intro", "Intro", "A web link"])
        folder.entries.removeLast(3)
        // Its entry moved past the end: the bookmark stays where it was.
        folder.entries[0].pageIndex = 500
        #expect(Self.summary(folder.reconciled(list, pageCount: 20).list) == ["3 Intro"])
    }

    /// The metadata holding none of the folder's bookmarks (unreadable, stripped, a sidecar on another machine) says
    /// nothing about them: the folder's stay. Removed in Preview but renamed in the outline: the outline wins.
    @Test func absenceIsTrustedOnlyFromMetadataThatKnowsTheFolder() {
        let written = Self.list([(Self.a, 3, "Intro"), (Self.b, 9, nil)])
        var folder = OutlineFolder(for: written)
        #expect(Self.summary(folder.reconciled(BookmarkList(), pageCount: 20).list) == ["3 Intro", "9 -"])
        #expect(Self.summary(folder.reconciled(Self.list([(Self.a, 3, "Intro")]), pageCount: 20, trustsAbsence: false).list) == ["3 Intro", "9 -"])
        #expect(Self.summary(folder.reconciled(Self.list([(Self.a, 3, "Intro")]), pageCount: 20).list) == ["3 Intro"])
        folder.entries[1].title = "Results"
        #expect(Self.summary(folder.reconciled(Self.list([(Self.a, 3, "Intro")]), pageCount: 20).list) == ["3 Intro", "9 Results"])
    }

    /// A program that rewrote the outline dropped Redline's keys: a last "Bookmarks" entry whose entries show the
    /// bookmarks is the folder still, and a bookmark it no longer shows was removed there.
    @Test func aFolderWithoutItsKeysIsKnownByItsEntries() {
        let list = Self.list([(Self.a, 3, "Intro"), (Self.b, 9, nil), (Self.c, 12, "Old")])
        let rewritten = OutlineFolder(entries: [OutlineFolder.Entry(bookmarkID: nil, title: "Intro", pageIndex: 3, object: 40 << 16),
                                                OutlineFolder.Entry(bookmarkID: nil, title: "Page 10", pageIndex: 9, object: 41 << 16)],
                                      written: [], object: 39 << 16, adopted: true)
        let (reconciled, paired) = rewritten.reconciled(list, pageCount: 20)
        #expect(Self.summary(reconciled) == ["3 Intro", "9 -"])
        #expect(paired?.entries.map(\.bookmarkID) == [Self.a, Self.b])
        #expect(paired.map { !$0.isInStep(with: reconciled, labels: nil) } == true, "written again, with its keys")
        let theirs = OutlineFolder(entries: [OutlineFolder.Entry(bookmarkID: nil, title: "Chapter", pageIndex: 2, object: 40 << 16)],
                                   written: [], object: 39 << 16, adopted: true)
        #expect(theirs.reconciled(list, pageCount: 20).folder == nil, "the document's own Bookmarks entry is not Redline's")
    }

    @Test func aHundredThousandEntriesReconcileInOnePass() {
        let list = BookmarkList((0..<100_000).map { Bookmark(id: String(format: "00000000-0000-0000-0000-%012d", $0), pageIndex: $0 % 500, sortKey: $0) })
        var folder = OutlineFolder(for: list)
        folder.entries.reverse()
        let result = folder.reconciled(list, pageCount: 500).list
        #expect(result.bookmarks.count == 100_000)
        #expect(result.sorted(.custom).first?.id == list.bookmarks.last?.id)
    }
}
