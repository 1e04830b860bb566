/// ncurses shows 24-bit colour only through a direct-colour terminfo entry, but terminals that can show
/// it usually say so in $COLORTERM while $TERM still names a 256-colour entry. Then the matching
/// direct entry (Debian's ncurses-term ships them) is used instead.
enum DirectColor {
    static func terminalType(term: String?, colorTerm: String?) -> String? {
        guard let colorTerm = colorTerm?.lowercased(), colorTerm == "truecolor" || colorTerm == "24bit",
              let term, !term.hasSuffix("-direct") else { return nil }
        if term.hasPrefix("xterm") { return "xterm-direct" }
        if term.hasPrefix("tmux") || term.hasPrefix("screen") { return "tmux-direct" }
        if term.hasPrefix("konsole") { return "konsole-direct" }
        if term.hasPrefix("vte") || term.hasPrefix("gnome") { return "vte-direct" }
        return nil
    }
}
