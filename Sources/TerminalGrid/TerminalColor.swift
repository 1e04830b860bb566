/// A colour as a terminal understands it. Which forms a terminal can show is the backend's business.
public enum TerminalColor: Sendable, Hashable {
    case `default`
    /// One of the 16 ANSI colours (0–15) or, above, the 256-colour palette.
    case indexed(UInt8)
    case rgb(red: UInt8, green: UInt8, blue: UInt8)

    public static let black = TerminalColor.indexed(0)
    public static let red = TerminalColor.indexed(1)
    public static let green = TerminalColor.indexed(2)
    public static let yellow = TerminalColor.indexed(3)
    public static let blue = TerminalColor.indexed(4)
    public static let magenta = TerminalColor.indexed(5)
    public static let cyan = TerminalColor.indexed(6)
    public static let white = TerminalColor.indexed(7)
    public static let brightBlack = TerminalColor.indexed(8)
    public static let brightRed = TerminalColor.indexed(9)
    public static let brightYellow = TerminalColor.indexed(11)
    public static let brightWhite = TerminalColor.indexed(15)
}
