/// How the page reaches the screen. `symbols` draws it as character cells (chafa), which every terminal shows;
/// the others send the page's own pixels through a terminal graphics protocol.
public enum GraphicsMode: String, Sendable, CaseIterable {
    /// kitty's graphics protocol, images placed directly (kitty, Ghostty, WezTerm, Konsole).
    case kitty
    /// kitty's graphics protocol through tmux: images shown by Unicode placeholder cells (kitty ≥ 0.28, Ghostty).
    case kittyPlaceholders = "kitty-placeholders"
    /// DEC sixel images (foot, xterm -ti vt340, mlterm, WezTerm, Windows Terminal).
    case sixel
    /// iTerm2's inline images (OSC 1337 File=), PNG.
    case iterm2
    case symbols

    /// Whether the page area shows pixels, at the terminal's own cell size.
    public var showsPixels: Bool { self != .symbols }
}

/// What the user asked for: `--graphics` or config.toml's `graphics`.
public enum GraphicsRequest: String, Sendable, CaseIterable {
    case auto, kitty, sixel, iterm2, symbols

    public static let names = allCases.map(\.rawValue).joined(separator: ", ")
}

/// The mode the editor runs in, chosen from what the terminal answered before the screen was taken, and why.
public struct GraphicsChoice: Sendable, Equatable {
    public var mode: GraphicsMode
    /// One cell in pixels: what the page is rendered at in a pixel mode.
    public var cellPixels: TerminalReplies.PixelSize?
    /// Said on the message line when the editor starts: why pixels were wanted and not shown.
    public var notice: String?
    /// kitty may read images from POSIX shared memory (a local terminal that said so).
    public var sharedMemory = false
    /// Every escape must be wrapped for tmux's passthrough.
    public var throughTmux = false
    /// The terminal reports the mouse in pixels (DECSET 1016).
    public var pixelMouse = false
    /// The largest sixel image the terminal shows: the page is sent in pieces no larger. xterm's default
    /// (`maxGraphicSize` 1000×1000) when it did not say.
    public var largestImage = TerminalReplies.PixelSize(width: 1000, height: 1000)

    public init(mode: GraphicsMode, cellPixels: TerminalReplies.PixelSize? = nil, notice: String? = nil) {
        self.mode = mode
        self.cellPixels = cellPixels
        self.notice = notice
    }

    /// A cell this size or smaller is no real answer (a terminal that fills TIOCGWINSZ with zeros or nonsense).
    static let smallestCell = 3
    static let largestCell = 512
    /// A cell size to use when a mode is asked for by name and the terminal gives none.
    public static let assumedCell = TerminalReplies.PixelSize(width: 10, height: 20)

    /// The choice for a terminal. `tmuxPassthrough` is tmux's `allow-passthrough` when inside tmux.
    public static func choose(_ request: GraphicsRequest, replies: TerminalReplies, environment: TerminalEnvironment,
                              columns: Int, rows: Int, windowPixels: TerminalReplies.PixelSize?,
                              tmuxPassthrough: String?) -> GraphicsChoice {
        let cell = cellSize(replies: replies, columns: columns, rows: rows, windowPixels: windowPixels)
        let passthrough = environment.insideTmux && (tmuxPassthrough == "on" || tmuxPassthrough == "all")
        let kitty = replies.kittyGraphics == true
        func pixels(_ mode: GraphicsMode) -> GraphicsChoice {
            var choice = GraphicsChoice(mode: mode, cellPixels: cell ?? assumedCell)
            choice.throughTmux = environment.insideTmux
            choice.sharedMemory = mode == .kitty && replies.kittySharedMemory == true && !environment.insideTmux
            choice.pixelMouse = replies.sgrPixelMouse == true && !environment.insideTmux
            if let largest = replies.largestSixel { choice.largestImage = largest }
            return choice
        }
        switch request {
        case .symbols:
            return GraphicsChoice(mode: .symbols)
        case .kitty:
            // Inside tmux only kitty's placeholders survive, and only where tmux passes them on to a terminal that
            // draws them: elsewhere they are coloured boxes filling the page, so the page is drawn in symbols instead,
            // saying why, as when the choice is left to Redline.
            if environment.insideTmux, let refusal = tmuxRefusal(replies: replies, passthrough: passthrough, tmuxPassthrough: tmuxPassthrough) {
                var choice = GraphicsChoice(mode: .symbols)
                choice.notice = "--graphics kitty: " + refusal
                return choice
            }
            var choice = pixels(environment.insideTmux ? .kittyPlaceholders : .kitty)
            if replies.isComplete, !kitty { choice.notice = unconfirmed("kitty's graphics") }
            return choice
        case .sixel:
            var choice = pixels(.sixel)
            if replies.isComplete, !replies.sixel { choice.notice = unconfirmed("sixel") }
            return choice
        case .iterm2:
            return pixels(.iterm2)
        case .auto:
            break
        }
        if environment.insideTmux {
            // Only kitty's placeholders survive tmux: they are cells tmux moves and redraws like text.
            if !passthrough || kitty, let refusal = tmuxRefusal(replies: replies, passthrough: passthrough, tmuxPassthrough: tmuxPassthrough) {
                // Never changed behind the user's back: said, with what would change it.
                var choice = GraphicsChoice(mode: .symbols)
                choice.notice = refusal
                return choice
            }
            guard kitty, cell != nil else { return GraphicsChoice(mode: .symbols) }
            return pixels(.kittyPlaceholders)
        }
        guard cell != nil else { return GraphicsChoice(mode: .symbols) }
        if kitty { return pixels(.kitty) }
        if replies.sixel { return pixels(.sixel) }
        if ["iTerm.app", "WezTerm"].contains(environment.program ?? "") { return pixels(.iterm2) }
        return GraphicsChoice(mode: .symbols)
    }

