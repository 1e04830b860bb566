/// Integers written with more digits than 64 bits hold. qpdf refuses the whole object holding one ("overflow
/// converting … to 64-bit integer"): a page whose /MediaBox or /Rotate has such a number is lost with its words.
/// Poppler and MuPDF read the number as a real; the repair writes it as one (`1000…0` becomes `1000…0.0`), and the
/// page's own rules about sizes and angles then apply to it as to any real.
enum WideIntegers {
    /// The value's bytes with each integer past 64 bits written as a real; nil when it has none. Strings, names
    /// and comments are passed over whole: their digits are not numbers.
    static func widened(_ value: ArraySlice<UInt8>) -> [UInt8]? {
        var ends: [Int] = []
        var scanner = PDFByteScanner(Array(value))
        while true {
            scanner.skipWhitespaceAndComments()
            guard !scanner.atEnd else { break }
            let start = scanner.position
            switch scanner.bytes[start] {
            case UInt8(ascii: "("):
                guard scanner.skipLiteralString() else { scanner.position = scanner.bytes.count; break }
            case UInt8(ascii: "<") where scanner.startsWith("<<", at: start):
                scanner.position += 2
            case UInt8(ascii: "<"):
                scanner.position = (scanner.find(">", from: start) ?? scanner.bytes.count - 1) + 1
            case let byte where PDFByteScanner.isDelimiter(byte):
                scanner.position += 1
            default:
                // A name, number or keyword: up to the next delimiter or white space (a name starts at its `/`,
                // a delimiter, so its characters are taken here as one regular token and never as a number).
                while !scanner.atEnd, !PDFByteScanner.isWhitespace(scanner.bytes[scanner.position]),
                      !PDFByteScanner.isDelimiter(scanner.bytes[scanner.position]) {
                    scanner.position += 1
                }
                let isName = start > 0 && scanner.bytes[start - 1] == UInt8(ascii: "/")
                if !isName, isIntegerPast64Bits(scanner.bytes[start..<scanner.position]) { ends.append(value.startIndex + scanner.position) }
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
