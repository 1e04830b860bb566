/// How many colours the terminal shows, which decides how chafa picks each cell's colours.
public enum ColorDepth: String, Sendable, CaseIterable {
    case truecolor
    case palette256
    case palette16

    /// From the number of colours the terminal reports.
    public init(terminalColors: Int) {
        switch terminalColors {
        case 0x1000000...: self = .truecolor
        case 256...: self = .palette256
        default: self = .palette16
        }
    }
}
