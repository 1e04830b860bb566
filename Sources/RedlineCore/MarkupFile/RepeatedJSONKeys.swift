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
}
