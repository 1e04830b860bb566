/// How many colours the terminal shows, which decides how chafa picks each cell's colours.
public enum ColorDepth: String, Sendable, CaseIterable {
    case truecolor
    case palette256
    case palette16
    /// Terminals such as `screen` and the Linux console name eight colours; bright ones are not theirs to show.
    case palette8

    /// From the number of colours the terminal reports.
    public init(terminalColors: Int) {
        switch terminalColors {
        case 0x1000000...: self = .truecolor
        case 256...: self = .palette256
        case 16...: self = .palette16
        default: self = .palette8
        }
    }
}
