import Foundation
import TestSupport
import Testing

/// `redline --probe` in tmux: tmux answers for itself, and its passthrough setting is read, never changed.
@Suite(.serialized) struct ProbeInTerminalTests {
    @Test func theProbeSaysWhatTmuxAnswersAndWhetherImagesCouldPass() throws {
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' --probe", columns: 120, rows: 20)
        try tmux.waitFor("REDLINE-EXIT=0")
        let screen = try tmux.screen()
        #expect(screen.contains("terminal        tmux "), "\(screen)")
        #expect(screen.contains("allow-passthrough off: images cannot reach the terminal around tmux"), "\(screen)")
        #expect(screen.contains("sixel           no") && screen.contains("answered        in "), "\(screen)")
        let setting = try ProcessRunner.run("tmux", ["-L", tmux.socket, "show-options", "-gv", "allow-passthrough"]).stdout
        #expect(setting.trimmingCharacters(in: .whitespacesAndNewlines) == "off", "left as it was")

        try ProcessRunner.run("tmux", ["-L", tmux.socket, "set-option", "-g", "allow-passthrough", "on"])
        // A second window of the same tmux, where passthrough is now on.
        try ProcessRunner.run("tmux", ["-L", tmux.socket, "new-window", "-d", "-n", "again", "'\(TestPaths.redline)' --probe; sleep 30"])
        var shown = ""
        for _ in 0..<100 where !shown.contains("answered") {
            Thread.sleep(forTimeInterval: 0.05)
            shown = try ProcessRunner.run("tmux", ["-L", tmux.socket, "capture-pane", "-p", "-t", "again"]).stdout
        }
        #expect(shown.contains("allow-passthrough on\n"), "\(shown)")
    }
}
