import RedlineCore
import TerminalGrid

/// Every colour Redline draws text in, in one place. Each pair is chosen to read at WCAG's 4.5:1 or better
/// in xterm's palette at every depth: sent as RGB to direct-colour terminals, as palette numbers to 256- and
/// 16-colour ones, and folded onto eight colours (bright black becomes light grey there). Text on the
/// terminal's own default colours is only the status line, reversed, which is readable in any theme.
public enum Theme {
    public static let panel = CellStyle(foreground: .white, background: .black)
    /// Secondary text (dates, state changes, hints): grey on black, 5.3:1.
    public static let panelDim = CellStyle(foreground: .brightBlack, background: .black)
    public static let panelTitle = CellStyle(foreground: .brightWhite, background: .black, bold: true)
    /// The row that keys act on: black on yellow, unmistakable against the dark panel.
    public static let selectedRow = CellStyle(foreground: .black, background: .brightYellow)
    public static let help = CellStyle(foreground: .black, background: .white)
    public static let helpTitle = CellStyle(foreground: .black, background: .white, bold: true)
    public static let status = CellStyle(reverse: true)
    public static let message = CellStyle.plain
    /// A question that waits for an answer.
    /// Not bold: many terminals draw bold black as dark grey, which reads poorly on yellow.
    public static let question = CellStyle(foreground: .black, background: .brightYellow)
    public static let problem = CellStyle(foreground: .brightWhite, background: .red, bold: true)
    /// The markup cursor and the pen: white on red stands out from white paper (5.9:1) and from black
    /// paper (3.9:1) alike, where yellow would vanish on white.
    /// A link's label in hint mode (`f`), and the letters of it already typed.
    public static let linkHint = CellStyle(foreground: .black, background: .brightYellow, bold: true)
    public static let linkHintTyped = CellStyle(foreground: .brightBlack, background: .brightYellow)
    public static let cursor = CellStyle(foreground: .brightWhite, background: .red, bold: true)

    // The text view (`T`): the page's words on white paper, as on the page.
    /// Black on white, 21:1.
    static let textPaper = CellStyle(foreground: .black, background: .brightWhite)
    /// Around the page, as the picture's grey backdrop.
    static let textBackdrop = CellStyle(background: .rgb(red: 0x3A, green: 0x3A, blue: 0x3A))
    /// A search hit: black on yellow, as the `:` line's questions.
    static let textHit = CellStyle(foreground: .black, background: .brightYellow)
    /// The hit `n` stands on: white on blue, apart from the other hits.
    static let textCurrentHit = CellStyle(foreground: .brightWhite, background: .blue, bold: true)
    /// Words being selected: black on cyan.
    static let textSelected = CellStyle(foreground: .black, background: .cyan)

    /// Words printed in a colour, and text markup (bold): the colour made readable on paper (`ReadableInk`).
    static func textInk(_ color: RGBColor) -> CellStyle { CellStyle(foreground: Self.color(color), background: .brightWhite) }
    static func textMarkup(_ color: RGBColor) -> CellStyle { CellStyle(foreground: Self.color(color), background: .brightWhite, bold: true) }
    /// A pen stroke or a strike-out: the cells it crosses in its colour, their text in white.
    static func textStroke(_ color: RGBColor) -> CellStyle { CellStyle(foreground: .brightWhite, background: Self.color(color)) }
    /// A highlighter or a highlight: a light tint, the text black.
    static func textHighlighter(_ tint: RGBColor) -> CellStyle { CellStyle(foreground: .black, background: Self.color(tint)) }

    static func color(_ color: RGBColor) -> TerminalColor { .rgb(red: color.red, green: color.green, blue: color.blue) }
}
