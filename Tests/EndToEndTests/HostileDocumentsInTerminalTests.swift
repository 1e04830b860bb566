import Foundation
import TestSupport
import Testing

/// Hostile and damaged documents in the real editor, in tmux.
@Suite struct HostileDocumentsInTerminalTests {
    func copy(_ fixture: String, in folder: TemporaryFolder) throws -> String {
        let path = folder.file(fixture)
        try FileManager.default.copyItem(atPath: TestPaths.fixture("hostile/" + fixture), toPath: path)
        return path
    }

    func paneTitle(_ session: TmuxSession) throws -> String {
        try ProcessRunner.run("tmux", ["-L", session.socket, "display-message", "-p", "#{pane_title}"]).stdout
    }

    @Test func escapesInCommentsAndBookmarkNamesAreShownNotObeyed() throws {
        let folder = TemporaryFolder()
        let document = try copy("escapes-in-text-fields.pdf", in: folder)
        let editor = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", columns: 160,
                                     environment: ["XDG_DATA_HOME": folder.file("data")])
        try editor.waitFor("page 1/2")
        let title = try paneTitle(editor)
        try editor.send("a", "A")
        let list = try editor.waitFor(#"Mallory\x1B[8m"#)
        #expect(list.contains(#"Totals \x1B]2;owned\x07 wrong"#))
        try editor.send("Escape", "B")
        try editor.waitFor(#"Chapter \x1B]2;owned\x07 \x9B2J end"#)
        #expect(try paneTitle(editor) == title, "nothing from the document retitled the pane")
        #expect(!(try editor.screenWithColours()).contains("\u{1B}[8m"), "no concealed text was switched on")
        try editor.send("Escape", "q")
        try editor.waitFor("REDLINE-EXIT=0")
    }

    @Test func aDamagedFileOpensSayingItWasRepairedAndSavesWhole() throws {
        let folder = TemporaryFolder()
        let document = try copy("damaged-xref-stream.pdf", in: folder)
        let editor = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", columns: 160,
                                     environment: ["XDG_STATE_HOME": folder.file("state")])
        let screen = try editor.waitFor("page 1/2")
        #expect(screen.contains("repaired"), "the status line says so")
        #expect(screen.contains("Repaired on open: cross-reference rebuilt"))
        try editor.send("t")
        try editor.type("Fixed")
        try editor.send("Enter", ":", "w", "q", "Enter")
        try editor.waitFor("REDLINE-EXIT=0")
        let saved = folder.file("damaged-xref-stream-marked.pdf")
        #expect(try PopplerText.words(in: saved, page: 1).map(\.text).contains("Fixed"))
        #expect(try PopplerText.words(in: saved, page: 2).map(\.text).contains("appendix"))
    }
}
