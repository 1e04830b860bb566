import Foundation
import TestSupport
import Testing

/// Pasting into the real editor: the terminal brackets the paste, and the editor takes it as text.
@Suite(.serialized) struct PasteInTerminalTests {
    @Test func aPastedCommandIsNeverRunAndPastedTextIsTyped() throws {
        let folder = TemporaryFolder()
        let document = folder.file("contract.pdf")
        try FileManager.default.copyItem(atPath: TestPaths.sample, toPath: document)
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)' --page 2")
        tmux.keep(folder)
        try tmux.waitFor("page 2/4")
        // On the page: a pasted ":w!" and line break would overwrite the opened file if read as keys.
        try tmux.paste(":w!\nq\n")
        try tmux.waitFor("Pasted text was not used")
        // A paste that carries the end marker itself (tmux passes it through): what follows is still pasted text.
        let injected = folder.file("injected.pdf")
        try tmux.paste("hi\u{1B}[201~:w \(injected)\n")
        try tmux.waitUntilIdle()
        #expect(!FileManager.default.fileExists(atPath: injected), "text after a pasted end marker ran as keys")
        #expect(try tmux.screen().contains("Pasted text was not used"))
        // Into a text markup: lines joined, the escape sequence only text.
        try tmux.send("t")
        try tmux.paste("Signed\n:w!\n\u{1B}[2J\n")
        try tmux.waitFor("Text: Signed :w!  [2J ▏")
        try tmux.send("Enter")
        try tmux.waitFor("[modified]")
        try tmux.send(":", "w", "Enter")
        try tmux.waitFor("Saved \(folder.file("contract-marked.pdf"))")
        try tmux.send("q")
        try tmux.waitFor("REDLINE-EXIT=0")

        #expect(FileManager.default.contents(atPath: document) == FileManager.default.contents(atPath: TestPaths.sample),
                "the opened file is untouched")
        let text = try PopplerText.text(in: folder.file("contract-marked.pdf"), page: 2)
        #expect(text.contains("Signed :w! [2J") || text.contains("Signed :w!  [2J"), "\(text)")
    }
}
