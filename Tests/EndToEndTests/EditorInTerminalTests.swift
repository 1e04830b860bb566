import Foundation
import TestSupport
import Testing

/// The real binary in tmux, driven as a user would.
@Suite(.serialized) struct EditorInTerminalTests {
    @Test func placeNudgeResizeSaveAndQuit() throws {
        let folder = TemporaryFolder()
        let document = folder.file("contract.pdf")
        try FileManager.default.copyItem(atPath: TestPaths.sample, toPath: document)
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)' --page 4")
        try tmux.waitFor("page 4/4")
        try tmux.send("t")
        try tmux.type("Approved")
        try tmux.waitFor("Text: Approved")
        try tmux.send("Enter")
        try tmux.waitFor("selected \"Approved\" 14pt red")
        try tmux.send("Right", "Right", "Right", "S-Down", "+")
        try tmux.waitFor("selected \"Approved\" 16pt red")
        try tmux.send(":", "w", "Enter")
        try tmux.waitFor("Saved \(folder.file("contract-marked.pdf"))")
        try tmux.send("q")
        try tmux.waitFor("REDLINE-EXIT=0")

        // The cursor starts at (72, 72): three 1 pt nudges right, one 10 pt down.
        let word = try #require(try PopplerText.words(in: folder.file("contract-marked.pdf"), page: 4).first { $0.text == "Approved" })
        #expect(abs(word.xMin - 75) <= 1)
        #expect(abs(word.yMin - 82) <= 1)
        #expect(word.yMax - word.yMin > 16, "the font size went up to 16 pt")
        #expect(try QPDFCheck.errors(in: folder.file("contract-marked.pdf")) == nil)
        // The original is untouched.
        #expect(FileManager.default.contents(atPath: document) == FileManager.default.contents(atPath: TestPaths.sample))
    }

    @Test func unsavedMarkupSurvivesACrashAndIsOfferedBack() throws {
        let folder = TemporaryFolder()
        let document = folder.file("draft.pdf")
        try FileManager.default.copyItem(atPath: TestPaths.sample, toPath: document)
        let state = folder.file("state")
        let first = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", environment: ["XDG_STATE_HOME": state])
        try first.waitFor("page 1/4")
        try first.send("t")
        try first.type("Survivor")
        try first.send("Enter")
        try first.waitFor("[modified]")
        // Kill the editor as a crash would: no chance to save or clean up.
        try first.killProgram()
        try first.waitFor("REDLINE-EXIT=")

        let second = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", environment: ["XDG_STATE_HOME": state])
        try second.waitFor("Unsaved markup (1 item) from an earlier session. Restore it? (y/n)")
        try second.send("y")
        try second.waitFor("Restored 1 unsaved markup item")
        try second.send(":", "w", "q", "Enter")
        try second.waitFor("REDLINE-EXIT=0")
        #expect(try PopplerText.words(in: folder.file("draft-marked.pdf"), page: 1).contains { $0.text == "Survivor" })
    }

    @Test func encryptedFilesAskForThePasswordInTheTerminal() throws {
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(TestPaths.fixture("qpdf_enc-XI-R6_V5_U-view.pdf"))'")
        try tmux.waitFor("is encrypted. Password:")
        try tmux.type("nope")
        try tmux.send("Enter")
        try tmux.waitFor("Wrong password, try again")
        try tmux.type("view")
        try tmux.send("Enter")
        try tmux.waitFor("page 1/30")
        try tmux.send("G")
        try tmux.waitFor("page 30/30")
        try tmux.send("q")
        try tmux.waitFor("REDLINE-EXIT=0")
    }

    @Test(arguments: [("truecolor", "38:2:"), ("", "38;5;")])
    func thePageIsDrawnInTruecolorWhereTheTerminalHasIt(colorTerm: String, expected: String) throws {
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(TestPaths.sample)'", environment: ["COLORTERM": colorTerm])
        try tmux.waitFor("page 1/4")
        let coloured = try tmux.screenWithColours()
        #expect(coloured.contains(expected) || coloured.contains(expected.replacingOccurrences(of: ":", with: ";")))
        if colorTerm.isEmpty { #expect(!coloured.contains("38;2;") && !coloured.contains("38:2:")) }
        try tmux.send("q")
        try tmux.waitFor("REDLINE-EXIT=0")
    }

    @Test func helpOverlayAndRedrawOnResize() throws {
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(TestPaths.sample)'", columns: 100, rows: 35)
        try tmux.waitFor("page 1/4")
        try tmux.send("?")
        try tmux.waitFor("Redline keys")
        try tmux.send("Escape")
        try ProcessRunner.start("tmux", ["-L", tmux.socket, "resize-window", "-x", "140", "-y", "45"])
        let screen = try tmux.waitFor("page 1/4")
        #expect(screen.split(separator: "\n", omittingEmptySubsequences: false).count >= 44)
        try tmux.send("q")
        try tmux.waitFor("REDLINE-EXIT=0")
    }
}
