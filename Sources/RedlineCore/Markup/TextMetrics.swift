/// How much room a run of text takes at a font size, in points.
public struct TextMetrics: Sendable, Hashable {
    public var width: Double
    public var ascent: Double
    public var descent: Double

    public init(width: Double, ascent: Double, descent: Double) {
        self.width = width
        self.ascent = ascent
        self.descent = descent
    }

    public var height: Double { ascent + descent }
}

/// Measures text in the font markup is drawn with. The real one asks cairo; the editor only needs the numbers.
public protocol TextMeasuring: Sendable {
    func metrics(of text: String, fontSize: Double) -> TextMetrics
    /// The characters of `text` the font has no glyph for, each once, in the order they first appear: drawn, they
    /// would be empty boxes, and the saved page would hold no word of them.
    func missingCharacters(in text: String) -> [Character]
}

extension TextMeasuring {
    public func missingCharacters(in text: String) -> [Character] { [] }

    /// Why text cannot be drawn as typed, naming the characters the font lacks; nil when every one can be. Letters of
    /// right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko) count as lacking: the markup font has some of their
    /// glyphs, but text is set left to right and unjoined, so Arabic would print backwards in its isolated forms.
    /// Direction controls (U+202E and its kin) are refused as well: Redline draws nothing for them, while a reader
    /// showing the words in a popup reorders them, so the comment would say one thing and the page another.
    public func undrawable(_ text: String) -> String? {
        var seen = Set<Character>()
        let controls = text.unicodeScalars.filter { TextMetricsScripts.isDirectionControl($0) && seen.insert(Character($0)).inserted }
        let rightToLeft = text.filter { character in
            character.unicodeScalars.contains { TextMetricsScripts.isRightToLeft($0) } && seen.insert(character).inserted
        }
        let missing = missingCharacters(in: text).filter { !seen.contains($0) }
        func named(_ characters: [Character]) -> String {
            characters.prefix(8).map { character in
                let code = character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true).leftPadded(to: 4) }
                    .joined(separator: " ")
                return "\(character) (\(code))"
            }.joined(separator: ", ") + (characters.count > 8 ? " and \(characters.count - 8) more" : "")
        }
        var problems: [String] = []
        if !missing.isEmpty { problems.append("the font has no glyph for \(named(missing)): they would print as empty boxes") }
        if !controls.isEmpty {
            // Named by code alone: printed, a control would reorder the message itself.
            let codes = controls.map { "U+" + String($0.value, radix: 16, uppercase: true).leftPadded(to: 4) }.joined(separator: ", ")
            problems.append("direction controls \(codes) would make readers reorder the words (text is set left to right)")
        }
        if !rightToLeft.isEmpty {
            problems.append("right-to-left letters \(named(Array(rightToLeft))) would print backwards and unjoined (text is set left to right)")
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }
}

enum TextMetricsScripts {
    /// The marks, embeddings, overrides and isolates of the Unicode bidirectional algorithm (UAX #9).
    static func isDirectionControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
        default: false
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
