import Foundation
import TestSupport
import Testing

/// The annotation list in the real binary under tmux: reply, review, save, then read the file back.
@Suite(.serialized) struct AnnotationsInTerminalTests {
    /// A copy of a reviewed document opened by Tess with the annotation list open.
    func reviewing() throws -> (folder: TemporaryFolder, document: String, tmux: TmuxSession) {
        let folder = TemporaryFolder()
        let document = folder.file("review.pdf")
        try FileManager.default.copyItem(atPath: TestPaths.fixture("pdfcpu_text_annotations.pdf"), toPath: document)
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)' --author Tess",
                                   environment: ["XDG_CONFIG_HOME": folder.file("config")])
        try tmux.waitFor("page 1/1")
        try tmux.send("a")
        try tmux.waitFor("Annotations · page 1")
        try tmux.waitFor("[None — Comment]")
        return (folder, document, tmux)
    }

    /// A reply typed in the session, then a summary of the filtered list: the file holds the session's reply,
    /// not only what the document had, and the list's filter.
    @Test func theSummaryKeyWritesTheFilteredThreadsWithTheSessionsReplies() throws {
        let (folder, _, tmux) = try reviewing()
        try tmux.send("r")
        try tmux.type("Needs a <source> & a date")
        try tmux.send("Enter")
        try tmux.waitFor("↳ Reply · Tess")
        try tmux.send("f")
        try tmux.waitFor("Filter: ▏")
        try tmux.type("state:none kind:highlight")
        try tmux.send("Enter")
        try tmux.waitFor("Filtered: 1 thread listed")
        try tmux.send("S")
        try tmux.waitFor("Summary to: ")
        try tmux.send("C-u")
        let summary = folder.file("summary.md")
        try tmux.type(summary)
        try tmux.send("Enter")
        try tmux.waitFor("written to")
        let text = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(text.hasPrefix("# Comments on review.pdf\n\n1 comment, 1 reply (filter: kind:highlight state:none)\n"))
        #expect(text.contains("### Highlight · Steve van Loben Sels · 2023-08-24 22:57 · None by Comment"))
        #expect(text.contains("- **Tess** · "))
        #expect(text.contains(": Needs a &lt;source&gt; &amp; a date\n"))
    }

    @Test func replyAndAcceptInThePanelThenSave() throws {
        let (folder, document, tmux) = try reviewing()
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

    /// Reply, then review at once: the state and the mark go to the comment that was answered, which stays
    /// the visibly selected row.
    @Test func aReviewRightAfterAReplyIsSavedOnTheComment() throws {
        let (folder, _, tmux) = try reviewing()
        try tmux.send("r")
        try tmux.type("Checked the figures")
        try tmux.send("Enter")
        try tmux.waitFor("↳ Reply · Tess")
        try tmux.send("s", "a")
        try tmux.waitFor("Accepted by Tess")
        try tmux.send("m")
        try tmux.waitFor("Marked by Tess")
        let screen = ScreenColours(capture: try tmux.screenWithColours(), columns: 120)
        // The panel's rows, right of its title's column: which of them has the yellow of a selection.
        let title = String(screen.rows[0].map(\.character))
        let panelColumn = try #require(title.range(of: "Annotations ·").map { title.distance(from: title.startIndex, to: $0.lowerBound) })
        let selected = screen.rows.map { $0.dropFirst(panelColumn) }
            .filter { row in row.contains { $0.background.red > 200 && $0.background.green > 200 && $0.background.blue < 80 } }
            .map { String($0.map(\.character)) }
        #expect(!selected.isEmpty && selected.allSatisfy { $0.contains("Highlight") || $0.contains("Accepted — Tess") },
                "selected rows: \(selected)")
        try tmux.send("Escape", ":", "w", "q", "Enter")
        try tmux.waitFor("REDLINE-EXIT=0")

        let probed = try AnnotationProbe.read(folder.file("review-marked.pdf"))
        let highlight = try #require(probed.first { $0.subtype == "/Highlight" })
        let reply = try #require(probed.first { $0.Contents == "Checked the figures" })
        #expect(reply.IRTObject == highlight.object)
        let accepted = try #require(probed.first { $0.State == "Accepted" && $0.T == "Tess" })
        let marked = try #require(probed.first { $0.State == "Marked" && $0.T == "Tess" })
        #expect(accepted.IRTObject == highlight.object, "Accepted answers \(accepted.IRTObject ?? "none"), not the highlight")
        #expect(marked.IRTObject == highlight.object, "Marked answers \(marked.IRTObject ?? "none"), not the highlight")
    }
}
