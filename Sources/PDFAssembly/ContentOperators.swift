/// A content stream read as a drawing program's tokens, just far enough to count its operators and see which
/// named resources it draws (`/Name Do`), which patterns it paints with (`/Name scn`) and which fonts it sets (`Tf`). Strings, arrays,
/// dictionaries and inline images are skipped whole; one pass, linear in the stream.
struct ContentOperators {
    var operatorCount = 0
    /// Names drawn with `Do`, each time it is drawn.
    var drawn: [String] = []
    /// Names set as a fill or stroke colour with `scn`/`SCN`: patterns, each time they are set.
    var patterns: [String] = []
    /// Names of fonts chosen with `Tf`, each time.
    var fonts: [String] = []
    /// Words in operator places that are no operator of ISO 32000-1 (Annex A), outside `BX … EX`: content that is
    /// not a drawing program (a stream cut short, another object's bytes).
    var unknownOperators = 0
    /// A string that runs to the end of the content without closing: content cut short, or another object's bytes.
    var unterminated = false
    private var compatibilityDepth = 0

    private static let operators: Set<String> = [
        "b", "B", "b*", "B*", "BDC", "BI", "BMC", "BT", "BX", "c", "cm", "CS", "cs", "d", "d0", "d1", "Do", "DP", "EI", "EMC",
        "ET", "EX", "f", "F", "f*", "G", "g", "gs", "h", "i", "ID", "j", "J", "K", "k", "l", "m", "M", "MP", "n", "q", "Q", "re",
        "RG", "rg", "ri", "s", "S", "SC", "sc", "SCN", "scn", "sh", "T*", "Tc", "Td", "TD", "Tf", "Tj", "TJ", "TL", "Tm", "Tr",
        "Ts", "Tw", "Tz", "v", "w", "W", "W*", "y", "'", "\"", "true", "false", "null",
    ]

    private static func isWhite(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0x0C || byte == 0x00
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x28, 0x29, 0x3C, 0x3E, 0x5B, 0x5D, 0x7B, 0x7D, 0x2F, 0x25: true
        default: false
        }
    }

    /// `checkingOperators`: count `unknownOperators` too (a lookup per operator, which counting alone does without).
    init(_ bytes: [UInt8], checkingOperators: Bool = false) {
        var index = 0
        var lastName: String?
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if Self.isWhite(byte) {
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "%"):
                while index < count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
            case UInt8(ascii: "("):
                var depth = 0
                while index < count {
                    let current = bytes[index]
                    index += 1
                    if current == UInt8(ascii: "\\") {
                        index += 1
                    } else if current == UInt8(ascii: "(") {
                        depth += 1
                    } else if current == UInt8(ascii: ")") {
                        depth -= 1
                        if depth == 0 { break }
                    }
                }
                if depth > 0 { unterminated = true }
                lastName = nil
            case UInt8(ascii: "<") where index + 1 < count && bytes[index + 1] == UInt8(ascii: "<"):
                index += 2
            case UInt8(ascii: "<"):
                while index < count, bytes[index] != UInt8(ascii: ">") { index += 1 }
                if index >= count { unterminated = true }
                index += 1
                lastName = nil
            case UInt8(ascii: "/"):
                let start = index + 1
                index = start
                while index < count, !Self.isWhite(bytes[index]), !Self.isDelimiter(bytes[index]) { index += 1 }
                lastName = String(decoding: bytes[start..<index], as: UTF8.self)
            case _ where Self.isDelimiter(byte):
                index += 1
            default:
                let start = index
                while index < count, !Self.isWhite(bytes[index]), !Self.isDelimiter(bytes[index]) { index += 1 }
                let first = bytes[start]
                if (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) || first == UInt8(ascii: "-")
                    || first == UInt8(ascii: "+") || first == UInt8(ascii: ".") {
                    continue
                }
                let word = bytes[start..<index]
                operatorCount += 1
                if word.elementsEqual("BX".utf8) { compatibilityDepth += 1 }
                if word.elementsEqual("EX".utf8) { compatibilityDepth = max(0, compatibilityDepth - 1) }
                if checkingOperators, compatibilityDepth == 0, !Self.operators.contains(String(decoding: word, as: UTF8.self)) { unknownOperators += 1 }
                if word.elementsEqual("Do".utf8), let name = lastName {
                    drawn.append(name)
                } else if word.elementsEqual("scn".utf8) || word.elementsEqual("SCN".utf8), let name = lastName {
                    patterns.append(name)
                } else if word.elementsEqual("Tf".utf8), let name = lastName {
                    fonts.append(name)
                } else if word.elementsEqual("ID".utf8) {
                    // Inline image data runs to `EI` after white space: binary, never tokens.
                    while index + 3 <= count, !(Self.isWhite(bytes[index]) && bytes[index + 1] == UInt8(ascii: "E")
                                                 && bytes[index + 2] == UInt8(ascii: "I")
                                                 && (index + 3 == count || Self.isWhite(bytes[index + 3]) || Self.isDelimiter(bytes[index + 3]))) {
                        index += 1
                    }
                    index += 3
                }
                lastName = nil
            }
        }
    }
}
