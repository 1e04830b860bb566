import Foundation
import PDFAssembly
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

    /// Poppler makes no page that lists more than 10,000 annotations (not even its paper): such a page is said, its
    /// paper shown, and its annotations still listed. One fewer is drawn as usual.
    @Test func aPageOfMoreAnnotationsThanPopplerMakesIsSaidAndItsAnnotationsListed() throws {
        let folder = TemporaryFolder()
        for count in [10_000, 10_001] {
            let path = folder.file("crowded-\(count).pdf")
            let made = try ProcessRunner.run(TestPaths.python, [TestPaths.tool("make_crowded_document.py"), path, "mixed", "\(count)"])
            #expect(made.status == 0, "\(made.stderr)")
            let refusal = try PageCostInspector(path: path, password: nil).refusal(page: 0)
            let document = try OpenedDocument(path: path, password: nil)
            #expect(document.description.annotations.count == count)
            let raster = document.renderer.render(page: 0, scale: 0.5)
            if count > PageCostInspector.mostAnnotations {
                #expect(refusal == "it lists 10001 annotations, more than the 10000 poppler draws on a page (the annotation list has them all)")
                #expect(raster.refusal != nil && raster.pixels.allSatisfy { $0 == 255 }, "blank paper, said")
            } else {
                #expect(refusal == nil)
                #expect(raster.refusal == nil && raster.pixels.contains { $0 < 128 }, "the page and its annotations drawn")
            }
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
