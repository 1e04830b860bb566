import Foundation
import Glibc
import TerminalGrid

/// Asks the terminal what it can show before ncurses takes the screen, and reads the answers itself, so no reply
/// is ever taken for a key: kitty's graphics protocol (direct and through shared memory), sixel (DA1), the cell
/// size in pixels, SGR mouse reports in pixels, the terminal's name. It waits for the answer to the last question
/// (DA1, which every terminal gives) at most `timeoutMilliseconds`; a terminal that answers nothing costs that.
public enum TerminalProbe {
    public struct Finding: Sendable {
        public var replies: TerminalReplies
        /// From TIOCGWINSZ: the window in cells and, where the terminal fills them in, in pixels.
        public var columns: Int
        public var rows: Int
        public var windowPixels: TerminalReplies.PixelSize?
        /// The terminal's environment: `TERM`, `TERM_PROGRAM`, tmux.
        public var environment: TerminalEnvironment
        /// tmux's `allow-passthrough` for this pane ("on", "off", "all"), when inside tmux.
        public var tmuxPassthrough: String?
        public var milliseconds: Int
    }

    public static func run(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, environment: [String: String],
                           timeoutMilliseconds: Int = 100, tmuxPassthrough: String? = nil) -> Finding {
        let start = DispatchTime.now()
        let terminal = TerminalEnvironment(environment)
        var size = winsize()
        _ = ioctl(output, UInt(TIOCGWINSZ), &size)
        var finding = Finding(replies: TerminalReplies(), columns: Int(size.ws_col), rows: Int(size.ws_row),
                              windowPixels: size.ws_xpixel > 0 && size.ws_ypixel > 0
                                  ? TerminalReplies.PixelSize(width: Int(size.ws_xpixel), height: Int(size.ws_ypixel)) : nil,
                              environment: terminal, tmuxPassthrough: tmuxPassthrough, milliseconds: 0)
        guard isatty(input) != 0 else { return finding }

        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { return finding }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        _ = tcsetattr(input, TCSANOW, &raw)
        defer { _ = tcsetattr(input, TCSANOW, &saved) }

        let sharedMemory = SharedMemoryPixel()
        defer { sharedMemory?.remove() }
        let passthrough = terminal.insideTmux && (tmuxPassthrough == "on" || tmuxPassthrough == "all")
        let queries = TerminalQueries.bytes(sharedMemoryName: sharedMemory?.name, passthrough: passthrough)
        if passthrough { finding.replies.awaitedAttributes = 2 }
        queries.withUnsafeBytes { DescriptorWrites.writeAll($0, to: output) }

        let deadline = start.uptimeNanoseconds + UInt64(timeoutMilliseconds) * 1_000_000
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !finding.replies.isComplete {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { break }
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32((deadline - now) / 1_000_000) + 1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = read(input, &buffer, buffer.count)
            guard count > 0 else { break }
            finding.replies.absorb(buffer[0..<count])
        }
        finding.milliseconds = Int((DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1_000_000)
        return finding
    }

    /// tmux's `allow-passthrough` for the pane the editor runs in, read (never changed) through tmux itself.
    public static func tmuxPassthrough(environment: [String: String]) -> String? {
        guard environment["TMUX"] != nil else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tmux", "show-options", "-Apqv"] + (environment["TMUX_PANE"].map { ["-t", $0] } ?? []) + ["allow-passthrough"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let value = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty ? "off" : value
    }
}

/// One RGB pixel in a POSIX shared-memory object: what the probe offers kitty to read. kitty removes the object
/// once it has read it; whatever is left is removed after the probe.
private struct SharedMemoryPixel {
    let name: String

    init?() {
        name = "/redline-probe-\(getpid())"
        guard DescriptorWrites.sharedMemory(named: name, holding: [255, 0, 0]) else { return nil }
    }

    func remove() {
        shm_unlink(name)
    }
}

extension TerminalProbe.Finding {
    /// What `redline --probe` prints: a line per thing asked, with where the answer came from.
    public var report: String {
        let replies = self.replies
        func pixels(_ size: TerminalReplies.PixelSize?) -> String? { size.map { "\($0.width)×\($0.height) pixels" } }
        func answer(_ value: Bool?, yes: String, no: String = "no") -> String {
            guard replies.isComplete else { return "no answer" }
            return value.map { $0 ? yes : no } ?? "no (not answered)"
        }
        var lines: [(String, String)] = []
        let name = [replies.version.map { VisibleText.of($0) + " (XTVERSION)" }, environment.program.map { VisibleText.of($0) + " (environment)" }]
            .compactMap { $0 }.first ?? "not named"
        lines.append(("terminal", name + "; TERM=" + VisibleText.of(environment.term)))
        if environment.insideTmux {
            let passthrough = tmuxPassthrough ?? "unknown"
            let consequence = passthrough == "on" || passthrough == "all" ? "" : ": images cannot reach the terminal around tmux"
            lines.append(("tmux", "yes, allow-passthrough \(passthrough)\(consequence)"))
        } else {
            lines.append(("tmux", "no"))
        }
        lines.append(("window", "\(columns)×\(rows) cells" + (pixels(windowPixels).map { ", " + $0 } ?? ", no pixel size") + " (TIOCGWINSZ)"))
        lines.append(("cell", pixels(replies.cellPixels).map { $0 + " (CSI 16 t)" } ?? "no answer to CSI 16 t"))
        var kitty = answer(replies.kittyGraphics, yes: "yes, direct transfer")
        if replies.kittyGraphics == true {
            kitty += "; shared memory " + answer(replies.kittySharedMemory, yes: "yes")
        }
        if !replies.kittyErrors.isEmpty { kitty += " (" + replies.kittyErrors.map { VisibleText.of($0) }.joined(separator: "; ") + ")" }
        lines.append(("kitty graphics", kitty))
        lines.append(("sixel", replies.isComplete ? (replies.sixel ? "yes (DA1 attribute 4)" : "no") : "no answer"))
        lines.append(("mouse in pixels", answer(replies.sgrPixelMouse, yes: "yes (mode 1016)")))
        lines.append(("answered", replies.isComplete ? "in \(milliseconds) ms" : "nothing within \(milliseconds) ms: the terminal did not answer DA1"))
        return lines.map { $0.0.padding(toLength: 16, withPad: " ", startingAt: 0) + $0.1 }.joined(separator: "\n")
    }
}
