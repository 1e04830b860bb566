import CNcurses

/// Bracketed paste (DECSET 2004): the terminal wraps pasted text in `ESC [200~` … `ESC [201~`, so the editor
/// reads it as text, never as keys. Without it a pasted `:w!` and Enter would run as commands.
enum BracketedPaste {
    static let startCode: Int32 = 0x1020
    static let endCode: Int32 = 0x1021
    /// More than any note needs; the rest of a paste is read and dropped, never left to be read as keys.
    static let limit = 64 * 1024

    static func enable(on screen: NcursesScreen) {
        for (sequence, code) in [("\u{1B}[200~", startCode), ("\u{1B}[201~", endCode)] {
            define_key(sequence, 0)
            define_key(sequence, code)
        }
        screen.emitControl("\u{1B}[?2004h")
    }

    static func disable(on screen: NcursesScreen) {
        screen.emitControl("\u{1B}[?2004l")
    }
}

/// kitty's graphics replies (`ESC _ G … ESC \`): a late answer to the probe, or an error about an image. Taught to
/// ncurses as a key of Redline's own and read to its end, so no part of one is ever read as keys.
enum GraphicsReplies {
    static let startCode: Int32 = 0x1030

    static func enable() {
        define_key("\u{1B}_G", 0)
        define_key("\u{1B}_G", startCode)
    }
}
