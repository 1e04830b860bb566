import Foundation

/// A PDF object read from its text, as qpdf writes it (`qpdf_oh_unparse_resolved`). Reading an annotation key by key
/// through qpdf's C API costs a trapped C++ call and a handle per key and per array item (about 200 for an ink);
/// reading its text costs one call. 100,000 annotations were read in 10 s key by key.
enum ObjectText: Equatable {
    case null
    case boolean(Bool)
    case integer(Int64)
    case real(Double)
    /// The string's bytes as the file has them: text is decoded by `QPDFSession` (PDFDocEncoding, UTF-16).
    case string([UInt8])
    /// Without its slash, `#xx` decoded.
    case name(String)
    case array([ObjectText])
    /// Keyed as qpdf's C API names keys: with their slash (`/Rect`).
    case dictionary([String: ObjectText])
    case reference(number: Int32, generation: Int32)

    /// Deeper than qpdf nests (it stops at 500): text this deep is not what qpdf wrote.
    static let deepest = 512

    /// The object a text holds; nil when the text is not one whole object in the syntax qpdf writes.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> ObjectText? {
        var reader = Reader(bytes: bytes)
        guard let object = reader.object(depth: 0) else { return nil }
        reader.skipSpace()
        return reader.position == bytes.count ? object : nil
    }

    /// An object as a file holds it: `N G obj`, the object, `endobj`. Nil when the text is anything else, or anything
    /// qpdf might read otherwise (a stream, an integer past 64 bits): the caller then asks qpdf.
    static func parseIndirect(_ bytes: UnsafeBufferPointer<UInt8>, number: Int32, generation: Int32) -> ObjectText? {
        var reader = Reader(bytes: bytes, strict: true)
        guard let object = reader.indirectObject(number: number, generation: generation), reader.keyword("endobj") else { return nil }
        return object
    }

    /// The dictionary of a stream object (`N G obj << … >> stream`), its data unread; nil for anything else.
    static func parseStreamDictionary(_ bytes: UnsafeBufferPointer<UInt8>, number: Int32, generation: Int32) -> [String: ObjectText]? {
        var reader = Reader(bytes: bytes, strict: true)
        guard case .dictionary(let entries)? = reader.indirectObject(number: number, generation: generation), reader.keyword("stream") else { return nil }
        return entries
    }

    /// A stream object's dictionary and where its data starts (past the end of line after `stream`, §7.3.8.1);
    /// nil as `parseStreamDictionary`.
    static func parseStream(_ bytes: UnsafeBufferPointer<UInt8>, number: Int32, generation: Int32) -> (entries: [String: ObjectText], data: Int)? {
        var reader = Reader(bytes: bytes, strict: true)
        guard case .dictionary(let entries)? = reader.indirectObject(number: number, generation: generation), reader.keyword("stream") else { return nil }
        var start = reader.position
        if start < bytes.count, bytes[start] == 0x0D { start += 1 }
        guard start < bytes.count, bytes[start] == 0x0A else { return nil }
        return (entries, start + 1)
    }

    /// One object of an object stream's data, nothing after it; nil as `parseIndirect`.
    static func parseStored(_ bytes: UnsafeBufferPointer<UInt8>) -> ObjectText? {
        var reader = Reader(bytes: bytes, strict: true)
        guard let object = reader.object(depth: 0) else { return nil }
        reader.skipSpace()
        return reader.position == bytes.count ? object : nil
    }

    /// `count` unsigned integers separated by space, as an object stream's header lists its objects; nil otherwise.
    static func integers(_ bytes: UnsafeBufferPointer<UInt8>, count: Int) -> [Int64]? {
        var reader = Reader(bytes: bytes, strict: true)
        var values: [Int64] = []
        values.reserveCapacity(count)
        for _ in 0..<count {
            guard let value = reader.integer() else { return nil }
            values.append(value)
        }
        return values
    }

    /// Every object this one names, depth first.
    var references: [(number: Int32, generation: Int32)] {
        var found: [(number: Int32, generation: Int32)] = []
        var waiting = [self]
        while let value = waiting.popLast() {
            switch value {
            case .reference(let number, let generation): found.append((number, generation))
            case .array(let items): waiting += items
            case .dictionary(let entries): waiting += entries.values
            default: break
            }
        }
        return found
    }

    var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0
        /// Reading a file's own text, not qpdf's: what qpdf may take differently is refused.
        var strict = false

        init(bytes: UnsafeBufferPointer<UInt8>, strict: Bool = false) {
            self.bytes = bytes
            self.strict = strict
        }

        /// A plain unsigned integer token.
        mutating func integer() -> Int64? {
            skipSpace()
            let start = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
            guard position > start, position - start < 11, position == bytes.count || Self.isDelimiter(bytes[position]) else { return nil }
            return Int64(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self))
        }

        /// `N G obj` and the object after it.
        mutating func indirectObject(number: Int32, generation: Int32) -> ObjectText? {
            guard integer() == Int64(number), integer() == Int64(generation), keyword("obj") else { return nil }
            return object(depth: 0)
        }

        /// `word` as a whole token.
        mutating func keyword(_ word: StaticString) -> Bool {
            skipSpace()
            let count = word.utf8CodeUnitCount
            guard position + count <= bytes.count,
                  UnsafeBufferPointer(rebasing: bytes[position..<position + count]).elementsEqual(
                      UnsafeBufferPointer(start: word.utf8Start, count: count)),
                  position + count == bytes.count || Self.isDelimiter(bytes[position + count]) else { return false }
            position += count
            return true
        }

        mutating func skipSpace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x00, 0x09, 0x0A, 0x0C, 0x0D, 0x20: position += 1
                case UInt8(ascii: "%"):
                    while position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D { position += 1 }
                default: return
                }
            }
        }

        mutating func object(depth: Int) -> ObjectText? {
            guard depth < ObjectText.deepest else { return nil }
            skipSpace()
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "/"):
                return name()
            case UInt8(ascii: "("):
                return literalString()
            case UInt8(ascii: "<"):
                if position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "<") { return dictionary(depth: depth) }
                return hexString()
            case UInt8(ascii: "["):
                position += 1
                var items: [ObjectText] = []
                while true {
                    skipSpace()
                    guard position < bytes.count else { return nil }
                    if bytes[position] == UInt8(ascii: "]") {
                        position += 1
                        return .array(items)
                    }
                    guard let item = object(depth: depth + 1) else { return nil }
                    items.append(item)
                }
            default:
                return numberOrKeyword()
            }
        }

        private mutating func dictionary(depth: Int) -> ObjectText? {
            position += 2
            var entries: [String: ObjectText] = [:]
            while true {
                skipSpace()
                guard position < bytes.count else { return nil }
                if bytes[position] == UInt8(ascii: ">") {
                    guard position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: ">") else { return nil }
                    position += 2
                    return .dictionary(entries)
                }
                guard case .name(let key)? = name(), let value = object(depth: depth + 1) else { return nil }
                entries["/" + key] = value
            }
        }

        private static func isDelimiter(_ byte: UInt8) -> Bool {
            switch byte {
            case 0x00, 0x09, 0x0A, 0x0C, 0x0D, 0x20, UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"),
                 UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "/"), UInt8(ascii: "%"):
                true
            default: false
            }
        }

        private mutating func name() -> ObjectText? {
            guard position < bytes.count, bytes[position] == UInt8(ascii: "/") else { return nil }
            position += 1
            var name: [UInt8] = []
            while position < bytes.count, !Self.isDelimiter(bytes[position]) {
                if bytes[position] == UInt8(ascii: "#"), position + 2 < bytes.count,
                   let high = Self.hexValue(bytes[position + 1]), let low = Self.hexValue(bytes[position + 2]) {
                    name.append(high << 4 | low)
                    position += 3
                } else {
                    name.append(bytes[position])
                    position += 1
                }
            }
            return .name(String(decoding: name, as: UTF8.self))
        }

        private static func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }

        private mutating func hexString() -> ObjectText? {
            position += 1
            var value: [UInt8] = []
            var high: UInt8?
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                if byte == UInt8(ascii: ">") {
                    if let high { value.append(high << 4) }
                    return .string(value)
                }
                guard let digit = Self.hexValue(byte) else {
                    if Self.isDelimiter(byte), byte <= 0x20 { continue }
                    return nil
                }
                if let pending = high {
                    value.append(pending << 4 | digit)
                    high = nil
                } else {
                    high = digit
                }
            }
            return nil
        }

        /// `( … )` with balanced parentheses, backslash escapes and octal codes; a line end inside is one newline.
        private mutating func literalString() -> ObjectText? {
            position += 1
            var value: [UInt8] = []
            var open = 1
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: "("):
                    open += 1
                    value.append(byte)
                case UInt8(ascii: ")"):
                    open -= 1
                    if open == 0 { return .string(value) }
                    value.append(byte)
                case 0x0D:
                    if position < bytes.count, bytes[position] == 0x0A { position += 1 }
                    value.append(0x0A)
                case UInt8(ascii: "\\"):
                    guard position < bytes.count else { return nil }
                    let escaped = bytes[position]
                    position += 1
                    switch escaped {
                    case UInt8(ascii: "n"): value.append(0x0A)
                    case UInt8(ascii: "r"): value.append(0x0D)
                    case UInt8(ascii: "t"): value.append(0x09)
                    case UInt8(ascii: "b"): value.append(0x08)
                    case UInt8(ascii: "f"): value.append(0x0C)
                    case UInt8(ascii: "0")...UInt8(ascii: "7"):
                        var code = Int(escaped - UInt8(ascii: "0"))
                        for _ in 0..<2 {
                            guard position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[position]) else { break }
                            code = code * 8 + Int(bytes[position] - UInt8(ascii: "0"))
                            position += 1
                        }
                        value.append(UInt8(truncatingIfNeeded: code))
                    case 0x0D:
                        if position < bytes.count, bytes[position] == 0x0A { position += 1 }
                    case 0x0A:
                        break
                    default:
                        value.append(escaped)
                    }
                default:
                    value.append(byte)
                }
            }
            return nil
        }

        /// A number, `true`, `false`, `null`, or a reference `N G R`.
        private mutating func numberOrKeyword() -> ObjectText? {
            let start = position
            while position < bytes.count, !Self.isDelimiter(bytes[position]) { position += 1 }
            let token = UnsafeBufferPointer(rebasing: bytes[start..<position])
            if token.elementsEqual("true".utf8) { return .boolean(true) }
            if token.elementsEqual("false".utf8) { return .boolean(false) }
            if token.elementsEqual("null".utf8) { return .null }
            guard let number = Self.number(token) else { return nil }
            // Past 64 bits is read as a real here; what qpdf makes of it is qpdf's to say.
            if strict, case .real = number, !token.contains(UInt8(ascii: ".")) { return nil }
            guard case .integer(let first) = number else { return number }
            // A reference is two integers and R; anything else leaves the position after the first.
            let afterFirst = position
            skipSpace()
            let secondStart = position
            while position < bytes.count, !Self.isDelimiter(bytes[position]) { position += 1 }
            let second = Self.number(UnsafeBufferPointer(rebasing: bytes[secondStart..<position]))
            skipSpace()
            if case .integer(let generation)? = second, let generation = Int32(exactly: generation), generation >= 0,
               let objectNumber = Int32(exactly: first), objectNumber > 0,
               position < bytes.count, bytes[position] == UInt8(ascii: "R"),
               position + 1 == bytes.count || Self.isDelimiter(bytes[position + 1]) {
                position += 1
                return .reference(number: objectNumber, generation: generation)
            }
            position = afterFirst
            return number
        }

        /// Powers of ten a double holds exactly: a mantissa below 2^53 divided by one is the correctly rounded value,
        /// as `strtod` (which qpdf's numeric value uses) gives it.
        private static let exactPowersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

        /// `[+-]digits[.digits]`, the numbers PDF writes (no exponent); nil for anything else.
        private static func number(_ token: UnsafeBufferPointer<UInt8>) -> ObjectText? {
            var index = 0
            var negative = false
            if index < token.count, token[index] == UInt8(ascii: "+") || token[index] == UInt8(ascii: "-") {
                negative = token[index] == UInt8(ascii: "-")
                index += 1
            }
            var mantissa: UInt64 = 0
            var digits = 0
            var fractionDigits = 0
            var seenPoint = false
            var overflow = false
            while index < token.count {
                let byte = token[index]
                index += 1
                if byte == UInt8(ascii: ".") {
                    guard !seenPoint else { return nil }
                    seenPoint = true
                    continue
                }
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                digits += 1
                if seenPoint { fractionDigits += 1 }
                let (times, overflowedTimes) = mantissa.multipliedReportingOverflow(by: 10)
                let (sum, overflowedSum) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
                if overflowedTimes || overflowedSum { overflow = true } else { mantissa = sum }
            }
            guard digits > 0 else { return nil }
            if !seenPoint {
                // −2^63 is a 64-bit integer (qpdf reads it as one) whose magnitude is not.
                if negative, !overflow, mantissa == Int64.min.magnitude { return .integer(Int64.min) }
                guard !overflow, let magnitude = Int64(exactly: mantissa) else {
                    // An integer past 64 bits: qpdf would not have written it; read as what it says.
                    return Double(String(decoding: token, as: UTF8.self)).map { .real($0) }
                }
                return .integer(negative ? -magnitude : magnitude)
            }
            if !overflow, mantissa < 1 << 53, fractionDigits < exactPowersOfTen.count {
                let value = Double(mantissa) / exactPowersOfTen[fractionDigits]
                return .real(negative ? -value : value)
            }
            return Double(String(decoding: token, as: UTF8.self)).map { .real($0) }
        }
    }
}
