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

    /// A page that would keep poppler drawing for ever (forms drawing each other 2^29 times, a pattern stepped
    /// 0.0001 pt) is not drawn, read or searched, and says so: the editor shows its frame, turns pages, and q ends
    /// it; SIGTERM ends it too, with the terminal restored. `search` finishes, saying which page it left out.
    @Test(arguments: ["forms-drawing-each-other-2-to-the-29.pdf", "tiling-pattern-xstep-0.0001.pdf"])
    func aPageThatWouldDrawForEverIsSaidAndTheEditorStaysLive(_ name: String) throws {
        let folder = TemporaryFolder()
        let document = try copy(name, in: folder)
        let editor = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", columns: 120,
                                     environment: ["XDG_STATE_HOME": folder.file("state")])
        try editor.waitFor("Page 1 is not drawn: it would take more than 20 million drawing steps")
        #expect(try editor.screen().contains("│  not drawn"))
        try editor.send("PageDown")
        try editor.waitFor("page 2/2")
        // The editor's search says the page it could not read, as `redline search` does.
        try editor.send("/")
        try editor.type("Page")
        try editor.send("Enter")
        try editor.waitFor("found; page 1 not searched: it would take more than 20 million")
        try editor.send("Escape", "PageUp", "T")
        try editor.waitFor("Page 1 is not drawn or read: it would take more than 20 million")
        try editor.send("q")
        try editor.waitFor("REDLINE-EXIT=0")

        let second = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", columns: 120,
                                     environment: ["XDG_STATE_HOME": folder.file("state")])
        try second.waitFor("│  not drawn")
        let pid = try ProcessRunner.run("tmux", ["-L", second.socket, "display-message", "-p", "#{pane_pid}"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try ProcessRunner.run("pkill", ["-TERM", "-P", pid, "-f", "redline"])
        try second.waitFor("REDLINE-EXIT=")

        let searched = try ProcessRunner.run(TestPaths.redline, ["search", document, "Page"], timeLimit: 30)
        #expect(searched.status == 0)
        #expect(searched.stdout.hasPrefix("p2 "), "page 2's words are found: \(searched.stdout)")
        #expect(searched.stderr.contains("page 1 not searched: it would take more than 20 million drawing steps"), "\(searched.stderr)")
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

    /// Numbers out of range in a page's boxes or rotation: the editor draws the page poppler draws, and quits.
    @Test(arguments: ["mediabox-1e20.pdf", "mediabox-real-1e20.pdf", "mediabox-20-digits.pdf", "mediabox-negative-huge.pdf",
                      "mediabox-past-32-bits.pdf", "mediabox-tiny.pdf", "rotate-int64-max.pdf", "rotate-real-1e19.pdf", "annotation-rect-400-digit-real.pdf"])
    func theEditorOpensPagesOfAnySize(_ fixture: String) throws {
        let folder = TemporaryFolder()
        let document = try copy(fixture, in: folder)
        let editor = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", columns: 120,
                                     environment: ["XDG_STATE_HOME": folder.file("state")])
        try editor.waitFor("page 1/2")
        try editor.send("j", "z", "z", "z", "a", "A", "Escape", "q")
        try editor.waitFor("REDLINE-EXIT=0")
    }

    /// Another program replaces the file (a rename): the save is still made from the pages the user saw, and
    /// `:w!` refuses to destroy the new file. Rewritten in place: not saved, and the markup goes to a markup file.
    @Test func aFileChangedUnderTheEditorIsNeverSavedOverWithOtherPages() throws {
        let folder = TemporaryFolder()
        let document = folder.file("report.pdf")
        try FileManager.default.copyItem(atPath: TestPaths.sample, toPath: document)
        // 120 columns, an ordinary terminal: the refusal's hint must survive the message line's cut.
        let editor = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", columns: 120,
                                     environment: ["XDG_STATE_HOME": folder.file("state")])
        try editor.waitFor("page 1/4")
        try editor.placeText("Mine")
        // Replaced, as an editor or a download saves: a new file renamed over the path.
        try FileManager.default.copyItem(atPath: TestPaths.fixture("qpdf_boxes.pdf"), toPath: folder.file("new.pdf"))
        #expect(rename(folder.file("new.pdf"), document) == 0)
        try editor.send(":", "w", "!", "Enter")
        try editor.waitFor("Not saved: :w or :w PATH saves a copy; :w! would destroy the new file")
        try editor.send(":", "w", "Enter")
        try editor.waitFor("Saved \(folder.file("report-marked.pdf"))")
        let saved = folder.file("report-marked.pdf")
        #expect(try ProcessRunner.run("qpdf", ["--show-npages", saved]).stdout.hasPrefix("4"), "the sample's four pages, not the eight of the new file")
        #expect(try PopplerText.words(in: saved, page: 1).map(\.text).contains("Mine"))

        try editor.send(":", "q", "!", "Enter")
        try editor.waitFor("REDLINE-EXIT=0")

        // Rewritten in place (as `cp` over it does): the pages marked up are gone.
        let other = folder.file("minutes.pdf")
        try FileManager.default.copyItem(atPath: TestPaths.sample, toPath: other)
        let second = try TmuxSession(command: "'\(TestPaths.redline)' '\(other)'", columns: 220,
                                     environment: ["XDG_STATE_HOME": folder.file("state")])
        try second.waitFor("page 1/4")
        try second.placeText("More")
        let handle = try #require(FileHandle(forWritingAtPath: other))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("qpdf_boxes.pdf"))))
        try handle.close()
        try second.send(":", "w", "Enter")
        let screen = try second.waitFor("Not saved")
        #expect(screen.contains("the pages you marked up are gone"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("minutes-marked.pdf")))
        let markup = folder.file("minutes-markup.json")
        #expect(FileManager.default.fileExists(atPath: markup))
        let applied = try RedlineCommand().run(["apply", TestPaths.sample, "--markup", markup, "--output", folder.file("applied.pdf")])
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(try PopplerText.words(in: folder.file("applied.pdf"), page: 1).map(\.text).contains("More"))
        try second.send(":", "q", "!", "Enter")
        try second.waitFor("REDLINE-EXIT=0")
    }

    /// Two editors on one document: the second is not offered the first's journal, and cannot delete it.
    @Test func aSecondEditorLeavesTheFirstEditorsJournalAlone() throws {
        let folder = TemporaryFolder()
        let document = folder.file("shared.pdf")
        try FileManager.default.copyItem(atPath: TestPaths.sample, toPath: document)
        let environment = ["XDG_STATE_HOME": folder.file("state")]
        let first = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", environment: environment)
        try first.waitFor("page 1/4")
        try first.send("t")
        try first.type("FirstEditor")
        try first.send("Enter")
        try first.waitFor("[modified]")
        Thread.sleep(forTimeInterval: 1)
        let second = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", environment: environment)
        let opened = try second.waitFor("page 1/4")
        #expect(!opened.contains("Restore them?"), "a running editor's journal is not an earlier session's")
        try second.send(":", "q", "!", "Enter")
        try second.waitFor("REDLINE-EXIT=0")
        try first.killProgram()
        try first.waitFor("REDLINE-EXIT=")
        let third = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", environment: environment)
        try third.waitFor("Unsaved changes (1 markup item) from an earlier session. Restore them? (y/n)")
        try third.send("y", ":", "w", "q", "Enter")
        try third.waitFor("REDLINE-EXIT=0")
        #expect(try PopplerText.words(in: folder.file("shared-marked.pdf"), page: 1).map(\.text).contains("FirstEditor"))
    }
}
