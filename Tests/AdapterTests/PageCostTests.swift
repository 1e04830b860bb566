import Foundation
import PDFAssembly
import RedlineCore
import RedlineKit
import TestSupport
import Testing

/// Pages poppler would draw for ever are kept from it, judged from their content; every real page is drawn.
@Suite struct PageCostTests {
    @Test(arguments: ["forms-drawing-each-other-2-to-the-29.pdf", "tiling-pattern-xstep-0.0001.pdf"])
    func aPageThatWouldDrawForEverIsNotDrawnReadOrSearched(_ name: String) throws {
        let path = TestPaths.fixture("hostile/" + name)
        let costs = try PageCostInspector(path: path, password: nil)
        #expect(costs.refusal(page: 0) == "it would take more than 20 million drawing steps (forms or patterns drawn over and over)")
        #expect(costs.refusal(page: 1) == nil, "the page beside it is ordinary")
        let document = try OpenedDocument(path: path, password: nil)
        let raster = document.renderer.render(page: 0, scale: 1)
        #expect(raster.refusal != nil)
        #expect(raster.pixels.allSatisfy { $0 == 255 }, "blank paper")
        #expect(document.searcher.find("Page", onPage: 0, caseSensitive: false).isEmpty)
        #expect(document.searcher.find("Page", onPage: 1, caseSensitive: false).count == 1)
    }

    /// Poppler makes no page that lists more than 10,000 annotations, and then none after it either: such a page is
    /// drawn from a copy that lists none on it, so its content and every later page are drawn and searched, its
    /// annotations still listed from qpdf's reading. One fewer is drawn with its annotations, from the file.
    @Test func aPageOfMoreAnnotationsThanPopplerMakesLosesNoPage() throws {
        let folder = TemporaryFolder()
        for count in [10_000, 10_001] {
            let crowded = folder.file("crowded-\(count).pdf")
            let made = try ProcessRunner.run(TestPaths.python, [TestPaths.tool("make_crowded_document.py"), crowded, "mixed", "\(count)"])
            #expect(made.status == 0, "\(made.stderr)")
            // The crowded page second, between two pages of the sample.
            let path = folder.file("between-\(count).pdf")
            let joined = try ProcessRunner.run("qpdf", ["--empty", "--pages", TestPaths.sample, "1", crowded, "1", TestPaths.sample, "2-4", "--", path])
            #expect(joined.status == 0, "\(joined.stderr)")
            let document = try OpenedDocument(path: path, password: nil)
            #expect(document.description.annotations.filter { $0.pageIndex == 1 }.count == count)
            #expect(document.description.crowdedPages == (count > DocumentDescription.mostAnnotationsPopplerDraws ? [1: count] : [:]))
            #expect(document.renderer.pageCount == 5)
            for page in 0..<5 {
                let raster = document.renderer.render(page: page, scale: 0.3)
                #expect(raster.refusal == nil && raster.pixels.contains { $0 < 128 }, "page \(page + 1) of \(count) drawn")
            }
            #expect(!document.searcher.find("crowded", onPage: 1, caseSensitive: false).isEmpty, "the crowded page's own words")
            let later = try OpenedDocument.forSearching(path: path, password: nil)
            let found = TextSearch.hits(of: "the", in: 2..<5, using: later.searcher)
            #expect(!found.isEmpty, "pages after the crowded one are searched")
        }
    }

    /// The copy a crowded page is drawn from is the file with one update appended (the page without its /Annots), not
    /// a complete rewrite that has qpdf read every annotation; with cross-reference streams too. An encrypted file
    /// is copied whole, as before. Every page is drawn from each.
    @Test func aCrowdedPageIsDrawnFromAnUpdateAppendedToTheFile() throws {
        let folder = TemporaryFolder()
        let crowded = folder.file("crowded.pdf")
        let count = DocumentDescription.mostAnnotationsPopplerDraws + 1
        #expect(try ProcessRunner.run(TestPaths.python, [TestPaths.tool("make_crowded_document.py"), crowded, "mixed", "\(count)"]).status == 0)
        let plain = folder.file("plain.pdf")
        #expect(try ProcessRunner.run("qpdf", ["--empty", "--pages", TestPaths.sample, "1", crowded, "1", TestPaths.sample, "2-4", "--", plain]).status == 0)
        let streams = folder.file("streams.pdf")
        #expect(try ProcessRunner.run("qpdf", ["--object-streams=generate", plain, streams]).status == 0)
        let encrypted = folder.file("encrypted.pdf")
        #expect(try ProcessRunner.run("qpdf", ["--encrypt", "", "owner", "256", "--", plain, encrypted]).status == 0)
        for (path, appended) in [(plain, true), (streams, true), (encrypted, false)] {
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            let copy = try PDFInspector.copyForDrawing(path: path, password: nil, crowded: [1])
            #expect((copy.count > original.count && copy.prefix(original.count) == original) == appended, "\(path)")
            let document = try OpenedDocument(path: path, password: nil)
            #expect(document.description.crowdedPages == [1: count])
            #expect(document.renderer.pageCount == 5)
            for page in 0..<5 {
                let raster = document.renderer.render(page: page, scale: 0.3)
                #expect(raster.refusal == nil && raster.pixels.contains { $0 < 128 }, "page \(page + 1) of \(path) drawn")
            }
            #expect(!document.searcher.find("crowded", onPage: 1, caseSensitive: false).isEmpty, "the crowded page's own words")
        }
    }

    /// No page of any real document the tests carry is kept from poppler, scans and long books included.
    @Test func everyRealPageIsDrawn() throws {
        let folder = TestPaths.fixture("")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasSuffix(".pdf") && !$0.contains("_enc-") && $0 != "pdfjs_Pages-tree-refs.pdf" }.sorted()
        for path in names.map({ folder + "/" + $0 }) + [TestPaths.sample] {
            let costs = try PageCostInspector(path: path, password: nil)
            let pages = try OpenedDocument(path: path, password: nil).description.pageCount
            let refused = (0..<pages).filter { costs.refusal(page: $0) != nil }
            #expect(refused.isEmpty, "\(path): pages \(refused.map { $0 + 1 }) refused")
        }
    }
}
