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
}
