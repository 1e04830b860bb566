import TerminalGrid
import TestSupport
import Testing

/// Which mode the editor draws the page in, from what each terminal answered.
struct GraphicsChoiceTests {
    static func choose(_ terminal: String, _ request: GraphicsRequest = .auto, environment: [String: String] = ["TERM": "xterm-256color"],
                       passthrough: String? = nil, windowPixels: TerminalReplies.PixelSize? = nil) -> GraphicsChoice {
        var replies = TerminalReplies()
        replies.absorb(Array((ScriptedTerminalAnswers.answers[terminal] ?? "").utf8)[...])
        return GraphicsChoice.choose(request, replies: replies, environment: TerminalEnvironment(environment), columns: 100, rows: 30,
                                     windowPixels: windowPixels, tmuxPassthrough: passthrough)
    }

    @Test func kittyGhosttyAndWezTermGetKittysProtocolAtTheirOwnCellSize() {
        let kitty = Self.choose("kitty")
        #expect(kitty.mode == .kitty && kitty.cellPixels == TerminalReplies.PixelSize(width: 10, height: 21) && kitty.sharedMemory)
        #expect(kitty.pixelMouse)
        let ghostty = Self.choose("ghostty")
        #expect(ghostty.mode == .kitty && !ghostty.sharedMemory, "Ghostty refused shared memory: direct transfer")
        #expect(Self.choose("wezterm").mode == .kitty)
    }

    @Test func footAndXtermGetSixel() {
        #expect(Self.choose("foot").mode == .sixel)
        let xterm = Self.choose("xterm")
        #expect(xterm.mode == .sixel && xterm.cellPixels == TerminalReplies.PixelSize(width: 6, height: 13))
    }

    @Test func xtermWithoutWindowOpsTakesTheCellFromTheWindowsPixels() {
        // Debian's xterm answers no CSI 16 t; its TIOCGWINSZ counts a two-pixel border, which the division drops.
        var replies = TerminalReplies()
        replies.absorb(Array("\u{1B}[?63;1;2;4c".utf8)[...])
        let choice = GraphicsChoice.choose(.auto, replies: replies, environment: TerminalEnvironment(["TERM": "xterm"]), columns: 80,
                                           rows: 24, windowPixels: TerminalReplies.PixelSize(width: 484, height: 316), tmuxPassthrough: nil)
        #expect(choice.mode == .sixel && choice.cellPixels == TerminalReplies.PixelSize(width: 6, height: 13))
    }

    @Test func aTerminalThatAnswersNothingGetsSymbols() {
        let choice = Self.choose("none")
        #expect(choice.mode == .symbols && choice.notice == nil)
    }

    @Test func insideTmuxWithoutPassthroughSymbolsAndSaysSo() {
        let choice = Self.choose("tmux", environment: ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"], passthrough: "off")
        #expect(choice.mode == .symbols)
        #expect(choice.notice?.contains("allow-passthrough is off") == true, "\(choice.notice ?? "")")
    }

    static func throughTmux(outer version: String) -> TerminalReplies {
        var replies = TerminalReplies()
        replies.awaitedAttributes = 2
        replies.absorb(Array((ScriptedTerminalAnswers.answers["tmux"]! + "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P>|\(version)\u{1B}\\\u{1B}[?62;c").utf8)[...])
        return replies
    }

    @Test func insideTmuxAKittyWithoutPlaceholdersGetsSymbolsAndSaysWhy() {
        let choice = GraphicsChoice.choose(.auto, replies: Self.throughTmux(outer: "kitty(0.26.5)"),
                                           environment: TerminalEnvironment(["TERM": "tmux-256color", "TMUX": "x"]),
                                           columns: 100, rows: 30, windowPixels: TerminalReplies.PixelSize(width: 1000, height: 600),
                                           tmuxPassthrough: "on")
        #expect(choice.mode == .symbols)
        #expect(choice.notice?.contains("kitty(0.26.5)") == true && choice.notice?.contains("0.28") == true, "\(choice.notice ?? "")")
        #expect(GraphicsChoice.showsPlaceholders("Ghostty 1.1.3") && GraphicsChoice.showsPlaceholders("kitty(0.28.0)"))
        #expect(!GraphicsChoice.showsPlaceholders("kitty(0.27.1)") && !GraphicsChoice.showsPlaceholders("tmux 3.3a"))
    }

    @Test func insideTmuxWithPassthroughAndKittyAroundPlaceholders() {
        // tmux answers for itself; the kitty questions, wrapped, reach the kitty around it.
        let replies = Self.throughTmux(outer: "kitty(0.35.2)")
        let choice = GraphicsChoice.choose(.auto, replies: replies, environment: TerminalEnvironment(["TERM": "tmux-256color", "TMUX": "x"]),
                                           columns: 100, rows: 30, windowPixels: TerminalReplies.PixelSize(width: 1000, height: 600),
                                           tmuxPassthrough: "on")
        #expect(choice.mode == .kittyPlaceholders && choice.throughTmux && !choice.pixelMouse)
        #expect(choice.cellPixels == TerminalReplies.PixelSize(width: 10, height: 20))
    }

    /// `--graphics kitty` inside tmux where the images cannot get through (passthrough off, or an outer terminal that
    /// draws no placeholders): the page would fill with coloured boxes, so it is drawn in symbols and that is said.
    @Test func kittyAskedForInsideTmuxFallsBackWhereImagesCannotGetThrough() {
        let tmux = TerminalEnvironment(["TERM": "tmux-256color", "TMUX": "x"])
        let closed = GraphicsChoice.choose(.kitty, replies: Self.throughTmux(outer: "kitty(0.35.2)"), environment: tmux, columns: 100, rows: 30,
                                           windowPixels: nil, tmuxPassthrough: "off")
        #expect(closed.mode == .symbols && closed.notice?.hasPrefix("--graphics kitty: tmux's allow-passthrough is off") == true)
        let xtermAround = GraphicsChoice.choose(.kitty, replies: Self.throughTmux(outer: "XTerm(379)"), environment: tmux, columns: 100,
                                                rows: 30, windowPixels: nil, tmuxPassthrough: "on")
        #expect(xtermAround.mode == .symbols && xtermAround.notice?.contains("XTerm(379)") == true, "\(xtermAround.notice ?? "")")
        let kittyAround = GraphicsChoice.choose(.kitty, replies: Self.throughTmux(outer: "kitty(0.35.2)"), environment: tmux, columns: 100,
                                                rows: 30, windowPixels: nil, tmuxPassthrough: "on")
        #expect(kittyAround.mode == .kittyPlaceholders && kittyAround.notice == nil)
    }

    @Test func askedForByNameAModeIsTakenEvenUnconfirmed() {
        #expect(Self.choose("none", .kitty).mode == .kitty)
        #expect(Self.choose("none", .kitty).cellPixels == GraphicsChoice.assumedCell)
        #expect(Self.choose("kitty", .symbols).mode == .symbols)
        #expect(Self.choose("xterm", .iterm2).mode == .iterm2)
    }

    @Test func nonsenseCellSizesAreNoAnswer() {
        var replies = TerminalReplies()
        replies.absorb(Array("\u{1B}[6;0;0t\u{1B}[?62;4c".utf8)[...])
        let choice = GraphicsChoice.choose(.auto, replies: replies, environment: TerminalEnvironment(["TERM": "xterm"]), columns: 80,
                                           rows: 24, windowPixels: TerminalReplies.PixelSize(width: 1, height: 1), tmuxPassthrough: nil)
        #expect(choice.mode == .symbols, "no cell size, no pixels")
    }
}
