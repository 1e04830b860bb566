import CNcurses

/// Turns mouse reporting on and off, and teaches ncurses the two report prefixes as keys of Redline's own.
/// ncurses' own mouse decoding is left off: it decodes only the form the terminfo entry names (tmux's
/// entries name X10, capped at 223 columns), and what it does not decode arrives as keys.
enum MouseReports {
    static let sgrPrefixCode: Int32 = 0x1010
    static let x10PrefixCode: Int32 = 0x1011
    static let sgrPrefix = "\u{1B}[<"
    static let x10Prefix = "\u{1B}[M"

    static func enable(on screen: NcursesScreen) {
        for (prefix, code) in [(sgrPrefix, sgrPrefixCode), (x10Prefix, x10PrefixCode)] {
            // A terminfo entry may bind the prefix to KEY_MOUSE already: take that binding away first.
            define_key(prefix, 0)
            define_key(prefix, code)
        }
        // Button-event tracking (presses, releases, drags, the wheel) in the SGR form.
        screen.emitControl("\u{1B}[?1002h\u{1B}[?1006h")
    }

    static func disable(on screen: NcursesScreen) {
        screen.emitControl("\u{1B}[?1006l\u{1B}[?1002l")
    }
}
