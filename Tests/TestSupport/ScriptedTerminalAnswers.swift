/// What real terminals answer to the probe's questions, byte for byte as they send them: kitty 0.26.5, Ghostty,
/// WezTerm, foot, xterm (-ti vt340) and tmux 3.3a answering for itself.
public enum ScriptedTerminalAnswers {
    static let esc = "\u{1B}"
    public static let answers: [String: String] = [
        "kitty": "\(esc)_Gi=31;OK\(esc)\\\(esc)_Gi=32;OK\(esc)\\\(esc)[6;21;10t\(esc)[4;840;1200t\(esc)[?1016;2$y\(esc)P>|kitty(0.26.5)\(esc)\\\(esc)[?62;c",
        "ghostty": "\(esc)_Gi=31;OK\(esc)\\\(esc)_Gi=32;ENOENT:No such file or directory\(esc)\\\(esc)[6;34;16t\(esc)[?1016;2$y\(esc)P>|ghostty 1.1.3\(esc)\\\(esc)[?62;22c",
        "wezterm": "\(esc)_Gi=31;OK\(esc)\\\(esc)_Gi=32;EBADF:shared memory is not supported\(esc)\\\(esc)[6;17;8t\(esc)[?1016;2$y\(esc)P>|WezTerm 20240203\(esc)\\\(esc)[?65;4;6;18;22c",
        "foot": "\(esc)[6;20;10t\(esc)[4;1000;1600t\(esc)[?1016;2$y\(esc)P>|foot(1.16.2)\(esc)\\\(esc)[?62;4;22c",
        "xterm": "\(esc)[6;13;6t\(esc)[4;520;480t\(esc)[?1016;2$y\(esc)P>|XTerm(379)\(esc)\\\(esc)[?63;1;2;3;4;6;9;15;16;22;28c",
        "tmux": "\(esc)P>|tmux 3.3a\(esc)\\\(esc)[?1;2c",
    ]

}
