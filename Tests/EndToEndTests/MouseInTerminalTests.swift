import Foundation
import TestSupport
import Testing

/// The mouse under tmux with tmux's own terminfo entry, whose ncurses mouse support is X10 only (no
/// column past 223): Redline asks for SGR reports and decodes them itself, and no part of one is a key.
@Suite(.serialized) struct MouseInTerminalTests {
    static let columns = 300, rows = 100

    func cursor(_ tmux: TmuxSession) throws -> (column: Int, row: Int)? {
        try tmux.waitUntilIdle()
        let screen = ScreenColours(capture: try tmux.screenWithColours(), columns: Self.columns)
        for row in 0..<(Self.rows - 2) {
            for column in 0..<Self.columns where screen[column, row].character == "+" && screen[column, row].background.saturation > 100 {
                return (column, row)
            }
        }
        return nil
    }

    /// A terminal sends the mouse only to a program that asked for it while it runs: tmux's flags say whether
    /// the request reached it (it once went out only as the editor quit), and that quitting takes it back.
    @Test func theTerminalIsAskedForMouseReportsWhileTheEditorRuns() throws {
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(TestPaths.sample)'")
        try tmux.waitFor("page 1/4")
        try tmux.waitUntilIdle()
        #expect(try tmux.paneFormat("#{mouse_button_flag} #{mouse_sgr_flag}") == "1 1")
        try tmux.send("q")
        try tmux.waitFor("REDLINE-EXIT=0")
        #expect(try tmux.paneFormat("#{mouse_any_flag} #{mouse_button_flag} #{mouse_sgr_flag}") == "0 0 0")
    }

    @Test(arguments: ["tmux-256color", "xterm-256color", "screen"])
    func aClickPastColumn223MovesTheCursorThereAndTypesNothing(term: String) throws {
        let folder = TemporaryFolder()
        let document = folder.file("wide.pdf")
        try FileManager.default.copyItem(atPath: TestPaths.sample, toPath: document)
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", columns: Self.columns, rows: Self.rows,
                                   environment: ["TERM": term])
        tmux.keep(folder)
        try tmux.waitFor("page 1/4")
        try tmux.send("z", "z")
        try tmux.waitFor("zoom 150%")
        // What a terminal sends for a left click at column 240, row 20 (1-based), in SGR form; the "0" in it
        // once reached the editor as the key that fits the page.
        try tmux.type("\u{1B}[<0;240;20M")
        try tmux.type("\u{1B}[<0;240;20m")
        let where_ = try #require(try cursor(tmux), "no cursor on screen")
        #expect(where_.column == 239 && where_.row == 19, "the cursor is at \(where_)")
        let screen = try tmux.screen()
        #expect(screen.contains("zoom 150%"), "a report's characters were read as keys")
        #expect(!screen.contains("[modified]"))
        // The wheel, in SGR form, scrolls the zoomed page rather than turning it.
        try tmux.type("\u{1B}[<65;100;30M")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try tmux.screen().contains("page 1/4"))
        try tmux.send("q")
        try tmux.waitFor("REDLINE-EXIT=0")
    }
}
