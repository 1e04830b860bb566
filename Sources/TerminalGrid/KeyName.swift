/// Keys by name, as config.toml, the `?` overlay and docs/keys.md write them: a printable character as
/// itself (`j`, `J`, `+`, `:`), `Space`, `Enter`, `Esc`, `Tab`, `S-Tab`, `Backspace`, `Delete`, the arrows
/// `Up` `Down` `Left` `Right` and with Shift `S-Up` …, `PageUp`, `PageDown`, `Home`, `End`, `F1` to `F12`, and Control
/// with a letter as `C-d`; the mouse as `Click`, `WheelUp` and `WheelDown`.
extension Key {
    /// The names of the keys that have one, other than characters and Control letters.
    static let named: [(String, Key)] = [
        ("Space", .character(" ")), ("Enter", .enter), ("Esc", .escape), ("Tab", .tab), ("S-Tab", .backTab),
        ("Backspace", .backspace), ("Delete", .delete),
        ("Up", .up), ("Down", .down), ("Left", .left), ("Right", .right),
        ("S-Up", .shiftUp), ("S-Down", .shiftDown), ("S-Left", .shiftLeft), ("S-Right", .shiftRight),
        ("PageUp", .pageUp), ("PageDown", .pageDown), ("Home", .home), ("End", .end),
        ("Click", .click), ("WheelUp", .wheelUp), ("WheelDown", .wheelDown),
    ] + (1...12).map { ("F\($0)", Key.function($0)) }

    /// The key a name stands for; nil for a name no terminal key has (`F13`, `C-1`, `Alt-x`, an empty name).
    public init?(name: String) {
        if let known = Self.named.first(where: { $0.0.lowercased() == name.lowercased() }) {
            self = known.1
            return
        }
        let characters = Array(name)
        if characters.count == 3, name.lowercased().hasPrefix("c-"), let letter = characters.last, letter.isASCII, letter.isLetter {
            // Ctrl-H, Ctrl-I, Ctrl-J and Ctrl-M arrive as Backspace, Tab, Enter and Enter; Ctrl-[ is Esc.
            guard !"hijm".contains(letter.lowercased()) else { return nil }
            self = .control(Character(letter.lowercased()))
            return
        }
        guard characters.count == 1, let character = characters.first,
              character.unicodeScalars.allSatisfy({ !VisibleText.isHidden($0) && $0 != " " }) else { return nil }
        self = .character(character)
    }

    /// The name config.toml and the help use for this key.
    public var name: String {
        if let known = Self.named.first(where: { $0.1 == self }) { return known.0 }
        switch self {
        case .character(let character): return String(character)
        case .control(let letter): return "C-" + String(letter)
        default: return "\(self)"
        }
    }
}
