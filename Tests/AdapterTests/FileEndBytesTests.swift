@testable import PDFAssembly
import Testing

/// The byte searches a save makes in a file's end and cross-reference sections, as the regular expressions and
/// String searches they replace read them.
@Suite struct FileEndBytesTests {
    private func bytes(_ text: String) -> ArraySlice<UInt8> { ArraySlice(Array(text.utf8)) }

    @Test(arguments: [
        ("12 0 obj\n<< /Type /XRef >>", true), ("7 3\r\nobj", true), ("12\t0\u{0C}obj", true),
        ("12 0obj", false), ("12  obj", false), ("x 0 obj", false), ("12 0 ob", false), ("", false),
        ("12345678901 0 obj", false),
    ])
    func aCrossReferenceStreamStartsWithItsObjectHeader(text: String, isHeader: Bool) {
        #expect(FileEndBytes.startsWithObjectHeader(bytes(text)) == isHeader, "\(text.debugDescription)")
    }

    @Test(arguments: [
        ("trailer\n<< /Size 9 /Prev 1234 >>", 1234 as Int?), ("<< /Prev\r\n56 /Root 1 0 R >>", 56),
        ("<< /PrevX 12 /Prev 34 >>", 34), ("<< /Prev /Size 3 >>", nil), ("<< /Size 3 >>", nil),
        ("<< /Prev 99999999999999999999 >>", nil), ("/Prev 7", 7),
    ])
    func theTrailersPreviousSectionIsTheNumberAfterPrev(text: String, previous: Int?) {
        #expect(FileEndBytes.value(of: "/Prev", in: bytes(text), digits: 18) == previous, "\(text.debugDescription)")
    }

    @Test func searchesFindTheFirstAndLastPlaceInASlice() {
        let all = Array("startxref 1 trailer startxref 2 %%EOF".utf8)
        let middle = all[5..<30]
        #expect(FileEndBytes.first("startxref", in: ArraySlice(all)) == 0)
        #expect(FileEndBytes.last("startxref", in: ArraySlice(all)) == 20)
        #expect(FileEndBytes.first("startxref", in: middle) == 20)
        #expect(FileEndBytes.last("startxref", in: all[0..<28]) == 0)
        #expect(FileEndBytes.first("trailer", in: all[0..<15]) == nil)
        #expect(FileEndBytes.last("", in: middle) == nil)
    }
}
