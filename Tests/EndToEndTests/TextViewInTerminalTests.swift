import Foundation
import TestSupport
import Testing

/// The text view on the real binary: the sample's text read in cells, a search inside it, and a note typed just
/// after a word there, found just after that word in the saved file by pdftotext.
@Suite(.serialized) struct TextViewInTerminalTests {
    @Test func aNoteTypedAfterAWordInTheTextViewIsSavedAfterIt() throws {
        let folder = try TemporaryFolder()
        let document = folder.file("guide.pdf")
        try FileManager.default.copyItem(atPath: TestPaths.sample, toPath: document)
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", columns: 120, rows: 40)
        tmux.keep(folder)
        try tmux.waitFor("page 1/")
        try tmux.send("T")
        try tmux.waitFor("text view")
        let screen = try tmux.screen()
        #expect(screen.contains("This document comes with Redline so that"), "body text reads as text:\n\(screen)")

        try tmux.send("/")
        try tmux.type("nudge")
        try tmux.send("Enter")
        try tmux.waitFor("hit 1 of 1")
        let coloured = ScreenColours(capture: try tmux.screenWithColours(), columns: 120)
        let rowIndex = try #require(coloured.rows.firstIndex { String($0.map(\.character)).contains("to nudge it") })
        let row = coloured.rows[rowIndex]
        // Only the hit's own row: the line above, which its box's top reaches into, keeps its paper.
        #expect(!coloured.rows[rowIndex - 1].contains { $0.background.blue > 150 && $0.background.red < 100 })
        let text = String(row.map(\.character))
        let start = text.distance(from: text.startIndex, to: text.range(of: "nudge")!.lowerBound)
        // The hit n stands on is white on blue; the words around it stay black on white paper.
        #expect(row[start + 1 ..< start + 5].allSatisfy { $0.background.blue > 150 && $0.background.red < 100 },
                "\(row[start ..< start + 5].map { "\($0.character) \($0.background)" })")
        #expect(row[start + 7].background.red > 200 && row[start + 7].background.green > 200 && row[start + 7].foreground.red < 60)
        #expect(row[start + 5].background.red > 200, "the blank after the hit is not tinted")

        // n put the cursor on the hit's first letter: five to the right is the blank after the word.
        try tmux.send("Escape", "Right", "Right", "Right", "Right", "Right", "t")
        try tmux.type("OK")
        try tmux.send("Enter")
        try tmux.waitFor("selected \"OK\"")
        try tmux.send(":", "w", "Enter")
        try tmux.waitFor("Saved \(folder.file("guide-marked.pdf"))")
        try tmux.send("q")
        try tmux.waitFor("REDLINE-EXIT=0")

        let words = try PopplerText.words(in: folder.file("guide-marked.pdf"), page: 1)
        let nudge = try #require(words.first { $0.text == "nudge" })
        let note = try #require(words.first { $0.text == "OK" })
        #expect(note.xMin >= nudge.xMax - 0.5 && note.xMin - nudge.xMax < 8, "OK at \(note.xMin), nudge ends at \(nudge.xMax)")
        #expect(abs(note.yMin - nudge.yMin) < 2.5, "on the line, not half a line below it: \(note) \(nudge)")
    }

    @Test func aScanWithoutTextSaysSoAndShowsItsPicture() throws {
        let folder = try TemporaryFolder()
        let document = folder.file("scan.pdf")
        try FileManager.default.copyItem(atPath: TestPaths.fixture("pdfcpu_blank-scan.pdf"), toPath: document)
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", columns: 120, rows: 40)
        tmux.keep(folder)
        try tmux.waitFor("page 1/")
        try tmux.send("T")
        try tmux.waitFor("has no text to show")
        #expect(try tmux.screen().contains("no text: picture"))
    }

    @Test func theProbesReportCanBeSavedToAFile() throws {
        let folder = try TemporaryFolder()
        let report = folder.file("probe.txt")
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' --probe > '\(report)'", columns: 120, rows: 20)
        try tmux.waitFor("REDLINE-EXIT=0")
        let text = try String(contentsOfFile: report, encoding: .utf8)
        #expect(text.contains("terminal        tmux ") && text.contains("answered        in "), "\(text)")
    }
}
