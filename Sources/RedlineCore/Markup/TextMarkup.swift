/// Text placed on a page. `origin` is the top-left corner of the text's box in display space;
/// the baseline sits one font ascent below it.
public struct TextMarkup: Sendable, Hashable, Codable {
    public static let defaultFontSize = 14.0
    public static let fontSizeRange = 8.0...48.0

    public var origin: Point
    public var text: String
    public var fontSize: Double
    public var color: MarkupColor

    public init(origin: Point, text: String, fontSize: Double = TextMarkup.defaultFontSize, color: MarkupColor = .red) {
        self.origin = origin
        self.text = text
        self.fontSize = fontSize
        self.color = color
    }

    public func bounds(measuredBy measurer: some TextMeasuring) -> Rect {
        let metrics = measurer.metrics(of: text, fontSize: fontSize)
        return Rect(origin: origin, size: Size(width: metrics.width, height: metrics.height))
    }
}