    /// Why images cannot reach the page through tmux, or nil when kitty's placeholders can: tmux must pass them on
    /// (`allow-passthrough`), and the terminal around it must draw them (kitty 0.28 or later, Ghostty), which it says
    /// by naming itself through the passthrough.
    static func tmuxRefusal(replies: TerminalReplies, passthrough: Bool, tmuxPassthrough: String?) -> String? {
        if !passthrough {
            return "tmux's allow-passthrough is \(tmuxPassthrough ?? "off"): the page is drawn in symbols "
                + "(`tmux set -g allow-passthrough on` lets images through)"
        }
        guard !replies.versions.contains(where: showsPlaceholders) else { return nil }
        let outer = replies.versions.first { !$0.lowercased().hasPrefix("tmux") }
        return "the terminal around tmux (\(outer.map { VisibleText.of($0) } ?? "unnamed")) shows no images "
            + "through tmux: kitty 0.28 or later, or Ghostty, does; the page is drawn in symbols"
    }

    /// Said when a mode asked for by name is one the terminal did not claim when asked.
    static func unconfirmed(_ protocolName: String) -> String {
        "the terminal did not say it shows \(protocolName): if the page does not show, --graphics auto or symbols will"
    }

    /// Whether a terminal's XTVERSION names one that draws kitty's Unicode placeholders: kitty 0.28 or later, Ghostty.
    public static func showsPlaceholders(_ version: String) -> Bool {
        let name = version.lowercased()
        if name.hasPrefix("ghostty") { return true }
        guard name.hasPrefix("kitty("), let close = name.firstIndex(of: ")") else { return false }
        let numbers = name[name.index(name.startIndex, offsetBy: 6)..<close].split(separator: ".").compactMap { Int($0) }
        guard numbers.count >= 2 else { return false }
        return numbers[0] > 0 || numbers[1] >= 28
    }

    /// The cell's size in pixels: CSI 16 t's answer, else the window's pixels (TIOCGWINSZ, then CSI 14 t) over its
    /// cells. The window's pixels may count a border (xterm's two pixels a side), which the division drops.
    static func cellSize(replies: TerminalReplies, columns: Int, rows: Int,
                         windowPixels: TerminalReplies.PixelSize?) -> TerminalReplies.PixelSize? {
        func sensible(_ size: TerminalReplies.PixelSize) -> TerminalReplies.PixelSize? {
            (smallestCell...largestCell).contains(size.width) && (smallestCell...largestCell).contains(size.height) ? size : nil
        }
        if let cell = replies.cellPixels.flatMap(sensible) { return cell }
        guard columns > 0, rows > 0 else { return nil }
        for window in [windowPixels, replies.textAreaPixels].compactMap({ $0 }) {
            if let cell = sensible(TerminalReplies.PixelSize(width: window.width / columns, height: window.height / rows)) {
                return cell
            }
        }
        return nil
    }
}
