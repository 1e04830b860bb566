import Foundation
import RedlineCore
import TestSupport
import Testing

/// Text lands where it was asked for, on every page geometry: poppler's text extraction finds its box
/// within 1 pt of x, y in the page as the user sees it.
@Suite struct PlacementTests {
    @Test(arguments: 1...8)
    func textLandsWhereAskedOnRotatedAndCroppedPages(page: Int) throws {
        // qpdf_boxes.pdf: /Rotate 0, 90, 180, 270 with crop box [10 20 582 752] and offset media boxes.
        let folder = TemporaryFolder()
        let output = folder.file("out.pdf")
        let (x, y) = (40.0 + Double(page) * 7, 90.0 + Double(page) * 11)
        try Saving.save([Saving.text("Placed\(page)", page: page - 1, x: x, y: y)],
                        from: TestPaths.fixture("qpdf_boxes.pdf"), to: output)
        let word = try #require(try Saving.word("Placed\(page)", in: output, page: page))
        #expect(abs(word.xMin - x) <= 1)
        #expect(abs(word.yMin - y) <= 1)
        #expect(try QPDFCheck.errors(in: output) == nil)
    }

    @Test(arguments: ["qpdf_inherited-rotate.pdf", "pdfcpu_blank-scan.pdf", "pikepdf_sandwich.pdf"])
    func textLandsWhereAskedOnInheritedRotationAndScans(fixture: String) throws {
        let folder = TemporaryFolder()
        let output = folder.file("out.pdf")
        try Saving.save([Saving.text("Reviewed", page: 0, x: 33, y: 57)], from: TestPaths.fixture(fixture), to: output)
        let word = try #require(try Saving.word("Reviewed", in: output, page: 1))
        #expect(abs(word.xMin - 33) <= 1 && abs(word.yMin - 57) <= 1)
        #expect(try QPDFCheck.errors(in: output) == nil)
    }

    @Test func accentedTextIsSavedAndExtractedAsTyped() throws {
        let folder = TemporaryFolder()
        let output = folder.file("out.pdf")
        try Saving.save([Saving.text("Größe", page: 0, x: 72, y: 72), Saving.text("déjà-vu", page: 0, x: 72, y: 120),
                         Saving.text("Ελληνικά", page: 0, x: 72, y: 160)],
                        from: TestPaths.sample, to: output)
        let words = try PopplerText.words(in: output, page: 1).map(\.text)
        #expect(words.contains("Größe"))
        #expect(words.contains("déjà-vu"))
        #expect(words.contains("Ελληνικά"))
    }

    @Test func theFontIsEmbedded() throws {
        let folder = TemporaryFolder()
        let output = folder.file("out.pdf")
        try Saving.save([Saving.text("Embedded", page: 0, x: 72, y: 72)], from: TestPaths.sample, to: output)
        let fonts = try ProcessRunner.run("pdffonts", [output]).stdout
        let dejaVu = try #require(fonts.split(separator: "\n").first { $0.contains("DejaVuSans") })
        // pdffonts' "emb" column says yes.
        #expect(dejaVu.split(separator: " ").contains("yes"))
    }

    @Test func repeatedMarkAndSaveDoesNotDrift() throws {
        let folder = TemporaryFolder()
        let first = folder.file("first.pdf"), second = folder.file("second.pdf")
        let source = TestPaths.fixture("qpdf_boxes.pdf")
        try Saving.save([Saving.text("Earlier", page: 3, x: 100, y: 100)], from: source, to: first)
        try Saving.save([Saving.text("Later", page: 3, x: 100, y: 200)], from: first, to: second)
        let before = try #require(try Saving.word("Earlier", in: first, page: 4))
        let after = try #require(try Saving.word("Earlier", in: second, page: 4))
        #expect(before == after)
        let later = try #require(try Saving.word("Later", in: second, page: 4))
        #expect(abs(later.xMin - 100) <= 1 && abs(later.yMin - 200) <= 1)
        #expect(try QPDFCheck.errors(in: second) == nil)
    }

    @Test func encryptedDocumentsStayEncryptedWithTheSamePassword() throws {
        let folder = TemporaryFolder()
        let output = folder.file("out.pdf")
        try Saving.save([Saving.text("Secret", page: 1, x: 60, y: 60)],
                        from: TestPaths.fixture("qpdf_enc-XI-R6_V5_U-view.pdf"), to: output, password: "view")
        #expect(try Saving.word("Secret", in: output, page: 2, password: "view") != nil)
        let probe = try PDFProbe.read(output, password: "view")
        #expect(probe.json["encrypted"] as? Bool == true)
        #expect(try QPDFCheck.errors(in: output, password: "view") == nil)
    }
}
