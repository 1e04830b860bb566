import Foundation
import RedlineKit
import RedlineCore
import TestSupport
import Testing

/// Damaged files poppler (or a newer qpdf) can read but Debian's qpdf 11.3 cannot: Redline repairs them on
/// opening, says so, and a copy saved from them still has what the file had (Tests/Fixtures/hostile).
@Suite struct DamagedFileTests {
    static let repairable = ["damaged-deep-nesting-in-trailer.pdf", "damaged-xref-stream.pdf", "damaged-cyclic-outline-null-count.pdf",
                             "damaged-no-header.pdf", "damaged-count-null-no-size-shifted.pdf", "damaged-nulls-in-trees.pdf"]

    func fixture(_ name: String) -> String { TestPaths.fixture("hostile/" + name) }

    /// Pages, outline titles, links (page 1 to page 2) and comments of a file, as pikepdf reads them.
    func contents(of path: String) throws -> String {
        let result = try ProcessRunner.run(TestPaths.python, ["-c", """
            import pikepdf, sys
            pdf = pikepdf.open(sys.argv[1])
            pages = [p.obj.objgen for p in pdf.pages]
            titles = []
            item = pdf.Root.Outlines.get('/First') if '/Outlines' in pdf.Root else None
            while item is not None and len(titles) < 10:
                titles.append(str(item.Title))
                item = item.get('/Next')
            # A null in /Annots (which readers pass over) is kept as the file had it.
            def annots(page): return [a for a in page.get('/Annots', []) if isinstance(a, pikepdf.Dictionary)]
            links = [pages.index(a.Dest[0].objgen) + 1 for a in annots(pdf.pages[0]) if a.get('/Subtype') == '/Link']
            comments = [str(a.NM) for p in pdf.pages for a in annots(p) if a.get('/Subtype') == '/Text']
            print(len(pages), titles, links, comments)
            """, path])
        guard result.status == 0 else { throw ToolFailure(tool: "pikepdf", output: result.stderr) }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Where nothing can be recovered, the refusal says so in words, not in qpdf's.
    @Test func aTreeWithNoPagesIsRefusedInWords() {
        #expect(throws: DocumentError.damaged(path: fixture("damaged-no-pages.pdf"), reason: "the page tree is damaged: no pages found")) {
            try OpenedDocument(path: fixture("damaged-no-pages.pdf"), password: nil)
        }
    }

    @Test(arguments: repairable)
    func opensRepairedAndSaysSo(_ name: String) throws {
        let document = try OpenedDocument(path: fixture(name), password: nil)
        #expect(document.description.pageCount == 2)
        #expect(document.renderer.pageCount == 2, "poppler draws the same two pages qpdf reads")
        #expect(!document.description.repairs.isEmpty)
        #expect(document.description.annotations.contains { $0.id == "comment-1" && $0.contents == "Please check the totals" })
        // Page 1 shows its text: poppler draws from the repaired document, not a blank page.
        let raster = document.renderer.render(page: 0, scale: 1)
        let dark = (0..<raster.height).flatMap { y in (0..<raster.width).map { raster.rgb(x: $0, y: y) } }.filter { $0.red < 100 }
        #expect(dark.count > 200)
    }

    @Test(arguments: repairable)
    func aCopySavedFromItKeepsPagesOutlineLinksAndComments(_ name: String) throws {
        let folder = TemporaryFolder()
        let output = folder.file("marked.pdf")
        try Saving.save([Saving.text("Checked", page: 1, x: 72, y: 72)], from: fixture(name), to: output)
        // Outline entries may loop in a damaged file: they are kept as they were (two titles, then back again).
        #expect(try contents(of: output).hasPrefix("2 ['Introduction', 'Appendix'"))
        #expect(try contents(of: output).hasSuffix("[2] ['comment-1']"))
        #expect(try QPDFCheck.errors(in: output) == nil)
        #expect(try PopplerText.words(in: output, page: 2).map(\.text).contains("Checked"))
        #expect(try PopplerText.words(in: output, page: 1).map(\.text).contains("review"))
        // The saved copy is sound: it opens without any repair.
        #expect(try MarkupApplication.describe(output, password: nil).repairs.isEmpty)
    }

    @Test func aTruncatedFileOpensWithWhatSurvived() throws {
        let description = try MarkupApplication.describe(fixture("damaged-truncated.pdf"), password: nil)
        #expect(description.pageCount == 2)
        #expect(description.repairs.contains { $0.contains("cross-reference rebuilt") })
    }

    @Test func aFileNothingCanReadIsStillAClearError() {
        #expect {
            try OpenedDocument(path: fixture("unreadable-garbage.pdf"), password: nil)
        } throws: { error in
            guard case DocumentError.damaged = error else { return false }
            return true
        }
    }

    @Test func soundFilesReportNoRepair() throws {
        for name in ["Resources/sample.pdf"] {
            #expect(try MarkupApplication.describe(TestPaths.packageRoot.appendingPathComponent(name).path, password: nil).repairs.isEmpty)
        }
        for fixture in ["qpdf_boxes.pdf", "pdfjs_issue14438.pdf", "pypdf_crazyones-pdfa.pdf", "qpdf_inherited-rotate.pdf"] {
            #expect(try MarkupApplication.describe(TestPaths.fixture(fixture), password: nil).repairs.isEmpty, "\(fixture)")
        }
    }
}
