import Foundation

/// Searches in a file's own bytes: its end, its trailers and its cross-reference sections. They are ASCII by
/// ISO 32000-1 §7.5, and searched as Strings they were bridged to Foundation for each search and a regular
/// expression compiled with ICU for two of them: an eighth of a one-page save's work.
enum FileEndBytes {
    /// PDF's white-space characters (ISO 32000-1 §7.2.2).
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0x0C || byte == 0x00
    }

    static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// Where `pattern` first starts in `bytes`, as an index of `bytes`.
    static func first(_ pattern: String, in bytes: ArraySlice<UInt8>) -> Int? {
        let pattern = Array(pattern.utf8)
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return nil }
        var index = bytes.startIndex
        while index + pattern.count <= bytes.endIndex {
            if bytes[index] == pattern[0], bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }

    /// Where `pattern` last starts in `bytes`.
    static func last(_ pattern: String, in bytes: ArraySlice<UInt8>) -> Int? {
        let pattern = Array(pattern.utf8)
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return nil }
        var index = bytes.endIndex - pattern.count
        while index >= bytes.startIndex {
            if bytes[index] == pattern[0], bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index -= 1
        }
        return nil
    }

    /// The decimal number of at most `digits` digits at `index`, which moves past it; nil (and `index` unmoved) when
    /// there is none or it is longer.
    static func number(in bytes: ArraySlice<UInt8>, at index: inout Int, digits limit: Int) -> Int? {
        var end = index
        var value = 0
        while end < bytes.endIndex, isDigit(bytes[end]) {
            guard end - index < limit else { return nil }
            value = value * 10 + Int(bytes[end] - 0x30)
            end += 1
        }
        guard end > index else { return nil }
        index = end
        return value
    }

    /// Whether `bytes` begin `N G obj`, as an indirect object (a cross-reference stream) does.
    static func startsWithObjectHeader(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        for _ in 0..<2 {
            guard number(in: bytes, at: &index, digits: 10) != nil else { return false }
            let spaceStart = index
            while index < bytes.endIndex, isWhitespace(bytes[index]) { index += 1 }
            guard index > spaceStart else { return false }
        }
        return bytes[index...].starts(with: "obj".utf8)
    }

    /// The number after the first `key` followed by white space and digits, as `/Prev 1234` or `/Size 60`.
    static func value(of key: String, in bytes: ArraySlice<UInt8>, digits: Int) -> Int? {
        var from = bytes.startIndex
        while let found = first(key, in: bytes[from...]) {
            var index = found + key.utf8.count
            let spaceStart = index
            while index < bytes.endIndex, isWhitespace(bytes[index]) { index += 1 }
            if index > spaceStart, isDigitAt(bytes, index) { return number(in: bytes, at: &index, digits: digits) }
            from = found + 1
        }
        return nil
    }

    private static func isDigitAt(_ bytes: ArraySlice<UInt8>, _ index: Int) -> Bool {
        index < bytes.endIndex && isDigit(bytes[index])
    }
}
