/// Finds a key that appears twice in one JSON object. JSON decoders keep one of the two silently; a markup
/// file that says `"text"` twice is refused instead, naming where. Only called on text a decoder accepted as
/// JSON, so the scan does not validate: it walks strings, objects and arrays and skips everything else.
enum RepeatedJSONKeys {
    /// The first repeated key, with the path of the object holding it (`items[2]`); nil when there is none.
    static func first(in bytes: [UInt8]) -> (path: String, key: String)? {
        var scanner = Scanner(bytes: bytes)
        return scanner.value(path: "")
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        mutating func value(path: String) -> (path: String, key: String)? {
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object(path: path)
            case UInt8(ascii: "["): return array(path: path)
            case UInt8(ascii: "\""): _ = string()
            default:
                // A number, true, false or null: up to the next delimiter.
                while index < bytes.count, !",]} \n\r\t".utf8.contains(bytes[index]) { index += 1 }
            }
            return nil
        }

        private mutating func object(path: String) -> (path: String, key: String)? {
            index += 1
            var seen: Set<[UInt8]> = []
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] != UInt8(ascii: "}") else { index += 1; return nil }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                let key = string()
                let name = String(decoding: key, as: UTF8.self)
                if !seen.insert(key).inserted { return (path.isEmpty ? "the top level" : path, name) }
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: ":") { index += 1 }
                if let found = value(path: path.isEmpty ? name : path + "." + name) { return found }
            }
        }

        private mutating func array(path: String) -> (path: String, key: String)? {
            index += 1
            var element = 0
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] != UInt8(ascii: "]") else { index += 1; return nil }
                if bytes[index] == UInt8(ascii: ",") { index += 1; element += 1; continue }
                if let found = value(path: "\(path)[\(element)]") { return found }
            }
        }

        /// The raw bytes of a string between its quotes (escapes kept as written: two spellings of one key are
        /// rare enough not to matter here).
        private mutating func string() -> [UInt8] {
            index += 1
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
            }
            let end = min(index, bytes.count)
            index += 1
            return Array(bytes[start..<end])
        }

        private mutating func skipSpace() {
            while index < bytes.count, " \n\r\t".utf8.contains(bytes[index]) { index += 1 }
        }
    }
}

/// Where JSON text breaks a rule Foundation's decoder lets pass.
enum JSONShape {
    /// The first comma followed by `]` or `}` outside strings, with its line and column (from 1); nil when none.
    static func trailingComma(in bytes: [UInt8]) -> (closing: Character, line: Int, column: Int)? {
        var index = 0, line = 1, lineStart = 0
        var lastComma: (line: Int, lineStart: Int, index: Int)?
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                // Past the string, escapes and all; a line break cannot stand in one.
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1 }
                lastComma = nil
            case UInt8(ascii: ","):
                lastComma = (line, lineStart, index)
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if let comma = lastComma {
                    return (Character(UnicodeScalar(byte)), comma.line, characterColumn(in: bytes, lineStart: comma.lineStart, at: comma.index))
                }
            case 0x0A:
                line += 1
                lineStart = index + 1
            case 0x20, 0x09, 0x0D:
                break
            default:
                lastComma = nil
            }
            index += 1
        }
        return nil
    }

    /// The column (from 1) of the byte at `index` on the line starting at `lineStart`, in characters as an editor
    /// shows them: UTF-8's continuation bytes are no columns, nor is a byte-order mark before the first line.
    static func characterColumn(in bytes: [UInt8], lineStart: Int, at index: Int) -> Int {
        var start = lineStart
        if start == 0, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = min(3, index) }
        return bytes[start..<index].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }

    /// What is wrong with the text around its one value, where Foundation says only "Invalid value" or "Unexpected end
    /// of file": nothing at all, a comment, a second value after the first, a bracket or string the file ends inside.
    /// Nil when none of these (the value itself may still be wrong).
    static func problemAroundTheValue(in bytes: [UInt8]) -> String? {
        var index = 0, line = 1, lineStart = 0
        // Places kept as bytes and told in characters: a column counted at every byte would cost a long line its
        // length again each time.
        typealias Place = (line: Int, lineStart: Int, index: Int)
        func told(_ place: Place) -> String { "line \(place.line), column \(characterColumn(in: bytes, lineStart: place.lineStart, at: place.index))" }
        var here: Place { (line, lineStart, index) }
        var open: [(byte: UInt8, place: Place)] = []
        var closedAt: Place?
        var sawValue = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                lineStart = index + 1
            } else if byte == 0x20 || byte == 0x09 || byte == 0x0D {
                // Space between tokens.
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "*") {
                return "JSON has no comments: \"\(bytes[index + 1] == UInt8(ascii: "/") ? "//" : "/*")\" at \(told(here))"
            } else if let closed = closedAt {
                return "more follows the JSON object that ends at \(told(closed)) (\(told(here))): a markup file holds one object"
            } else if byte == UInt8(ascii: "\"") {
                let start = here
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] >= 0x20 {
                    guard bytes[index] == UInt8(ascii: "\\") else {
                        index += 1
                        continue
                    }
                    if let bad = badEscape(in: bytes, at: index) {
                        return "the escape \(bad) inside the string begun at \(told(start)) (\(told(here))) is not JSON's: "
                            + "JSON knows \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t and \\u with four hexadecimal digits"
                    }
                    index += 2
                }
                if index >= bytes.count { return "the file ends inside the string begun at \(told(start))" }
                if bytes[index] < 0x20 {
                    // Decoding would name only the item and field; the line is where the user fixes it.
                    let what = switch bytes[index] {
                    case 0x0A: "a line break"
                    case 0x09: "a tab"
                    case 0x0D: "a carriage return"
                    default: "the control character U+\(String(format: "%04X", bytes[index]))"
                    }
                    return "\(what) inside the string begun at \(told(start)) (\(told(here))): JSON takes none as typed in a string "
                        + "(it writes them \\n, \\t, \\r, \\u00XX; a text item's words are one line and take none)"
                }
                sawValue = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                open.append((byte, here))
                sawValue = true
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                guard !open.isEmpty else { return nil }
                open.removeLast()
                if open.isEmpty { closedAt = here }
            } else {
                sawValue = true
            }
            index += 1
        }
        if !sawValue { return "the file is empty: a markup file is one JSON object, {\"version\": 1, \"items\": […]}" }
        if let innermost = open.last {
            let what = innermost.byte == UInt8(ascii: "{") ? "the { at" : "the [ at"
            return "the file ends before \(what) \(told(innermost.place)) is closed"
        }
        return nil
    }

    /// The escape at `index` (a backslash) as written, when JSON has no such escape: `\q`, `\x41`, `\u12"`.
    static func badEscape(in bytes: [UInt8], at index: Int) -> String? {
        guard index + 1 < bytes.count else { return nil }
        let letter = bytes[index + 1]
        if Array("\"\\/bfnrt".utf8).contains(letter) { return nil }
        func hex(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte) }
        let shown = { (count: Int) in String(decoding: bytes[index..<min(bytes.count, index + count)], as: UTF8.self) }
        if letter == UInt8(ascii: "u") {
            let digits = bytes[(index + 2)..<min(bytes.count, index + 6)]
            return digits.count == 4 && digits.allSatisfy(hex) ? nil : shown(2 + digits.prefix { hex($0) }.count)
        }
        return letter < 0x80 && letter >= 0x20 ? shown(2) : "\\ followed by the byte 0x\(String(letter, radix: 16, uppercase: true))"
    }
}
