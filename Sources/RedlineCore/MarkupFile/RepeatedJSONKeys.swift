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
        var lastComma: (line: Int, column: Int)?
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                // Past the string, escapes and all; a line break cannot stand in one.
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1 }
                lastComma = nil
            case UInt8(ascii: ","):
                lastComma = (line, index - lineStart + 1)
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if let comma = lastComma { return (Character(UnicodeScalar(byte)), comma.line, comma.column) }
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

    /// What is wrong with the text around its one value, where Foundation says only "Invalid value" or "Unexpected end
    /// of file": nothing at all, a comment, a second value after the first, a bracket or string the file ends inside.
    /// Nil when none of these (the value itself may still be wrong).
    static func problemAroundTheValue(in bytes: [UInt8]) -> String? {
        var index = 0, line = 1, lineStart = 0
        var open: [(byte: UInt8, line: Int, column: Int)] = []
        var closedAt: (line: Int, column: Int)?
        var sawValue = false
        while index < bytes.count {
            let byte = bytes[index]
            let column = index - lineStart + 1
            if byte == 0x0A {
                line += 1
                lineStart = index + 1
            } else if byte == 0x20 || byte == 0x09 || byte == 0x0D {
                // Space between tokens.
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "*") {
                return "JSON has no comments: \"\(bytes[index + 1] == UInt8(ascii: "/") ? "//" : "/*")\" at line \(line), column \(column)"
            } else if let closed = closedAt {
                return "more follows the JSON object that ends at line \(closed.line), column \(closed.column) (line \(line), column \(column)): "
                    + "a markup file holds one object"
            } else if byte == UInt8(ascii: "\"") {
                let start = (line, column)
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] >= 0x20 { index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1 }
                if index >= bytes.count { return "the file ends inside the string begun at line \(start.0), column \(start.1)" }
                if bytes[index] < 0x20 {
                    // Decoding would name only the item and field; the line is where the user fixes it.
                    let what = switch bytes[index] {
                    case 0x0A: "a line break"
                    case 0x09: "a tab"
                    case 0x0D: "a carriage return"
                    default: "the control character U+\(String(format: "%04X", bytes[index]))"
                    }
                    return "\(what) inside the string begun at line \(start.0), column \(start.1) (line \(line), column \(index - lineStart + 1)): "
                        + "inside a string it must be written as \\n, \\t, \\r or \\u00XX"
                }
                sawValue = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                open.append((byte, line, column))
                sawValue = true
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                guard !open.isEmpty else { return nil }
                open.removeLast()
                if open.isEmpty { closedAt = (line, column) }
            } else {
                sawValue = true
            }
            index += 1
        }
        if !sawValue { return "the file is empty: a markup file is one JSON object, {\"version\": 1, \"items\": […]}" }
        if let innermost = open.last {
            let what = innermost.byte == UInt8(ascii: "{") ? "the { at" : "the [ at"
            return "the file ends before \(what) line \(innermost.line), column \(innermost.column) is closed"
        }
        return nil
    }
}
