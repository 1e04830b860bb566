import RedlineCore

/// What new markup will look like: the text style, each ink tool's, and the colours `c` cycles through.
public struct Tools: Sendable, Hashable {
    /// Size and colour the next text markup gets.
    public var textStyle = TextStyle()
    /// Width and colour of each ink tool.
    public var inkStyle = InkStyle()
    /// The colour the next highlight, underline or strike-out gets: the last one chosen with `c`.
    public var textMarksColor: [TextMarks.Kind: MarkupColor] = [:]
    /// config.toml's `text_colors` and `highlighter_colors`.
    public var palettes = MarkupPalettes.standard {
        didSet {
            inkStyle = InkStyle(palettes: palettes)
            if !palettes.text.contains(textStyle.color) { textStyle.color = palettes.text[0] }
        }
    }
}
