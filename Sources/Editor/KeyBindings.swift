import TerminalGrid

/// The keys as the `?` overlay and docs/keys.md list them, written from the keymaps: what a user remaps in
/// config.toml is what the help shows.
public enum KeyBindings {
    public typealias Section = (title: String, keys: [(keys: String, action: String)])

    /// One section per context; commands that do the same thing in different directions (the four arrows)
    /// share a line. Then the `:` commands, which are typed, not bound.
    public static func sections(_ keymaps: Keymaps) -> [Section] {
        var sections: [Section] = []
        for context in KeymapContext.allCases {
            var lines: [(keys: String, action: String)] = []
            for command in Keymaps.commands(in: context) {
                let keys = keymaps.keys(for: command, in: context).map(\.name)
                guard !keys.isEmpty else { continue }
                // Lines share the help's key column (22 characters): a longer list starts a line of its own.
                if let last = lines.last, last.action == command.summary(in: context),
                   last.keys.count + 2 + keys.joined(separator: " ").count <= 22 {
                    lines[lines.count - 1].keys += "  " + keys.joined(separator: " ")
                } else {
                    lines.append((keys.joined(separator: " "), command.summary(in: context)))
                }
            }
            if !lines.isEmpty { sections.append((context.title, lines)) }
        }
        sections.append(("Commands (:)", commandLine))
        return sections
    }

    /// What the `:` line understands (`EditorReducer.run(command:)`).
    public static let commandLine: [(keys: String, action: String)] = [
        (":w", "save NAME-marked.pdf beside the original"),
        (":w PATH", "save elsewhere (asks before overwriting)"),
        (":w!", "save over the opened file"),
        (":wa [PATH]  :wa!", "save with the markup as annotations others can still edit"),
        (":wf [PATH]  :wf!", "save with the markup flattened into the pages, whatever save_mode says"),
        (":wq  :x", "save and quit"),
        (":q  :q!", "quit (refuses if unsaved) / quit without saving"),
        (":N", "go to page N"),
        (":stamp WORDS", "the stamp tool with your own words (in ink mode s steps through the standard stamps)"),
        (":help  :h", "the keys"),
    ]

    /// docs/keys.md: the standard keymaps as tables, and how to change them.
    public static func markdown(_ keymaps: Keymaps = .standard) -> String {
        var text = """
            # Keys

            This file is written from the editor's keymaps (`redline keys --markdown`); a test fails when it
            differs from them. Each context has its own keymap; the keyboard goes to the top of what is open:
            a question or the `:` line, else text being typed or ink, else a side panel, else the page. In
            `typing` (a text markup, a reply, a bookmark name, the `:` line) a character that no binding
            claims is typed. Pasted text goes into what is being typed as one line (line breaks become spaces)
            and is never run as keys. On the page a count typed first repeats a move or names a page, as in
            vim: `5j` scrolls five times, `3` PageDown turns three pages, `12G` and `12gg` go to page 12; the
            status line shows the count until the command comes. The mouse is bound like keys: `Click` is a press of the left button
            (what it acts on is where the pointer is; a drag and the release continue it), `WheelDown` and
            `WheelUp` the wheel.

            Change a key in config.toml, one table per context, naming the command:

            ```toml
            [keys.page]
            "C-d" = "next-page"
            "C-u" = "previous-page"
            ```

            Key names: a character as itself (`j`, `J`, `+`), `Space`, `Enter`, `Esc`, `Tab`, `S-Tab`,
            `Backspace`, `Delete`, `Up`, `Down`, `Left`, `Right`, `S-Up` (Shift), `PageUp`, `PageDown`,
            `Home`, `End`, `C-x` for Control and a letter (not `C-h`, `C-i`, `C-j`, `C-m`: terminals send
            them as Backspace, Tab and Enter), `Click`, `WheelDown`, `WheelUp`. A key bound in config.toml
            replaces what it did in that context; the other keys keep theirs; `"q" = "unbound"` takes a key's
            command away, but each context keeps a key for what leaves it (committing and cancelling text,
            answering, closing a panel, leaving ink mode, the `:` line). `redline keys` lists the keys in force.
            What each part of the editor does, at more length: [editing.md](editing.md). The `try-…`
            commands perform an interaction component's interaction even when it is switched off, with its
            conditions: [interactions.md](interactions.md).

            """
        for context in KeymapContext.allCases {
            text += "\n## \(context.title) — `[keys.\(context.rawValue)]`\n\n| keys | command | what it does |\n|---|---|---|\n"
            for command in Keymaps.commands(in: context) {
                let keys = keymaps.keys(for: command, in: context).map { "`\($0.name == "`" ? "` ` `" : $0.name)`" }
                guard !keys.isEmpty else { continue }
                text += "| \(keys.joined(separator: " ")) | `\(command.name)` | \(command.summary(in: context)) |\n"
            }
            for command in Keymaps.unboundCommands[context] ?? [] {
                text += "| (none: bind one) | `\(command.name)` | \(command.summary(in: context)) |\n"
            }
        }
        text += "\n## Commands (`:`)\n\n| command | what it does |\n|---|---|\n"
        for (command, action) in commandLine { text += "| `\(command)` | \(action) |\n" }
        return text
    }
}
