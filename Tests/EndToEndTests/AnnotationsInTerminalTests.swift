import Foundation
import TestSupport
import Testing

/// The annotation list in the real binary under tmux: reply, review, save, then read the file back.
@Suite(.serialized) struct AnnotationsInTerminalTests {
    @Test func replyAndAcceptInThePanelThenSave() throws {
        let folder = TemporaryFolder()
        let document = folder.file("review.pdf")
        try FileManager.default.copyItem(atPath: TestPaths.fixture("pdfcpu_text_annotations.pdf"), toPath: document)
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)' --author Tess",
                                   environment: ["XDG_CONFIG_HOME": folder.file("config")])
        try tmux.waitFor("page 1/1")
        try tmux.send("a")
        try tmux.waitFor("Annotations · page 1")
        try tmux.waitFor("[None — Comment]")
        try tmux.waitFor("◆ Accepted — Comment")
        try tmux.send("r")
        try tmux.type("Looks right")
        try tmux.waitFor("Reply: Looks right")
        try tmux.send("Enter")
        try tmux.waitFor("↳ Reply · Tess")
        try tmux.send("g", "s")
        try tmux.waitFor("Review state: a Accepted")
        try tmux.send("a")
        try tmux.waitFor("[Accepted — Tess]")
        try tmux.send("Escape")
        try tmux.waitFor("[modified]")
        try tmux.send(":", "w", "q", "Enter")
        try tmux.waitFor("REDLINE-EXIT=0")

        let saved = folder.file("review-marked.pdf")
        let probed = try AnnotationProbe.read(saved)
        let highlight = try #require(probed.first { $0.subtype == "/Highlight" })
        let reply = try #require(probed.first { $0.Contents == "Looks right" })
        #expect(reply.T == "Tess" && reply.IRTObject == highlight.object && reply.RT == "/R")
        let state = try #require(probed.first { $0.State == "Accepted" && $0.T == "Tess" })
        #expect(state.StateModel == "Review" && state.IRTObject == highlight.object)
        #expect(try QPDFCheck.errors(in: saved) == nil)
        // The original is untouched.
        #expect(FileManager.default.contents(atPath: document)
            == FileManager.default.contents(atPath: TestPaths.fixture("pdfcpu_text_annotations.pdf")))
    }
}
