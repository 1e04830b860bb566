import RedlineCore
import Testing

/// Page labels: the numbers a document prints, and the page a printed number is on.
@Suite struct PageLabelsTests {
    /// A book: roman front matter, arabic body, an appendix A-1…, and a cover with no number before it all.
    static let book = PageLabels([
        .init(firstPage: 1, style: .lowerRoman), .init(firstPage: 4, style: .decimal),
        .init(firstPage: 9, style: .decimal, prefix: "A-", start: 1), .init(firstPage: 11, style: nil, prefix: "Back cover"),
    ])

    @Test func eachPagePrintsItsRangesNumber() {
        let labels = (0..<12).map { Self.book.label(ofPage: $0) }
        #expect(labels == [nil, "i", "ii", "iii", "1", "2", "3", "4", "5", "A-1", "A-2", "Back cover"])
        #expect(Self.book.page(labelled: "iii", pageCount: 12) == 3)
        #expect(Self.book.page(labelled: "5", pageCount: 12) == 8)
        #expect(Self.book.page(labelled: "A-2", pageCount: 12) == 10)
        #expect(Self.book.page(labelled: "Back cover", pageCount: 12) == 11)
        #expect(Self.book.page(labelled: "6", pageCount: 12) == nil, "past its range: the appendix starts there")
        #expect(Self.book.page(labelled: "iv", pageCount: 12) == nil)
        #expect(Self.book.page(labelled: "iiii", pageCount: 12) == nil, "not how iv is written")
        #expect(Self.book.page(labelled: "05", pageCount: 12) == nil)
        #expect(Self.book.page(labelled: "", pageCount: 12) == nil)
        #expect(Self.book.page(labelled: "III", pageCount: 12) == 3, "another case, when no label is written so")
        #expect(PageLabels([.init(firstPage: 0, style: nil)]).label(ofPage: 0) == nil, "an empty label is none")
    }

    @Test func everyStyleReadsBackToItsPage() {
        for style in [PageLabels.Style.decimal, .upperRoman, .lowerRoman, .upperLetters, .lowerLetters] {
            let labels = PageLabels([.init(firstPage: 0, style: style, prefix: "P", start: 3)])
            for page in 0..<3000 {
                let label = labels.label(ofPage: page)!
                #expect(labels.page(labelled: label, pageCount: 3000) == page, "\(style) \(page): \(label)")
            }
        }
        let letters = PageLabels([.init(firstPage: 0, style: .upperLetters)])
        #expect([0, 25, 26, 27, 52].map { letters.label(ofPage: $0) } == ["A", "Z", "AA", "BB", "AAA"])
        let roman = PageLabels([.init(firstPage: 0, style: .upperRoman, start: 1990)])
        #expect(roman.label(ofPage: 0) == "MCMXC" && roman.label(ofPage: 9) == "MCMXCIX")
    }

    @Test func hostileNumbersMakeShortLabels() {
        let huge = PageLabels([.init(firstPage: 0, style: .upperLetters, start: Int.max - 1), .init(firstPage: -5, style: .decimal)])
        #expect(huge.ranges.count == 1, "a range before the first page is none")
        #expect(huge.label(ofPage: 0) == String(Int.max - 1))
        #expect(huge.label(ofPage: 5) == String(Int.max), "past Int.max: the largest, not a crash")
        #expect(PageLabels([.init(firstPage: 0, style: .upperRoman, start: 4000)]).label(ofPage: 0) == "4000")
        #expect(PageLabels([.init(firstPage: 0, style: nil, prefix: String(repeating: "x", count: 10_000))]).label(ofPage: 0)?.count == 200)
        #expect(PageLabels([.init(firstPage: 0, style: .decimal, start: -7)]).label(ofPage: 0) == "1", "/St counts from 1")
        let twice = PageLabels([.init(firstPage: 2, style: .decimal), .init(firstPage: 2, style: .lowerRoman)])
        #expect(twice.ranges.count == 1)
    }
}
