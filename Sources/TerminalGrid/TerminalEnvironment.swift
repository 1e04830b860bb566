/// What the environment says about the terminal: its `TERM`, the program the terminal names itself by, and
/// whether the editor runs inside tmux (whose own `TERM` hides the terminal around it).
public struct TerminalEnvironment: Sendable, Equatable {
    public var term: String
    public var program: String?
    public var insideTmux: Bool

    public init(_ environment: [String: String]) {
        term = environment["TERM"] ?? ""
        insideTmux = environment["TMUX"] != nil
        program = Self.program(environment)
    }

    /// The terminal's name from the variables terminals set: TERM_PROGRAM (WezTerm, iTerm2, ghostty, vscode),
    /// the kitty, Konsole and Windows Terminal variables, or a TERM that names one.
    static func program(_ environment: [String: String]) -> String? {
        if let program = environment["TERM_PROGRAM"], !program.isEmpty, program != "tmux" { return program }
        if environment["KITTY_WINDOW_ID"] != nil { return "kitty" }
        if environment["KONSOLE_VERSION"] != nil { return "Konsole" }
        if environment["WT_SESSION"] != nil { return "Windows Terminal" }
        let term = environment["TERM"] ?? ""
        for (prefix, name) in [("xterm-kitty", "kitty"), ("xterm-ghostty", "Ghostty"), ("foot", "foot"), ("mlterm", "mlterm"),
                               ("wezterm", "WezTerm")] where term.hasPrefix(prefix) {
            return name
        }
        return nil
    }
}
