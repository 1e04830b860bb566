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

    /// Why text cannot be drawn as typed, naming the characters the font lacks; nil when every one can be.
    public func undrawable(_ text: String) -> String? {
        let missing = missingCharacters(in: text)
        guard !missing.isEmpty else { return nil }
        let shown = missing.prefix(8).map { character in
            let code = character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true).leftPadded(to: 4) }.joined(separator: " ")
            return "\(character) (\(code))"
        }.joined(separator: ", ") + (missing.count > 8 ? " and \(missing.count - 8) more" : "")
        return "the font has no glyph for \(shown): they would print as empty boxes"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
