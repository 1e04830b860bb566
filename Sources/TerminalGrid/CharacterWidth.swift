/// How many cells a character takes in a terminal: two for East Asian wide and full-width characters and
/// most emoji, one otherwise. The ranges are those of Unicode's East Asian Width property (W and F).
public enum CharacterWidth {
    public static func of(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first, scalar.value >= 0x1100 else { return 1 }
        return wideRanges.contains { $0.contains(scalar.value) } ? 2 : 1
    }

    public static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The longest start of `text` that takes at most `columns` cells.
    public static func prefix(of text: String, columns: Int) -> String {
        var used = 0
        var result = ""
        for character in text {
            used += of(character)
            if used > columns { break }
            result.append(character)
        }
        return result
    }

    /// The longest end of `text` that takes at most `columns` cells.
    public static func suffix(of text: String, columns: Int) -> String {
        var used = 0
        var result: [Character] = []
        for character in text.reversed() {
            used += of(character)
            if used > columns { break }
            result.append(character)
        }
        return String(result.reversed())
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF,
        0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F1E6...0x1F1FF, 0x1F200...0x1F251, 0x1F300...0x1F64F, 0x1F680...0x1F6FF,
        0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}

/// Breaks text into lines of at most `width` cells, at spaces where it can and inside long words where it
/// must. Line breaks in the text are kept.
public enum TextWrapping {
    public static func lines(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var result: [String] = []
        for paragraph in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                let wordWidth = CharacterWidth.of(word)
                let needed = lineWidth == 0 ? wordWidth : lineWidth + 1 + wordWidth
                if needed <= width {
                    line += (lineWidth == 0 ? "" : " ") + word
                    lineWidth = needed
                    continue
                }
                if lineWidth > 0 {
                    result.append(line)
                    line = ""
                    lineWidth = 0
                }
                for character in word {
                    let characterWidth = CharacterWidth.of(character)
                    if lineWidth + characterWidth > width {
                        result.append(line)
                        line = ""
                        lineWidth = 0
                    }
                    line.append(character)
                    lineWidth += characterWidth
                }
            }
            result.append(line)
        }
        return result
    }
}
