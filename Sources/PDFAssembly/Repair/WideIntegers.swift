/// Integers written with more digits than 64 bits hold. qpdf refuses the whole object holding one ("overflow
/// converting … to 64-bit integer"): a page whose /MediaBox or /Rotate has such a number is lost with its words.
/// Poppler and MuPDF read the number as a real; the repair writes it as one (`1000…0` becomes `1000…0.0`), and the
/// page's own rules about sizes and angles then apply to it as to any real.
enum WideIntegers {
    /// The value's bytes with each integer past 64 bits written as a real; nil when it has none. Strings, names
    /// and comments are passed over whole: their digits are not numbers.
    static func widened(_ value: ArraySlice<UInt8>) -> [UInt8]? {
        var ends: [Int] = []
        var index = value.startIndex
        var stringDepth = 0
        while index < value.endIndex {
            let byte = value[index]
            if stringDepth > 0 {
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "(") {
                    stringDepth += 1
                } else if byte == UInt8(ascii: ")") {
                    stringDepth -= 1
                }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "("):
                stringDepth = 1
                index += 1
            case UInt8(ascii: "%"):
                while index < value.endIndex, value[index] != 0x0A, value[index] != 0x0D { index += 1 }
            case UInt8(ascii: "<") where index + 1 < value.endIndex && value[index + 1] == UInt8(ascii: "<"):
                index += 2
            case UInt8(ascii: "<"):
                while index < value.endIndex, value[index] != UInt8(ascii: ">") { index += 1 }
            case _ where PDFByteScanner.isWhitespace(byte) || PDFByteScanner.isDelimiter(byte):
                index += 1
            default:
                // A name, number or keyword: up to the next delimiter or white space (a name starts at its `/`,
                // a delimiter, so its characters are taken here as one regular token and never as a number).
                let start = index
                let isName = start > value.startIndex && value[start - 1] == UInt8(ascii: "/")
                while index < value.endIndex, !PDFByteScanner.isWhitespace(value[index]), !PDFByteScanner.isDelimiter(value[index]) {
                    index += 1
                }
                if !isName, isIntegerPast64Bits(value[start..<index]) { ends.append(index) }
            }
        }
        guard !ends.isEmpty else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(value.count + 2 * ends.count)
        var copied = value.startIndex
        for end in ends {
            result.append(contentsOf: value[copied..<end])
            result.append(contentsOf: Array(".0".utf8))
            copied = end
        }
        result.append(contentsOf: value[copied...])
        return result
    }

    private static func isIntegerPast64Bits(_ token: ArraySlice<UInt8>) -> Bool {
        var digits = token
        if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { digits = digits.dropFirst() }
        guard digits.count >= 19, digits.allSatisfy(PDFByteScanner.isDigit) else { return false }
        return Int64(String(decoding: token, as: UTF8.self)) == nil
    }
}
