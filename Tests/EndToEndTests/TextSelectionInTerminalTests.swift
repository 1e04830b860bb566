import Foundation
import TestSupport
import Testing

/// Selecting words and highlighting them on the real binary, then the saved file drawn by poppler: the
/// highlight lies over exactly the words pdftotext finds there, and nowhere else.
@Suite(.serialized) struct TextSelectionInTerminalTests {
    /// Of the paper's pixels inside a word's box (white before; edges left out) in renders at 72 dpi (a pixel
    /// a point), the share now tinted yellow: red kept, blue down by a third or more.
    func yellowShare(_ before: RenderedPage, _ after: RenderedPage, _ word: ExtractedWord) -> Double {
        var paper = 0.0, yellow = 0.0
        for y in Int(word.yMin.rounded(.up)) + 1..<Int(word.yMax) - 1 {
            for x in Int(word.xMin.rounded(.up)) + 1..<Int(word.xMax) - 1 {
                let was = before.rgb(x, y), now = after.rgb(x, y)
                guard min(was.red, was.green, was.blue) >= 250 else { continue }
                paper += 1
                if now.red >= 235, now.blue <= 185 { yellow += 1 }
            }
        }
        return paper == 0 ? 0 : yellow / paper
    }

    @Test func wordsSelectedAndHighlightedAreHighlightedInTheSavedFile() throws {
        let folder = TemporaryFolder()
        let document = folder.file("sample.pdf")
        try FileManager.default.copyItem(atPath: TestPaths.sample, toPath: document)
        let words = try PopplerText.words(in: document, page: 1)
        #expect(words.prefix(3).map(\.text) == ["Redline", "sample", "document"])
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", columns: 120, rows: 40)
        tmux.keep(folder)
        try tmux.waitFor("page 1/4")
        // The cursor starts at the top left of the text: v selects the title's first word, w w the rest.
        try tmux.send("v", "w", "w")
        try tmux.waitFor("Selected 3 words")
        try tmux.send("H")
        try tmux.waitFor("Highlighted 3 words")
        try tmux.send(":")
        try tmux.type("w")
        try tmux.send("Enter")
        let saved = folder.file("sample-marked.pdf")
        try tmux.waitFor("Saved")
        let before = try PopplerRender.page(1, of: document)
        let after = try PopplerRender.page(1, of: saved)
        for word in words.prefix(3) {
            #expect(yellowShare(before, after, word) > 0.97, "\(word.text) is highlighted all over")
        }
        for word in words.dropFirst(3).prefix(5) {
            #expect(yellowShare(before, after, word) == 0, "\(word.text) was not selected and is unchanged")
        }
        // Just outside the highlight, beside the last word: paper as it was.
        let last = words[2]
        for x in Int(last.xMax) + 3..<Int(last.xMax) + 12 {
            #expect(after.difference(from: before, x, Int((last.yMin + last.yMax) / 2)) == 0)
        }
        #expect(try PopplerText.words(in: saved, page: 1).map(\.text) == words.map(\.text), "the text is still the text")
    }
}
