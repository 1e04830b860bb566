import Foundation
import TestSupport
import Testing

/// `:wa` in the real editor: text and ink placed with the keyboard are saved as FreeText and Ink annotations that
/// MuPDF reads where they were placed, and a reopened file shows them (poppler draws their appearances).
@Suite(.serialized) struct AnnotationSavingInTerminalTests {
    @Test func textAndInkSavedWithColonWAAreAnnotationsMuPDFReads() throws {
        let folder = TemporaryFolder()
        let document = folder.file("review.pdf")
        try FileManager.default.copyItem(atPath: TestPaths.sample, toPath: document)
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)' --page 4 --author Alice")
        try tmux.waitFor("page 4/4")
        try tmux.send("t")
        try tmux.type("Approved")
        try tmux.send("Enter")
        try tmux.waitFor("selected \"Approved\" 14pt red")
        try tmux.send("Escape")
        // The pen from the cursor, (72, 72): 50 pt right, 20 pt down.
        try tmux.send("i", "Space")
        for _ in 0..<5 { try tmux.send("S-Right") }
        for _ in 0..<2 { try tmux.send("J") }
        try tmux.send("Enter")
        try tmux.send("Escape")
        try tmux.waitFor("[modified]")
        let saved = folder.file("review-annotated.pdf")
        try tmux.send(":")
        try tmux.type("wa \(saved)")
        try tmux.send("Enter")
        try tmux.waitFor("Saved \(saved) · the markup as annotations")
        try tmux.send(":", "q", "Enter")
        try tmux.waitFor("REDLINE-EXIT=0")

        let annotations = try MuPDFProbe.annotations(in: saved)[3].annotations
        try #require(annotations.map(\.type) == ["FreeText", "Ink"], "\(annotations.map(\.type))")
        let text = annotations[0], ink = annotations[1]
        #expect(text.content == "Approved" && text.title == "Alice")
        #expect(abs(text.rect[0] - 71) < 0.01 && abs(text.rect[1] - 71) < 0.01, "the text's box from (72, 72): \(text.rect)")
        #expect(ink.title == "Alice")
        let points = ink.ink.flatMap { $0 }
        #expect(points.first.map { abs($0[0] - 72) < 0.01 && abs($0[1] - 72) < 0.01 } == true, "from the cursor: \(points)")
        #expect(points.last.map { abs($0[0] - 122) < 0.01 && abs($0[1] - 92) < 0.01 } == true, "to 50 right, 20 down: \(points)")
        #expect(try QPDFCheck.errors(in: saved) == nil)
        // Not burned in: the page's own text is all poppler finds there, the annotation's text is not page content
        // of the original; but poppler draws the appearance.
        let render = try PopplerRender.page(4, of: saved)
        var red = 0
        for y in 70..<92 { for x in 72..<140 { let p = render.rgb(x, y); if p.red > 150 && p.green < 90 && p.blue < 90 { red += 1 } } }
        #expect(red > 40, "poppler draws the FreeText's appearance in red: \(red) pixels")
        #expect(FileManager.default.contents(atPath: document) == FileManager.default.contents(atPath: TestPaths.sample))
    }
}
