/// The page numbers a document prints (ISO 32000-1 §12.4.2, `/PageLabels`): "xiv" in the front matter, "A-3" in an
/// appendix. Ranges from a page on, each with a numbering style, a prefix and a first number.
public struct PageLabels: Sendable, Hashable {
    public enum Style: Sendable, Hashable {
        case decimal, upperRoman, lowerRoman, upperLetters, lowerLetters

        /// `/S`'s name: D, R, r, A, a.
        public init?(name: String) {
            switch name {
            case "D": self = .decimal
            case "R": self = .upperRoman
            case "r": self = .lowerRoman
            case "A": self = .upperLetters
            case "a": self = .lowerLetters
            default: return nil
            }
        }
    }

    public struct Range: Sendable, Hashable {
        public var firstPage: Int
        /// Nil: the label is the prefix alone.
        public var style: Style?
        public var prefix: String
        public var start: Int

        public init(firstPage: Int, style: Style?, prefix: String = "", start: Int = 1) {
            self.firstPage = firstPage
            self.style = style
            self.prefix = String(prefix.prefix(Self.longestPrefix))
            self.start = max(1, start)
        }

        static let longestPrefix = 200
    }

    /// Sorted by first page, one a page at most.
    public private(set) var ranges: [Range]

    public init(_ ranges: [Range] = []) {
        var byPage: [Int: Range] = [:]
        for range in ranges where range.firstPage >= 0 { byPage[range.firstPage] = range }
        self.ranges = byPage.values.sorted { $0.firstPage < $1.firstPage }
    }

    public var isEmpty: Bool { ranges.isEmpty }

    /// The label a page prints, or nil where no range covers it or the label is empty.
    public func label(ofPage index: Int) -> String? {
        let label = anyLabel(ofPage: index)
        return label?.isEmpty == true ? nil : label
    }

    private func anyLabel(ofPage index: Int) -> String? {
        var low = 0, high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].firstPage <= index { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let range = ranges[low - 1]
        let (number, overflow) = range.start.addingReportingOverflow(index - range.firstPage)
        guard let style = range.style else { return range.prefix }
        return range.prefix + Self.format(overflow ? Int.max : number, style)
    }

    /// The page a label is printed on (the first, if several print it), among `pageCount` pages; as typed, else in
    /// the other case (`:III` finds iii).
    public func page(labelled label: String, pageCount: Int) -> Int? {
        exactPage(labelled: label, pageCount: pageCount) ?? exactPage(labelled: label.lowercased(), pageCount: pageCount)
            ?? exactPage(labelled: label.uppercased(), pageCount: pageCount)
    }

    private func exactPage(labelled label: String, pageCount: Int) -> Int? {
        for (position, range) in ranges.enumerated() where label.hasPrefix(range.prefix) && range.firstPage < pageCount {
            let end = position + 1 < ranges.count ? min(ranges[position + 1].firstPage, pageCount) : pageCount
            let rest = String(label.dropFirst(range.prefix.count))
            guard let style = range.style else {
                if rest.isEmpty { return range.firstPage }
                continue
            }
            guard let number = Self.parse(rest, style), number >= range.start else { continue }
            let (offset, overflow) = number.subtractingReportingOverflow(range.start)
            guard !overflow, offset < end - range.firstPage else { continue }
            let page = range.firstPage + offset
            if Self.format(number, style) == rest { return page }
        }
        return nil
    }

    // MARK: - Numbering styles

    /// Roman numerals as far as they are written (3,999); letters repeat as Acrobat writes them (A…Z, AA…ZZ, …),
    /// at most 100 letters. Past either, the number in digits: a hostile /St cannot make a label of a billion letters.
    static func format(_ number: Int, _ style: Style) -> String {
        switch style {
        case .decimal: return String(number)
        case .upperRoman, .lowerRoman:
            guard (1...3999).contains(number) else { return String(number) }
            let roman = Self.roman(number)
            return style == .upperRoman ? roman : roman.lowercased()
        case .upperLetters, .lowerLetters:
            guard number >= 1, number <= 26 * 100 else { return String(number) }
            let letter = Character(Unicode.Scalar(UInt8((style == .upperLetters ? 65 : 97) + (number - 1) % 26)))
            return String(repeating: letter, count: (number - 1) / 26 + 1)
        }
    }

    static func parse(_ text: String, _ style: Style) -> Int? {
        switch style {
        case .decimal:
            guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(text)
        case .upperRoman, .lowerRoman:
            if let decimal = Int(text), decimal > 3999 { return decimal }
            let values: [Character: Int] = ["I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000]
            let digits = text.uppercased().compactMap { values[$0] }
            guard !digits.isEmpty, digits.count == text.count, digits.count <= 16 else { return nil }
            var total = 0
            for (index, digit) in digits.enumerated() {
                total += index + 1 < digits.count && digit < digits[index + 1] ? -digit : digit
            }
            return total
        case .upperLetters, .lowerLetters:
            if let decimal = Int(text), decimal > 26 * 100 { return decimal }
            guard let first = text.first, text.allSatisfy({ $0 == first }), first.isASCII, first.isLetter, text.count <= 100 else { return nil }
            let value = Int(first.lowercased().unicodeScalars.first!.value) - 97
            return (text.count - 1) * 26 + value + 1
        }
    }

    private static func roman(_ number: Int) -> String {
        let table: [(Int, String)] = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
                                      (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
        var rest = number, text = ""
        for (value, numeral) in table {
            while rest >= value {
                text += numeral
                rest -= value
            }
        }
        return text
    }
}
