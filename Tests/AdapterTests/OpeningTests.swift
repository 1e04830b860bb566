import Foundation
import RedlineKit
import RedlineCore
import TestSupport
import Testing

@Suite struct OpeningTests {
    @Test func aRepairedFileOpensAndSaysWhatWasRepaired() throws {
        let document = try OpenedDocument(path: TestPaths.fixture("damaged-startxref.pdf"), password: nil)
        #expect(document.description.pageCount == 4)
        #expect(document.description.repairs.first?.contains("damaged") == true)
        // A broken xref table that qpdf reads without complaint opens quietly.
        #expect(try OpenedDocument(path: TestPaths.fixture("qpdf_bad-xref.pdf"), password: nil).description.pageCount == 1)
    }

    @Test func aPageTreeLoopIsAClearErrorNotAHang() {
        #expect {
            try OpenedDocument(path: TestPaths.fixture("pdfjs_Pages-tree-refs.pdf"), password: nil)
        } throws: { error in
            guard case DocumentError.damaged(_, let reason) = error else { return false }
            return reason.contains("Loop")
        }
    }

    @Test func encryptedFilesNeedTheirPassword() throws {
        let path = TestPaths.fixture("qpdf_enc-XI-R6_V5_U-view.pdf")
        #expect(throws: DocumentError.passwordRequired(path: path)) { try OpenedDocument(path: path, password: nil) }
        #expect(throws: DocumentError.wrongPassword(path: path)) { try OpenedDocument(path: path, password: "nope") }
        #expect(try OpenedDocument(path: path, password: "view").description.pageCount == 30)
    }

    @Test func missingAndNonPDFFilesAreRefused() throws {
        let folder = TemporaryFolder()
        let text = folder.file("notes.pdf")
        try "just text, not a PDF".write(toFile: text, atomically: true, encoding: .utf8)
        #expect(throws: DocumentError.notFound(path: folder.file("none.pdf"))) {
            try OpenedDocument(path: folder.file("none.pdf"), password: nil)
        }
        #expect { try OpenedDocument(path: text, password: nil) } throws: { error in
            if case DocumentError.damaged = error { return true }
            return false
        }
    }

    @Test func geometryIsReadWithInheritanceAndOddBoxes() throws {
        let boxes = try MarkupApplication.describe(TestPaths.fixture("qpdf_boxes.pdf"), password: nil)
        #expect(Set(boxes.pages.map(\.rotation)) == Set(PageRotation.allCases))
        #expect(boxes.pages.allSatisfy { $0.cropBox == PDFBox(x1: 10, y1: 20, x2: 582, y2: 752) })
        let inherited = try MarkupApplication.describe(TestPaths.fixture("qpdf_inherited-rotate.pdf"), password: nil)
        #expect(inherited.pages[0].rotation == .quarter)
    }
}
