import CNcurses

import Foundation
import TerminalGrid

/// The only place that talks to ncurses: shows grids by writing the cells that changed, reads keys.
public final class NcursesScreen: TerminalScreen {
    private var shown: CellGrid?
    /// The colour pairs this screen defined, by colours. Redline numbers them itself: ncurses' `alloc_pair`
    /// silently reuses the oldest pair once the table is full, which turns both a remembered number and the
    /// cells already drawn with it into other colours.
    private var pairs: [PairKey: Int32] = [:]
    private var nextPair: Int32 = 1
    public let colors: Int
    private var running = true
    private var mouse = MouseReportDecoder()
    /// stderr as it was before the screen took over, put back by `stop`.
    private var savedStandardError: Int32 = -1
    /// Where a measuring screen writes (`redline bench`), instead of the terminal.
    private var measuredOutput: UnsafeMutablePointer<FILE>?
    private var measuredInput: UnsafeMutablePointer<FILE>?

    private struct PairKey: Hashable {
        let foreground: Int32
        let background: Int32
    }

    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// `standardErrorLog`: where anything written to stderr goes while the screen is up (a library's warning,
    /// a runtime message), so that it lands in a file instead of across the screen.
    public init(standardErrorLog: String? = nil) throws {
        setlocale(LC_ALL, "")
        // Esc must answer at once; ncurses waits a second by default in case a sequence follows.
        set_escdelay(25)
        // newterm, unlike initscr, returns instead of exiting when the terminal is unusable.
        guard isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 else {
            throw StartError(description: "the editor needs a terminal (use `redline apply` in scripts)")
        }
        let environment = ProcessInfo.processInfo.environment
        let direct = DirectColor.terminalType(term: environment["TERM"], colorTerm: environment["COLORTERM"])
        guard (direct.flatMap { redline_newterm_type($0) }) != nil || redline_newterm() != nil else {
            throw StartError(description: "cannot start the terminal \"\(environment["TERM"] ?? "")\"")
        }
        raw()
        noecho()
        nonl()
        keypad(redline_stdscr(), true)
        curs_set(0)
        if has_colors() {
            start_color()
            use_default_colors()
        }
        colors = has_colors() ? Int(redline_colors()) : 0
        KeySequences.defineModifiedKeys()
        HangupSignals.install()
        MouseReports.enable(on: self)
        BracketedPaste.enable(on: self)
        GraphicsReplies.enable()
        redirectStandardError(to: standardErrorLog)
        toldSize = size
    }

    /// A screen of `columns × rows` that writes what a terminal of type `type` would get into a temporary file, so
    /// `redline bench` can count the bytes each frame costs. It never touches the real terminal.
    public init?(measuring type: String, columns: Int, rows: Int) {
        guard let output = tmpfile(), let input = fopen("/dev/null", "r") else { return nil }
        measuredOutput = output
        measuredInput = input
        guard redline_newterm_file(type, output, input) != nil else {
            fclose(output)
            fclose(input)
            return nil
        }
        resizeterm(Int32(rows), Int32(columns))
        if has_colors() {
            start_color()
            use_default_colors()
        }
        colors = has_colors() ? Int(redline_colors()) : 0
        running = false
    }

    /// What a measuring screen has written so far, in bytes.
    public var bytesWritten: Int {
        guard let measuredOutput else { return 0 }
        fflush(measuredOutput)
        return ftell(measuredOutput)
    }

    private func redirectStandardError(to path: String?) {
        let log = path.map { open($0, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600) } ?? open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard log >= 0 else { return }
        savedStandardError = dup(STDERR_FILENO)
        dup2(log, STDERR_FILENO)
        close(log)
    }

    public var size: (columns: Int, rows: Int) {
        (Int(getmaxx(redline_stdscr())), Int(getmaxy(redline_stdscr())))
    }

    public private(set) var lastFrameWasFull = false

    /// Writes the cells that differ from what is on screen, then refreshes once.
    public func present(_ grid: CellGrid) {
        lastFrameWasFull = false
        if shown == nil || shown?.columns != grid.columns || shown?.rows != grid.rows {
            clearok(redline_stdscr(), true)
            lastFrameWasFull = true
        }
        if !put(grid.changes(since: shown)) {
            // The pair table is full. A frame never needs more pairs than it has cells, so the table starts
            // again and every cell is drawn anew with pairs defined for this frame: no cell keeps a number
            // that has come to mean other colours.
            pairs.removeAll(keepingCapacity: true)
            nextPair = 1
            clearok(redline_stdscr(), true)
            lastFrameWasFull = true
            _ = put(grid.changes(since: nil), evenWhenFull: true)
        }
        shown = grid
        refresh()
    }

