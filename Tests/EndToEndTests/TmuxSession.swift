import Foundation
import TestSupport

/// The real editor in a real terminal: tmux runs it, send-keys types, capture-pane reads the screen.
/// Each session has its own tmux server, so tests can run side by side.
final class TmuxSession {
    let socket = "redline-test-\(UUID().uuidString.prefix(8))"
    let folder = TemporaryFolder()
    /// Folders the session's program works in, removed with the session.
    private var kept: [TemporaryFolder] = []

    func keep(_ folder: TemporaryFolder) {
        kept.append(folder)
    }

    /// tmux passes 24-bit colour on only when told the outer terminal has it.
    static let configuration: String = {
        let path = NSTemporaryDirectory() + "redline-tmux.conf"
        try? "set -g default-terminal tmux-256color\nset -as terminal-features ',*:RGB'\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }()

    init(command: String, columns: Int = 120, rows: Int = 40, environment: [String: String] = [:]) throws {
        let variables = (["XDG_STATE_HOME": folder.file("state"), "TERM": "xterm-256color", "COLORTERM": ""].merging(environment) { $1 })
            .map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        // The shell stays after the editor ends, so its exit status can be read.
        let script = "env \(variables) \(command); echo \"REDLINE-EXIT=$?\"; sleep 60"
        let status = try ProcessRunner.start("tmux", ["-L", socket, "-f", TmuxSession.configuration, "new-session", "-d",
                                                      "-x", String(columns), "-y", String(rows), script])
        guard status == 0 else { throw ToolFailure(tool: "tmux", output: "new-session exited \(status)") }
    }

    func send(_ keys: String...) throws {
        try send(contentsOf: keys)
    }

    /// Many keys in one `send-keys`: they reach the editor together, as a held key's repeats do.
    func send(contentsOf keys: [String]) throws {
        try ProcessRunner.run("tmux", ["-L", socket, "send-keys"] + keys)
    }

    /// Types text literally, key by key.
    func type(_ text: String) throws {
        try ProcessRunner.run("tmux", ["-L", socket, "send-keys", "-l", text])
    }

    /// A tmux format of the pane (`#{mouse_sgr_flag}`): what tmux knows of the terminal modes the program set.
    func paneFormat(_ format: String) throws -> String {
        try ProcessRunner.run("tmux", ["-L", socket, "display-message", "-p", format]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Pastes text as a terminal does when the program asked for bracketed paste (tmux's `paste-buffer -p`).
    func paste(_ text: String) throws {
        try ProcessRunner.run("tmux", ["-L", socket, "set-buffer", "--", text])
        try ProcessRunner.run("tmux", ["-L", socket, "paste-buffer", "-p"])
    }

    /// Runs a command line as a user types it: `:`, the command, Enter.
    func command(_ line: String) throws {
        try send(":")
        try type(line)
        try send("Enter")
    }

    /// Places text at the cursor as a user does (`t`, the text, Enter) and waits until the editor counts it
    /// as unsaved.
    func placeText(_ text: String) throws {
        try send("t")
        try type(text)
        try send("Enter")
        try waitFor("[modified]")
    }

    func screen() throws -> String {
        try ProcessRunner.run("tmux", ["-L", socket, "capture-pane", "-p"]).stdout
    }

    /// The screen with its colours, as escape sequences.
    func screenWithColours() throws -> String {
        try ProcessRunner.run("tmux", ["-L", socket, "capture-pane", "-p", "-e"]).stdout
    }

    /// Waits until the screen shows `text` (the editor draws asynchronously from the test's point of view).
    @discardableResult
    func waitFor(_ text: String, seconds: Double = 15) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if last.contains(text) { return last }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw ToolFailure(tool: "tmux", output: "screen never showed \"\(text)\"; it shows:\n\(last)")
    }

    /// Waits until the editor has handled every key sent so far and drawn the frame: its main thread sleeps in
    /// poll(2) waiting for the next key, no other thread runs (a page being rendered off the loop), and the
    /// screen stays the same, four readings in a row 50 ms apart. A frame can take a large part of a second
    /// in a debug build, so a fixed pause would guess.
    func waitUntilIdle(seconds: Double = 15) throws {
        let deadline = Date().addingTimeInterval(seconds)
        Thread.sleep(forTimeInterval: 0.05)
        var quietReadings = 0
        var last = ""
        while quietReadings < 4 {
            guard Date() < deadline else { throw ToolFailure(tool: "tmux", output: "the editor never went idle") }
            let screen = try screenWithColours()
            quietReadings = try programIsIdle() && screen == last ? quietReadings + 1 : 0
            last = screen
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    private func programIsIdle() throws -> Bool {
        guard let pid = try programID(),
              let wchan = try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8), wchan.contains("poll") else { return false }
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return threads.allSatisfy { thread in
            // The state is the field after the parenthesised name: R is running.
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return true }
            return !stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("R")
        }
    }

    /// Kills the program in the pane outright (SIGKILL), as a crash would: it gets no chance to clean up.
    func killProgram() throws {
        let shell = try ProcessRunner.run("tmux", ["-L", socket, "list-panes", "-F", "#{pane_pid}"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try ProcessRunner.run("pkill", ["-KILL", "-P", shell])
    }

    /// Waits until the pane's shell has no program left (a killed editor's last frame may wrap the shell's
    /// own words anywhere on the screen, so the screen is no way to tell).
    func waitUntilProgramEnds(seconds: Double = 15) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while try programID() != nil {
            guard Date() < deadline else { throw ToolFailure(tool: "tmux", output: "the program did not end") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// The editor's process: the child of the pane's shell.
    func programID() throws -> pid_t? {
        let shell = try ProcessRunner.run("tmux", ["-L", socket, "list-panes", "-F", "#{pane_pid}"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let child = try ProcessRunner.run("pgrep", ["-P", shell]).stdout.split(separator: "\n").first
        return child.flatMap { pid_t($0) }
    }

    /// Closes the terminal under the program, as a closed window or a dropped SSH connection does.
    func closeTerminal() throws {
        _ = try ProcessRunner.start("tmux", ["-L", socket, "kill-session"])
    }

    deinit {
        // tmux 3.3a answers kill-server but can leave the server running with its pane (an editor that was
        // never quit); killing the session ends both, and the server leaves once it has none.
        _ = try? ProcessRunner.start("tmux", ["-L", socket, "kill-session"])
        _ = try? ProcessRunner.start("tmux", ["-L", socket, "kill-server"])
    }
}

/// A copy of the sample document in a folder of its own, for the editor to open and save beside.
func copyOfSample(named name: String) throws -> (TemporaryFolder, String) {
    let folder = TemporaryFolder()
    let document = folder.file(name)
    try FileManager.default.copyItem(atPath: TestPaths.sample, toPath: document)
    return (folder, document)
}
