import Foundation
import RedlineKit
import RedlineCore
import TestSupport
import Testing

/// Bookmarks saved into real files and read back by Redline and by pikepdf's XMP reader.
@Suite struct BookmarkSavingTests {
    let pdfa = TestPaths.fixture("pypdf_crazyones-pdfa.pdf")
    let previewKey = "{http://ns.apple.com/Preview/1.0/}Bookmarks"
    let pspdfKey = "{http://pspdfkit.com/pdf/xmp/1.0/}Bookmarks"

    func job(_ input: String, providers: [String] = ["xmp"], data folder: TemporaryFolder) -> BookmarkJob {
        BookmarkJob(input: input, password: nil,
                    setup: BookmarkSetup(providerNames: providers, environment: ["XDG_DATA_HOME": folder.path + "/data"]))
    }

    @Test func aPDFAKeepsEveryOtherPropertyWhenBookmarksAreAddedAndRemoved() throws {
        let folder = TemporaryFolder()
        let original = try ProbedXMP.read(pdfa)
        #expect(original.pdfa == "1B")

        let added = folder.file("added.pdf")
        let copy = folder.file("copy.pdf")
        try FileManager.default.copyItem(atPath: pdfa, toPath: copy)
        let first = try job(copy, data: folder).add(page: 0, name: "Crazy ones", output: added)
        let twice = folder.file("twice.pdf")
        let second = try job(added, data: folder).add(page: 0, name: "Renamed", output: twice)
        #expect(second.id == first.id, "a page already bookmarked keeps its bookmark")

        let probed = try ProbedXMP.read(twice)
        #expect(!probed.recovered)
        #expect(probed.pdfa == "1B")
        var others = probed.properties
        #expect(others.removeValue(forKey: previewKey) != nil)
        #expect(others.removeValue(forKey: pspdfKey) != nil)
        #expect(others == original.properties)
        let item = try #require(probed.preview?.first)
        #expect(probed.preview?.count == 1)
        #expect(item.PageIndex == "0" && item.UUID == first.id && item.parseType == "Resource")
        let entry = try #require(probed.pspdf?.first)
        #expect(probed.pspdf?.count == 1)
        #expect(entry.action?.actionType == "Goto" && entry.action?.pageIndex == 0)
        #expect(entry.name == "Renamed" && entry.uuid == first.id)
        #expect(first.id == first.id.uppercased() && UUID(uuidString: first.id) != nil)
        #expect(try QPDFCheck.errors(in: twice) == nil)

        let removed = folder.file("removed.pdf")
        #expect(try job(twice, data: folder).remove(page: 0, output: removed))
        let after = try ProbedXMP.read(removed)
        #expect(after.properties == original.properties)
        #expect(after.preview == nil && after.pspdf == nil)
        #expect(after.pdfa == "1B")
    }

    @Test func whatIsSavedIsReadBackInItsOrder() throws {
        let folder = TemporaryFolder()
        let sample = TestPaths.sample
        let saved = folder.file("saved.pdf")
        let description = try MarkupApplication.describe(sample, password: nil)
        var list = BookmarkList()
        list.put(Bookmark(id: UUID().uuidString, pageIndex: 3, name: "Appendix", sortKey: 0))
        list.put(Bookmark(id: UUID().uuidString, pageIndex: 0, name: "Cover", sortKey: 0))
        let setup = BookmarkSetup(providerNames: ["xmp"], environment: ["XDG_DATA_HOME": folder.path])
        try DocumentSaver(services: RedlineServices()).save(DocumentEdits(bookmarks: list), source: sample, password: nil,
                                                             description: description,
                                                             bookmarks: try setup.manager(for: description, path: sample),
                                                             to: saved)
        let reopened = try setup.describe(try MarkupApplication.describe(saved, password: nil), path: saved)
        #expect(reopened.bookmarks.sorted(.custom).map(\.name) == ["Appendix", "Cover"])
        #expect(reopened.bookmarks.sorted(.page).map(\.name) == ["Cover", "Appendix"])
        #expect(reopened.bookmarks.bookmarks.map(\.id) == list.bookmarks.map(\.id))
        #expect(try ProbedXMP.read(saved).preview?.map(\.PageIndex) == ["0", "3"])
        // The pages are untouched: no markup was saved.
        #expect(try PDFProbe.read(saved).contents(ofPage: 0) == (try PDFProbe.read(sample).contents(ofPage: 0)))
    }

    @Test func theSidecarKeepsBookmarksOutOfTheFileAndCopiesShareThem() throws {
        let folder = TemporaryFolder()
        let output = folder.file("copy.pdf")
        let sidecar = job(pdfa, providers: ["sidecar"], data: folder)
        try sidecar.add(page: 0, name: "Outside the file", output: output)
        #expect(try ProbedXMP.read(output).properties == (try ProbedXMP.read(pdfa).properties))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/data/redline/bookmarks")
        #expect(files.count == 1)
        #expect(try job(output, providers: ["sidecar"], data: folder).describe().bookmarks.bookmarks.map(\.name) == ["Outside the file"])
        #expect(try job(pdfa, providers: ["sidecar"], data: folder).describe().bookmarks.bookmarks.count == 1)
    }

    @Test func malformedXMPStillOpensAndNewBookmarksGoToTheNextProvider() throws {
        let folder = TemporaryFolder()
        let broken = folder.file("broken.pdf")
        let script = "import pikepdf,sys; p=pikepdf.open(sys.argv[1]); "
            + "p.Root['/Metadata']=p.make_indirect(pikepdf.Stream(p, b'<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF')); "
            + "p.save(sys.argv[2], fix_metadata_version=False)"
        let made = try ProcessRunner.run(TestPaths.python, ["-c", script, TestPaths.sample, broken])
        #expect(made.status == 0, "\(made.stderr)")
        let chain = job(broken, providers: ["xmp", "sidecar"], data: folder)
        let description = try chain.describe()
        #expect(description.bookmarks.isEmpty)
        #expect(description.bookmarkProblems
            == ["the XMP metadata is malformed: not well-formed XML: it ends before its elements are closed (line 1)"])
        let output = folder.file("out.pdf")
        try chain.add(page: 1, name: "Kept aside", output: output)
        // The unreadable packet is not rewritten; the sidecar took the bookmark.
        let metadata = try ProcessRunner.run(TestPaths.python, ["-c", "import pikepdf,sys; p=pikepdf.open(sys.argv[1]); print(p.Root.Metadata.read_bytes())", output])
        #expect(metadata.stdout.contains("<rdf:RDF'"))
        #expect(try job(output, providers: ["xmp", "sidecar"], data: folder).describe().bookmarks.bookmarks.map(\.name) == ["Kept aside"])
    }
}