    /// False when the pair table filled before every change was written.
    private func put(_ changes: [CellChange], evenWhenFull: Bool = false) -> Bool {
        // The wide character before a tail cell draws over it.
        for change in changes where !change.cell.isWideTail {
            guard let pair = pairNumber(foreground: change.cell.style.foreground, background: change.cell.style.background)
                ?? (evenWhenFull ? 0 : nil) else { return false }
            put(change.cell, column: change.column, row: change.row, pair: pair)
        }
        return true
    }

    private func put(_ cell: Cell, column: Int, row: Int, pair: Int32) {
        var attributes: UInt32 = 0
        if cell.style.bold { attributes |= redline_attr_bold() }
        if cell.style.reverse { attributes |= redline_attr_reverse() }
        if cell.style.underline { attributes |= redline_attr_underline() }
        // Grids write control characters as escapes; a cell made some other way still never sends one.
        let scalars = cell.character.unicodeScalars.contains(where: VisibleText.isHidden)
            ? ["\u{FFFD}"] : Array(cell.character.unicodeScalars.prefix(4))
        var text: [wchar_t] = scalars.map { wchar_t(bitPattern: $0.value) } + [0]
        // Writing the bottom-right cell scrolls some terminals; ncurses reports ERR there, which is harmless.
        _ = redline_put_cell(Int32(row), Int32(column), &text, attributes, pair)
    }

    /// The pair for two colours, defined on first use; nil when the table is full.
    private func pairNumber(foreground: TerminalColor, background: TerminalColor) -> Int32? {
        guard colors > 0 else { return 0 }
        let key = PairKey(foreground: colorNumber(foreground), background: backgroundNumber(background, behind: foreground))
        if let known = pairs[key] { return known }
        guard nextPair < Int32(redline_color_pairs()) else { return nil }
        let number = nextPair
        guard init_extended_pair(number, key.foreground, key.background) != ERR else { return 0 }
        nextPair += 1
        pairs[key] = number
        return number
    }

    /// A pale background behind dark text keeps its hue on an eight- or sixteen-colour terminal: a highlight stays
    /// a highlight instead of turning the paper's white.
    private func backgroundNumber(_ color: TerminalColor, behind text: TerminalColor) -> Int32 {
        guard colors < 256, case .rgb(let red, let green, let blue) = color, colorNumber(text) == 0,
              let hue = PaletteApproximation.paleHue8(red: red, green: green, blue: blue) else { return colorNumber(color) }
        return Int32(hue)
    }

    private func colorNumber(_ color: TerminalColor) -> Int32 {
        switch color {
        case .default: return -1
        case .indexed(let index):
            // Direct-colour entries read every number as RGB: palette colour 8 would be RGB(0, 0, 8).
            if colors >= 0x1000000 {
                let rgb = XtermPalette.rgb(index)
                return Int32(rgb.red) << 16 | Int32(rgb.green) << 8 | Int32(rgb.blue)
            }
            if Int(index) < colors { return Int32(index) }
            // Eight-colour terminals: a bright colour becomes its plain one, bright black the light grey
            // (black on black would hide what it draws).
            if colors >= 8, index < 16 { return index == 8 ? 7 : Int32(index % 8) }
            let rgb = XtermPalette.rgb(index)
            return Int32(PaletteApproximation.index256(red: rgb.red, green: rgb.green, blue: rgb.blue)) % Int32(max(1, colors))
        case .rgb(let red, let green, let blue):
            if colors >= 0x1000000 { return Int32(red) << 16 | Int32(green) << 8 | Int32(blue) }
            if colors >= 256 { return Int32(PaletteApproximation.index256(red: red, green: green, blue: blue)) }
            return Int32(PaletteApproximation.index8(red: red, green: green, blue: blue) % UInt8(clamping: max(1, min(colors, 8))))
        }
    }

