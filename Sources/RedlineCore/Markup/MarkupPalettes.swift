/// The colours `c` cycles through: one palette for text and pen ink, one for the highlighter.
/// config.toml may replace either (docs/configuration.md).
public struct MarkupPalettes: Sendable, Hashable {
    public var text: [MarkupColor]
    public var highlighter: [MarkupColor]

    public init(text: [MarkupColor] = MarkupColor.cycle, highlighter: [MarkupColor] = MarkupColor.highlighterCycle) {
        self.text = text.isEmpty ? MarkupColor.cycle : text
        self.highlighter = highlighter.isEmpty ? MarkupColor.highlighterCycle : highlighter
    }

    public static let standard = MarkupPalettes()

    /// The palette a markup's colour steps through: the highlighter's for highlights, else the text one.
    public func palette(forHighlighter highlighter: Bool) -> [MarkupColor] {
        highlighter ? self.highlighter : text
    }
}
