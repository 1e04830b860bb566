import Foundation
@testable import PDFAssembly
import Testing

/// What Redline writes as PDF syntax reads back as the same value: numbers at their limits, names with bytes a name
/// cannot hold as they are, references, and dictionaries in one order whatever order their keys were given in.
@Suite struct ObjectTextWritingTests {
    private func readBack(_ value: ObjectText) -> ObjectText? {
        value.pdfBytes.withUnsafeBufferPointer { ObjectText.parse($0) }
    }

    @Test(arguments: [Int64.min, Int64.min + 1, -1, 0, 7, 10, 1_000_000, Int64.max])
    func integersReadBackAsWritten(value: Int64) {
        #expect(ObjectText.integer(value).pdfText == String(value))
        #expect(readBack(.integer(value)) == .integer(value))
    }

    @Test func namesReferencesAndDictionariesReadBackAsWritten() {
        let name = ObjectText.name("A b#c/d(e)\u{E9}")
        #expect(name.pdfText == "/A#20b#23c#2Fd#28e#29#C3#A9")
        #expect(readBack(name) == name)
        #expect(ObjectText.reference(number: Int32.max, generation: 65535).pdfText == "2147483647 65535 R")
        let dictionary = ObjectText.dictionary(["/Z": .integer(-3), "/A": .reference(number: 12, generation: 0), "/M": .names(["x y"])])
        #expect(dictionary.pdfText == "<< /A 12 0 R /M [/x#20y] /Z -3 >>")
        #expect(readBack(dictionary) == dictionary)
    }
}
