import Foundation

/// Reads PDF syntax straight from a damaged file's bytes: object headers, dictionaries and where streams
/// end. Nesting is counted, never recursed into, so a structure a million levels deep costs a million
/// steps and nothing more.
struct PDFByteScanner {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0x0C || byte == 0x00
    }

    static func isDelimiter(_ byte: UInt8) -> Bool {
        "()<>[]{}/%".utf8.contains(byte)
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    var atEnd: Bool { position >= bytes.count }

    mutating func skipWhitespaceAndComments() {
        while position < bytes.count {
            if Self.isWhitespace(bytes[position]) {
                position += 1
            } else if bytes[position] == UInt8(ascii: "%") {
                while position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D { position += 1 }
            } else {
                return
            }
        }
    }

    func startsWith(_ text: String, at offset: Int) -> Bool {
        let pattern = Array(text.utf8)
        guard offset >= 0, offset + pattern.count <= bytes.count else { return false }
        return bytes[offset..<(offset + pattern.count)].elementsEqual(pattern)
    }

    /// Whether a keyword stands alone at `offset`: not glued to a letter or digit on either side.
    func keyword(_ word: String, at offset: Int) -> Bool {
        guard startsWith(word, at: offset) else { return false }
        let before = offset == 0 || Self.isWhitespace(bytes[offset - 1]) || Self.isDelimiter(bytes[offset - 1])
        let end = offset + word.utf8.count
        let after = end >= bytes.count || Self.isWhitespace(bytes[end]) || Self.isDelimiter(bytes[end])
        return before && after
    }

    /// An unsigned integer at the position, consumed; nil (and nothing consumed) otherwise.
    mutating func integer(maxDigits: Int = 10) -> Int? {
        var end = position
        while end < bytes.count, Self.isDigit(bytes[end]), end - position < maxDigits + 1 { end += 1 }
        guard end > position, end - position <= maxDigits else { return nil }
        let value = bytes[position..<end].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        position = end
        return value
    }

    /// `N G obj` starting exactly at the position: the object number and generation, with the position
    /// moved after `obj`.
    mutating func objectHeader() -> (number: Int, generation: Int)? {
        let start = position
        guard start == 0 || Self.isWhitespace(bytes[start - 1]) || Self.isDelimiter(bytes[start - 1]),
              let number = integer(), position < bytes.count, Self.isWhitespace(bytes[position]) else {
            position = start
            return nil
        }
        skipWhitespaceAndComments()
        guard let generation = integer(maxDigits: 5), position < bytes.count, Self.isWhitespace(bytes[position]) else {
            position = start
            return nil
        }
        skipWhitespaceAndComments()
        guard keyword("obj", at: position) else {
            position = start
            return nil
        }
        position += 3
        return (number, generation)
    }

    /// Moves past one PDF value of any depth (a dictionary, array, string, name, number or keyword) and
    /// returns its bytes; nil if the file ends inside it.
    mutating func skipValue() -> ArraySlice<UInt8>? {
        skipWhitespaceAndComments()
        let start = position
        var depth = 0
        repeat {
            guard position < bytes.count else { return nil }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "("):
                guard skipLiteralString() else { return nil }
                continue
            case UInt8(ascii: "<") where position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "<"):
                depth += 1
                position += 2
                continue
            case UInt8(ascii: "<"):
                while position < bytes.count, bytes[position] != UInt8(ascii: ">") { position += 1 }
                position += 1
            case UInt8(ascii: ">") where position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: ">"):
                depth -= 1
                position += 2
                continue
            case UInt8(ascii: "["):
                depth += 1
                position += 1
                continue
            case UInt8(ascii: "]"):
                depth -= 1
                position += 1
                continue
            case UInt8(ascii: "%"):
                skipWhitespaceAndComments()
                continue
            case _ where Self.isWhitespace(byte):
                position += 1
                continue
            default:
                // A name, number or keyword: up to the next delimiter or white space.
                position += 1
                while position < bytes.count, !Self.isWhitespace(bytes[position]), !Self.isDelimiter(bytes[position]) {
                    position += 1
                }
            }
        } while depth > 0
        return bytes[start..<min(position, bytes.count)]
    }

    /// `( … )` with nested parentheses and backslash escapes.
    mutating func skipLiteralString() -> Bool {
        var depth = 0
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\\"): position += 2
                continue
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"):
                depth -= 1
                if depth == 0 {
                    position += 1
                    return true
                }
            default: break
            }
            position += 1
        }
        return false
    }

    /// The top-level entries of the dictionary at the position (`<< … >>`), as raw bytes of their values.
    mutating func dictionary() -> [String: ArraySlice<UInt8>]? {
        skipWhitespaceAndComments()
        guard startsWith("<<", at: position) else { return nil }
        position += 2
        var entries: [String: ArraySlice<UInt8>] = [:]
        while true {
            skipWhitespaceAndComments()
            guard position < bytes.count else { return nil }
            if startsWith(">>", at: position) {
                position += 2
                return entries
            }
            guard bytes[position] == UInt8(ascii: "/") else {
                // Not a key: step over whatever it is and go on, as lenient readers do.
                guard skipValue() != nil else { return nil }
                continue
            }
            let keyStart = position
            position += 1
            while position < bytes.count, !Self.isWhitespace(bytes[position]), !Self.isDelimiter(bytes[position]) { position += 1 }
            let key = String(decoding: bytes[keyStart..<position], as: UTF8.self)
            skipWhitespaceAndComments()
            if startsWith(">>", at: position) {
                entries[key] = []
                continue
            }
            let valueStart = position
            guard let value = skipValue() else { return nil }
            entries[key] = value
            // `N G R` is three tokens: take the other two when they follow a whole number.
            if value.allSatisfy(Self.isDigit) {
                let after = position
                skipWhitespaceAndComments()
                if integer(maxDigits: 5) != nil {
                    skipWhitespaceAndComments()
                    if keyword("R", at: position) {
                        position += 1
                        entries[key] = bytes[valueStart..<position]
                        continue
                    }
                }
                position = after
            }
        }
    }

    /// Where a stream's data was found: by its /Length, or by searching for `endstream` when the length was
    /// wrong (the data's range then, without the end of line before `endstream`).
    enum StreamEnd: Equatable {
        case none
        case byLength(data: Range<Int>)
        case searched(data: Range<Int>)
    }

    /// After a stream's dictionary: moves past its data and `endstream` when `stream` follows, using
    /// /Length when it is right and searching for `endstream` when it is not.
    mutating func skipStream(length: Int?) -> StreamEnd {
        skipWhitespaceAndComments()
        guard keyword("stream", at: position) else { return .none }
        position += 6
        if position < bytes.count, bytes[position] == 0x0D { position += 1 }
        if position < bytes.count, bytes[position] == 0x0A { position += 1 }
        let start = position
        if let length, let end = endstream(afterData: start, length: length) {
            position = end
            return .byLength(data: start..<(start + length))
        }
        guard let end = find("endstream", from: position) else {
            position = bytes.count
            return .searched(data: start..<bytes.count)
        }
        position = end + 9
        var dataEnd = end
        if dataEnd > start, bytes[dataEnd - 1] == 0x0A { dataEnd -= 1 }
        if dataEnd > start, bytes[dataEnd - 1] == 0x0D { dataEnd -= 1 }
        return .searched(data: start..<dataEnd)
    }

    /// Where `endstream` ends when a stream's data of `length` bytes starting at `start` is followed by it (white
    /// space between); nil when the length leads anywhere else.
    func endstream(afterData start: Int, length: Int) -> Int? {
        // Compared as a distance: a /Length near Int.max added to the position would overflow.
        guard length >= 0, start <= bytes.count, length <= bytes.count - start else { return nil }
        var end = start + length
        while end < bytes.count, Self.isWhitespace(bytes[end]) { end += 1 }
        return startsWith("endstream", at: end) ? end + 9 : nil
    }

    func find(_ text: String, from offset: Int) -> Int? {
        let pattern = Array(text.utf8)
        guard let first = pattern.first, offset < bytes.count else { return nil }
        var index = offset
        while index + pattern.count <= bytes.count {
            if bytes[index] == first, bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }
}

extension ArraySlice where Element == UInt8 {
    /// `N G R` as an object number.
    var reference: Int? {
        let parts = String(decoding: self, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" })
        guard parts.count == 3, parts[2] == "R", let number = Int(parts[0]), number > 0 else { return nil }
        return number
    }

    var integerValue: Int? { Int(String(decoding: self, as: UTF8.self).trimmingCharacters(in: .whitespaces)) }

    var name: String { String(decoding: self, as: UTF8.self).trimmingCharacters(in: .whitespaces) }
}
