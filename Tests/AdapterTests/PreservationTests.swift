import Foundation
import RedlineCore
import TestSupport
import Testing

/// What a saved copy keeps, read back with pikepdf (Tests/Tools/pdf_probe.py), not with Redline's code.
@Suite struct PreservationTests {
    @Test func longDocumentEditedOnFirstMiddleAndLastPagesInOneSave() throws {
        let folder = TemporaryFolder()
        let source = folder.file("long.pdf"), output = folder.file("long-marked.pdf")
        try PDFProbe.makeLongDocument(at: source, pages: 320)
        let edited: Set<Int> = [0, 160, 319]
        // Text on each edited page, and ink on the middle one: one save flattens them all.
        let ink = InkMarkup(strokes: [[Point(x: 72, y: 200), Point(x: 300, y: 200), Point(x: 300, y: 260)]], width: 3, color: .blue)
        try Saving.save(edited.sorted().map { Saving.text("Edit\($0 + 1)", page: $0, x: 300, y: 80) } + [(160, .ink(ink))],
                        from: source, to: output)
        let middle = try PopplerRender.page(161, of: output)
        #expect(middle.rgb(200, 200).blue > 150 && middle.rgb(200, 200).red < 100, "the ink on page 161 is there")
        let before = try PDFProbe.read(source), after = try PDFProbe.read(output)

        #expect(after.pageCount == 320)
        for index in 0..<320 {
            // Same pages in the same order: each page still says its own number.
            if index % 40 == 0 || edited.contains(index) {
                #expect(try PopplerText.text(in: output, page: index + 1).contains("Page \(index + 1)"))
            }
            if edited.contains(index) {
                let original = before.contents(ofPage: index), now = after.contents(ofPage: index)
                #expect(now.count == original.count + 2)
                #expect(Array(now[1..<(now.count - 1)]) == original, "page \(index + 1) keeps its content streams")
                #expect(try Saving.word("Edit\(index + 1)", in: output, page: index + 1) != nil)
            } else {
                #expect(after.value("contents", ofPage: index) == before.value("contents", ofPage: index))
                #expect(after.value("resources", ofPage: index) == before.value("resources", ofPage: index),
                        "page \(index + 1) resources unchanged")
            }
            #expect(after.value("annots", ofPage: index) == before.value("annots", ofPage: index))
            #expect(after.value("links", ofPage: index) == before.value("links", ofPage: index))
            #expect(after.value("rotate", ofPage: index) == before.value("rotate", ofPage: index))
            #expect(after.value("mediabox", ofPage: index) == before.value("mediabox", ofPage: index))
        }
        // Outline entries, named destinations and links into edited pages still lead there.
        #expect(after.outline == before.outline)
        #expect(after.names == before.names)
        #expect(after.names["last"] as? Int == 319)
        #expect(after.info == before.info)
        #expect(try QPDFCheck.errors(in: output) == nil)
    }

    @Test func editedPageKeepsItsResourcesAnnotationsAndBoxes() throws {
        let folder = TemporaryFolder()
        let output = folder.file("out.pdf")
        let source = TestPaths.fixture("pypdf_annotated_pdf.pdf")
        try Saving.save([Saving.text("Checked", page: 0, x: 50, y: 50)], from: source, to: output)
        let before = try PDFProbe.read(source), after = try PDFProbe.read(output)
        #expect(after.value("annots", ofPage: 0) == before.value("annots", ofPage: 0))
        #expect((before.value("annots", ofPage: 0) as? NSArray)?.count == 3)
        #expect(after.value("mediabox", ofPage: 0) == before.value("mediabox", ofPage: 0))
        let oldResources = try #require(before.value("resources", ofPage: 0) as? NSDictionary)
        let newResources = try #require(after.value("resources", ofPage: 0) as? NSDictionary)
        for case let key as String in oldResources.allKeys where key != "/XObject" {
            #expect(newResources[key] as? NSObject == oldResources[key] as? NSObject, "resource \(key) kept")
        }
        let markupForms = (newResources["/XObject"] as? NSDictionary)?.allKeys.compactMap { $0 as? String }
            .filter { $0.hasPrefix("/RedlineMarkup") }
        #expect(markupForms == ["/RedlineMarkup1"])
    }

    @Test func scannedPageKeepsItsInvisibleOCRText() throws {
        let folder = TemporaryFolder()
        let output = folder.file("out.pdf")
        let source = TestPaths.fixture("pikepdf_sandwich.pdf")
        let ocrBefore = try PopplerText.text(in: source, page: 1)
        #expect(ocrBefore.count > 20, "the fixture has an OCR layer")
        try Saving.save([Saving.text("Scanned", page: 0, x: 20, y: 20)], from: source, to: output)
        let ocrAfter = try PopplerText.text(in: output, page: 1)
        for line in ocrBefore.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            #expect(ocrAfter.contains(line), "OCR text \"\(line)\" kept")
        }
        #expect(try PDFProbe.read(output).xmp == (try PDFProbe.read(source).xmp))
    }

    @Test func metadataAndXMPOfAPDFAFileSurvive() throws {
        let folder = TemporaryFolder()
        let output = folder.file("out.pdf")
        let source = TestPaths.fixture("pypdf_crazyones-pdfa.pdf")
        try Saving.save([Saving.text("Archived", page: 0, x: 20, y: 20)], from: source, to: output)
        let before = try PDFProbe.read(source), after = try PDFProbe.read(output)
        #expect(before.xmp != nil)
        #expect(after.xmp == before.xmp)
        #expect(after.info == before.info)
    }

    @Test func pageWithSharedResourcesDoesNotChangeItsNeighbours() throws {
        // Every page of the sample shares one resource dictionary.
        let folder = TemporaryFolder()
        let output = folder.file("out.pdf")
        try Saving.save([Saving.text("Only here", page: 1, x: 72, y: 72)], from: TestPaths.sample, to: output)
        let before = try PDFProbe.read(TestPaths.sample), after = try PDFProbe.read(output)
        for index in [0, 2, 3] {
            #expect(after.value("resources", ofPage: index) == before.value("resources", ofPage: index))
            #expect(after.value("contents", ofPage: index) == before.value("contents", ofPage: index))
        }
        #expect(after.outline == before.outline)
    }
}
