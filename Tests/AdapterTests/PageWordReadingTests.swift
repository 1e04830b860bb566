import Foundation
import PDFRendering
import RedlineCore
import TestSupport
import Testing

/// The words Redline reads through poppler's text layout against pdftotext's word boxes (`-bbox`, the crop
/// box's top left as origin): the boxes text selection and highlights are drawn on.
@Suite struct PageWordReadingTests {
    @Test(arguments: [("sample.pdf", 1), ("qpdf_boxes.pdf", 1), ("qpdf_boxes.pdf", 3), ("qpdf_boxes.pdf", 5), ("qpdf_boxes.pdf", 7)])
    func wordsArePdftotextsWordsWithTheirBoxes(file: String, page: Int) throws {
        let path = file == "sample.pdf" ? TestPaths.sample : TestPaths.fixture(file)
        let expected = try PopplerText.words(in: path, page: page)
        let read = try PopplerDocument(path: path, password: nil).words(onPage: page - 1)
        #expect(read.map(\.text) == expected.map(\.text))
        for (word, wanted) in zip(read, expected) {
            #expect(abs(word.box.minX - wanted.xMin) < 0.6 && abs(word.box.maxX - wanted.xMax) < 0.6
                    && abs(word.box.minY - wanted.yMin) < 0.6 && abs(word.box.maxY - wanted.yMax) < 0.6,
                    "\(file) p\(page) \(word.text): \(word.box) vs \(wanted)")
        }
    }

    @Test func linesAndBlocksFollowTheLayout() throws {
        let words = try PopplerDocument(path: TestPaths.sample, password: nil).words(onPage: 0)
        #expect(Set(words.map(\.line)).count > 3)
        // Words of one line share its block; blocks are numbered in reading order.
        for line in Set(words.map(\.line)) {
            #expect(Set(words.filter { $0.line == line }.map(\.block)).count == 1)
        }
        #expect(words.map(\.block) == words.map(\.block).sorted())
    }
}
