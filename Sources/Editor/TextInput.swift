import TerminalGrid

/// Everything typed on one line (a text markup, a reply, a bookmark name, the `:` line) is edited the same
/// way, through the `typing` keymap: a character no binding claims is typed.
enum TextInput {
    enum Entry: Equatable {
        case editing(String)
        case committed(String)
        case cancelled
    }

    static func edit(_ text: String, _ key: Key, keymaps: Keymaps) -> Entry {
        switch keymaps.command(for: key, in: .typing) {
        case .commitInput?: return .committed(text)
        case .cancelInput?: return .cancelled
        case .deleteBack?: return .editing(String(text.dropLast()))
        case .deleteWord?:
            // Spaces after the word go with it, as in a shell.
            var characters = Array(text)
            while characters.last == " " { characters.removeLast() }
            while let last = characters.last, last != " " { characters.removeLast() }
            return .editing(String(characters))
        case .clearInput?: return .editing("")
        case nil:
            if case .character(let character) = key, !character.isNewline { return .editing(text + String(character)) }
            return .editing(text)
        default:
            return .editing(text)
        }
    }

    /// Pasted text as one line: tabs and other control characters become spaces, a run of line breaks one
    /// space (at the ends too, so lines pasted one after another stay apart); an escape sequence is only
    /// text, its ESC a space.
    static func pastable(_ text: String) -> String {
        var line = ""
        var lastWasBreak = false
        for scalar in text.unicodeScalars {
            let isBreak = scalar == "\r" || scalar == "\n"
            if isBreak, lastWasBreak { continue }
            lastWasBreak = isBreak
            if VisibleText.isHidden(scalar) || isBreak || scalar == "\t" {
                line.unicodeScalars.append(" ")
            } else {
                line.unicodeScalars.append(scalar)
            }
        }
        return line
    }
}