    public func waitForInput(timeoutMilliseconds milliseconds: Int32, wakeDescriptor: Int32) -> Bool {
        var remaining = milliseconds
        while true {
            // In slices: a resize signal delivered to another thread (a render, a search) does not interrupt
            // this poll, and the new size would wait for the next key. Between slices the size is looked at.
            let slice = remaining < 0 ? Self.resizeCheckMilliseconds : min(remaining, Self.resizeCheckMilliseconds)
            var descriptors = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)]
            // A hang-up or SIGTERM that came while the loop was busy (drawing a heavy page) interrupted no poll:
            // its flag is looked at here, as the size is, or it would wait for the next key.
            if HangupSignals.received { return true }
            let ready = poll(&descriptors, wakeDescriptor >= 0 ? 2 : 1, slice)
            // Interrupted by a signal (a resize, a hang-up): the read says which.
            if ready < 0 { return true }
            if ready > 0 { return descriptors[0].revents != 0 }
            if HangupSignals.received || terminalSizeChanged() { return true }
            if remaining >= 0 {
                remaining -= slice
                if remaining <= 0 { return false }
            }
        }
    }

    static let resizeCheckMilliseconds: Int32 = 200

    /// A terminal resized without ncurses hearing of it (on a loaded machine its signal was once lost, and the
    /// screen kept the old size for a minute): taken from the terminal's own size, as ncurses would take it.
    /// Also a resize ncurses took in while reading a key (waiting for the rest of an escape sequence) and keeps as a
    /// key the loop never asks for: the editor is told of every size it has not been told of.
    private func resizeNcursesMissed() -> TerminalInput? {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return nil }
        let known = size
        if Int(window.ws_col) != known.columns || Int(window.ws_row) != known.rows {
            resizeterm(Int32(window.ws_row), Int32(window.ws_col))
        }
        return told(size)
    }

    /// The size the editor was last told of: a resize it has not heard of is one whatever ncurses knows.
    private var toldSize: (columns: Int, rows: Int)?

    /// `.resized` when `now` is not what the editor was last told, and remembered as told.
    private func told(_ now: (columns: Int, rows: Int)) -> TerminalInput? {
        if let toldSize, toldSize == now { return nil }
        toldSize = now
        shown = nil
        return .resized(columns: now.columns, rows: now.rows)
    }

    /// Whether the terminal's size differs from the size the editor was last told of (or ncurses has): the next
    /// read gives the resize (ncurses' own, or `resizeNcursesMissed`'s).
    private func terminalSizeChanged() -> Bool {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return false }
        let known = toldSize ?? size
        return Int(window.ws_col) != known.columns || Int(window.ws_row) != known.rows
    }

    /// Mouse reports in pixels (mode 1016, SGR's form with pixel positions), for a terminal that offers them: a
    /// stroke drawn with the mouse follows the pointer within cells. `cell` turns pixels back into cells.
    public func reportMouseInPixels(cell: TerminalReplies.PixelSize) {
        mouse.pixelCell = cell
        emitControl("\u{1B}[?1016h")
    }

    public func redraw(rows: Range<Int>) {
        let clamped = rows.clamped(to: 0..<size.rows)
        guard !clamped.isEmpty else { return }
        wredrawln(redline_stdscr(), Int32(clamped.lowerBound), Int32(clamped.count))
        refresh()
    }

    /// Straight to the terminal, after ncurses has written the frame: stdio's buffer first, so the escapes follow
    /// the frame's bytes. A measuring screen counts them.
    public func writeImages(_ escapes: String) {
        guard !escapes.isEmpty else { return }
        if let measuredOutput {
            _ = escapes.withCString { fputs($0, measuredOutput) }
            return
        }
        fflush(nil)
        // A failed write means the terminal is gone: the next read says so.
        Array(escapes.utf8).withUnsafeBytes { DescriptorWrites.writeAll($0, to: STDOUT_FILENO) }
    }

    /// OSC 52, which xterm, kitty, foot, WezTerm, iTerm2 and Windows Terminal honour, over SSH too; tmux passes
    /// it on (or keeps it as a paste buffer) with `set-clipboard on`. The text goes as base64, so nothing in it
    /// can act as a control sequence; xterm's limit on the sequence's length caps it.
    public func copyToClipboard(_ text: String) {
        let encoded = Data(text.utf8.prefix(Self.largestClipboardBytes)).base64EncodedString()
        emitControl("\u{1B}]52;c;\(encoded)\u{07}")
    }

    static let largestClipboardBytes = 74_994 / 4 * 3

    /// Sends a control sequence through ncurses (putp), between frames: nothing else writes to the terminal
    /// while the screen is up.
    func emitControl(_ sequence: String) {
        putp(sequence)
        // putp writes through stdio, which holds the sequence until the program ends unless flushed: the
        // mouse modes and bracketed paste were then only switched on as the editor quit.
        fflush(nil)
    }

    /// Waits up to `milliseconds` for input (-1 waits for ever).
    public func read(timeoutMilliseconds milliseconds: Int32) -> TerminalInput? {
        wtimeout(redline_stdscr(), milliseconds)
        var value: wint_t = 0
        let status = wget_wch(redline_stdscr(), &value)
        if status == ERR {
            if HangupSignals.received || terminalIsGone { return .hangup }
            return resizeNcursesMissed()
        }
        if status == redline_key_code_yes() {
            if Int32(value) == MouseReports.sgrPrefixCode {
                return readSGRMouseReport()
            }
            if Int32(value) == MouseReports.x10PrefixCode {
                return readX10MouseReport()
            }
            if Int32(value) == BracketedPaste.startCode {
                return readPaste()
            }
            // An end marker without its start (the start came before the screen was up) is no key.
            if Int32(value) == BracketedPaste.endCode { return nil }
            if Int32(value) == GraphicsReplies.startCode {
                // Never keys; only a missing image is acted on.
                guard let reply = KittyGraphicsReply(body: "G" + readGraphicsReply()), reply.imageIsMissing else { return nil }
                return .imageMissing(id: reply.imageID)
            }
            if Int32(value) == KEY_RESIZE {
                shown = nil
                let size = self.size
                toldSize = size
                return .resized(columns: size.columns, rows: size.rows)
            }
            return KeySequences.key(forCode: Int32(value)).map(TerminalInput.key)
        }
        return KeySequences.key(forCharacter: value).map(TerminalInput.key)
    }

    /// The rest of an SGR report, which follows its prefix at once. Whatever it holds is consumed: a report
    /// that cannot be decoded is dropped, never read as keys.
    private func readSGRMouseReport() -> TerminalInput? {
        var body = ""
        while body.count < 32, let scalar = nextReportCharacter().flatMap(Unicode.Scalar.init) {
            body.unicodeScalars.append(scalar)
            if scalar == "M" || scalar == "m" { break }
            guard scalar.properties.numericType != nil || scalar == ";" else { break }
        }
        return mouse.decodeSGR(body).map(TerminalInput.mouse)
    }

    /// Everything up to the paste's end marker, as text. Keys ncurses recognised inside it (a pasted escape
    /// sequence) are dropped; a paste whose end never comes ends after a second of silence. An end marker
    /// that more input follows at once was itself pasted (some terminals pass one through): the paste goes
    /// on, so what follows it is never read as keys. It ends at an end marker followed by 5 ms of quiet.
    private func readPaste() -> TerminalInput {
        var text = ""
        var length = 0
        var markerSeen = false
        while true {
            wtimeout(redline_stdscr(), markerSeen ? 5 : 1000)
            var value: wint_t = 0
            let status = wget_wch(redline_stdscr(), &value)
            if status == ERR { break }
            if status == redline_key_code_yes() {
                markerSeen = Int32(value) == BracketedPaste.endCode
                continue
            }
            markerSeen = false
            guard let scalar = Unicode.Scalar(UInt32(value)), length < BracketedPaste.limit else { continue }
            text.unicodeScalars.append(scalar)
            length += 1
        }
        return .paste(text)
    }

    /// The rest of a kitty graphics reply, up to its ESC backslash; one whose end never comes ends after a quarter
    /// second of silence or 4 KiB.
    private func readGraphicsReply() -> String {
        var body = ""
        var escaped = false
        for _ in 0..<4096 {
            guard let value = nextReportCharacter() else { break }
            if escaped && value == UInt32(UInt8(ascii: "\\")) { break }
            escaped = value == 0x1B
            if !escaped, let scalar = Unicode.Scalar(value) { body.unicodeScalars.append(scalar) }
        }
        return body
    }

    private func readX10MouseReport() -> TerminalInput? {
        var bytes: [UInt32] = []
        while bytes.count < 3, let value = nextReportCharacter() { bytes.append(value) }
        return mouse.decodeX10(bytes).map(TerminalInput.mouse)
    }

    /// The next character of a mouse report, which follows its prefix at once; nil when none comes in time.
    private func nextReportCharacter() -> UInt32? {
        wtimeout(redline_stdscr(), 250)
        var value: wint_t = 0
        let status = wget_wch(redline_stdscr(), &value)
        guard status != ERR, status != redline_key_code_yes() else { return nil }
        return UInt32(value)
    }

    /// A closed terminal makes every read fail at once; without this check the editor would spin on it.
    private var terminalIsGone: Bool {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) >= 0 else { return false }
        return descriptor.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }

    /// Forgets what is on screen, so the next `present` redraws every cell.
    public func invalidate() {
        shown = nil
    }

    public func stop() {
        guard running else { return }
        running = false
        BracketedPaste.disable(on: self)
        if mouse.pixelCell != nil { emitControl("\u{1B}[?1016l") }
        MouseReports.disable(on: self)
        endwin()
        if savedStandardError >= 0 {
            dup2(savedStandardError, STDERR_FILENO)
            close(savedStandardError)
            savedStandardError = -1
        }
    }

    deinit {
        stop()
        if measuredOutput != nil {
            endwin()
            measuredOutput.map { _ = fclose($0) }
            measuredInput.map { _ = fclose($0) }
        }
    }
}
