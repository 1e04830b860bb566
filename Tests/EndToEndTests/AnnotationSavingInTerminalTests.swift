import Foundation
import TestSupport
import Testing

/// `:wa` in the real editor: text and ink placed with the keyboard are saved as FreeText and Ink annotations that
/// MuPDF reads where they were placed, and a reopened file shows them (poppler draws their appearances).
@Suite(.serialized) struct AnnotationSavingInTerminalTests {
    /// Saves with a command line, waits for the message that says it did, and quits.
    /// Alice's text placed on the sample's first page and saved with `:wa` into `annotated.pdf` in `folder`.
    static func annotatedWithColonWA(_ text: String, in folder: TemporaryFolder) throws -> String {
        let document = folder.file("review.pdf")
        try FileManager.default.copyItem(atPath: TestPaths.sample, toPath: document)
        let first = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)' --author Alice")
        try first.waitFor("page 1/4")
        try first.send("t")
        try first.type(text)
        try first.send("Enter", "Escape")
        let annotated = folder.file("annotated.pdf")
        try save(first, "wa \(annotated)", saying: "Saved \(annotated)")
        return annotated
    }

    static func save(_ tmux: TmuxSession, _ command: String, saying saved: String) throws {
        try tmux.command(command)
        try tmux.waitFor(saved)
        try tmux.send(":", "q", "Enter")
        try tmux.waitFor("REDLINE-EXIT=0")
    }

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
        try Self.save(tmux, "wa \(saved)", saying: "Saved \(saved) · the markup as annotations")

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

    /// Reopened, the FreeText `:wa` wrote is an annotation of the file: Tab selects it, the arrows move it, `:w`
    /// writes it moved, its appearance kept.
    @Test func aFreeTextSavedWithColonWAMovesWhenReopened() throws {
        let folder = TemporaryFolder()
        let annotated = try Self.annotatedWithColonWA("Approved", in: folder)

        let second = try TmuxSession(command: "'\(TestPaths.redline)' '\(annotated)' --author Bob")
        try second.waitFor("page 1/4")
        try second.send("Tab")
        try second.waitFor("Text box · by Alice · \"Approved\"")
        for _ in 0..<3 { try second.send("S-Right") }
        try second.send("J")
        try second.waitFor("[modified]")
        let moved = folder.file("moved.pdf")
        try Self.save(second, "w \(moved)", saying: "Saved \(moved)")

        let before = try #require(try MuPDFProbe.annotations(in: annotated)[0].annotations.first)
        let after = try #require(try MuPDFProbe.annotations(in: moved)[0].annotations.first)
        #expect(after.type == "FreeText" && after.content == "Approved" && after.title == "Alice")
        #expect(abs(after.rect[0] - before.rect[0] - 30) < 0.01 && abs(after.rect[1] - before.rect[1] - 10) < 0.01,
                "30 pt right, 10 down: \(before.rect) → \(after.rect)")
        #expect(after.appearanceDigest == before.appearanceDigest && after.appearanceDigest != nil)
        #expect(try QPDFCheck.errors(in: moved) == nil)
        // Poppler draws it at the new place: red pixels 30 pt right of where they were.
        let render = try PopplerRender.page(1, of: moved)
        func red(_ x0: Int, _ y0: Int, width: Int = 60) -> Int {
            var count = 0
            for y in y0..<(y0 + 14) { for x in x0..<(x0 + width) { let p = render.rgb(x, y); if p.red > 150 && p.green < 90 && p.blue < 90 { count += 1 } } }
            return count
        }
        #expect(red(Int(after.rect[0]), Int(after.rect[1])) > 40, "drawn at the new place")
        #expect(red(Int(before.rect[0]), Int(before.rect[1]), width: 28) == 0, "and no longer at the old one")
    }

    /// An annotation another tool wrote (pdf.js's test file, made in Foxit), moved in the real editor and saved.
    @Test func anAnnotationAnotherToolWroteMovesAndIsSaved() throws {
        let folder = TemporaryFolder()
        let document = folder.copy(fixture: "pdfjs_issue14438.pdf")
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'")
        try tmux.waitFor("page 1/1")
        try tmux.send("Tab")
        try tmux.waitFor("Highlight · by const")
        for _ in 0..<2 { try tmux.send("J") }
        try tmux.waitFor("[modified]")
        let moved = folder.file("moved.pdf")
        try Self.save(tmux, "w \(moved)", saying: "Saved \(moved)")
        let before = try MuPDFProbe.annotations(in: document)[0].annotations
        let after = try MuPDFProbe.annotations(in: moved)[0].annotations
        try #require(before.count == after.count)
        for (old, new) in zip(before, after) {
            if old.type == "Highlight", old.rect[1] < 80 {
                #expect(abs(new.rect[1] - old.rect[1] - 20) < 0.01 && abs(new.rect[0] - old.rect[0]) < 0.01, "\(old.rect) → \(new.rect)")
                #expect(zip(old.points, new.points).allSatisfy { abs($1[1] - $0[1] - 20) < 0.01 }, "its quads go along")
                #expect(new.appearanceDigest == old.appearanceDigest)
            } else {
                #expect(new.rect == old.rect && new.points == old.points, "\(old.type) stays")
            }
        }
    }
    /// The mouse on an annotation another tool wrote: a press on its outline's middle selects it, a drag moves it,
    /// the release ends the move, and `:w` writes it where it was dragged, its quads along, its look kept.
    @Test func anAnnotationAnotherToolWroteIsDraggedWithTheMouseAndSaved() throws {
        let folder = TemporaryFolder()
        let document = folder.copy(fixture: "pdfjs_issue14438.pdf")
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' --graphics symbols '\(document)'",
                                   environment: ["TERM": "tmux-256color", "COLORTERM": "truecolor"])
        tmux.keep(folder)
        try tmux.waitFor("page 1/1")
        try tmux.send("Tab")
        try tmux.waitFor("Highlight · by const")
        try tmux.waitUntilIdle()
        // The selection's outline is orange: its cells on screen say where the annotation is.
        let screen = ScreenColours(capture: try tmux.screenWithColours(), columns: 120)
        func orange(_ colour: ScreenColours.RGB) -> Bool { colour.red > 200 && colour.green > 90 && colour.green < 190 && colour.blue < 70 }
        var cells: [(column: Int, row: Int)] = []
        for row in 0..<38 {
            for column in 0..<120 where orange(screen[column, row].foreground) || orange(screen[column, row].background) {
                cells.append((column, row))
            }
        }
        try #require(!cells.isEmpty, "the outline shows")
        let column = (cells.map(\.column).min()! + cells.map(\.column).max()!) / 2 + 1
        let row = (cells.map(\.row).min()! + cells.map(\.row).max()!) / 2 + 1
        // SGR reports, 1-based: press, two drags to the right, release.
        try tmux.type("\u{1B}[<0;\(column);\(row)M")
        try tmux.type("\u{1B}[<32;\(column + 2);\(row)M")
        try tmux.type("\u{1B}[<32;\(column + 4);\(row)M")
        try tmux.type("\u{1B}[<0;\(column + 4);\(row)m")
        let moved = try tmux.waitFor("Highlight · by const · moved ")
        #expect(moved.contains("pt right") && !moved.contains("down") && !moved.contains(" up"), "\(moved.split(separator: "\n").last ?? "")")
        let saved = folder.file("dragged.pdf")
        try Self.save(tmux, "w \(saved)", saying: "Saved \(saved)")
        let before = try MuPDFProbe.annotations(in: document)[0].annotations
        let after = try MuPDFProbe.annotations(in: saved)[0].annotations
        try #require(before.count == after.count)
        var movedCount = 0
        for (old, new) in zip(before, after) {
            if old.type == "Highlight", new.rect != old.rect {
                movedCount += 1
                let dx = new.rect[0] - old.rect[0]
                #expect(dx > 5 && abs(new.rect[1] - old.rect[1]) < 0.01, "\(old.rect) → \(new.rect)")
                #expect(zip(old.points, new.points).allSatisfy { abs($1[0] - $0[0] - dx) < 0.01 && abs($1[1] - $0[1]) < 0.01 }, "its quads go along")
                #expect(new.appearanceDigest == old.appearanceDigest)
            } else {
                #expect(new.rect == old.rect && new.points == old.points, "\(old.type) stays")
            }
        }
        #expect(movedCount == 1)
    }
    /// The issue's whole path in the real editor: text placed, `:wa`, reopened by another reviewer, the FreeText moved,
    /// its words edited (Enter), made bigger (`+`) and recoloured (`c`), `:w`, and MuPDF reads what was done.
    @Test func aFreeTextSavedWithColonWAIsMovedRewordedAndRestyledWhenReopened() throws {
        let folder = TemporaryFolder()
        let annotated = try Self.annotatedWithColonWA("Aproved", in: folder)

        let second = try TmuxSession(command: "'\(TestPaths.redline)' '\(annotated)' --author Bob")
        try second.waitFor("page 1/4")
        try second.send("Tab")
        try second.waitFor("Text box · by Alice · \"Aproved\"")
        try second.send("J")
        try second.send("Enter")
        try second.waitFor("Aproved")
        try second.send("C-u")
        try second.type("Approved, with thanks")
        try second.send("Enter")
        try second.waitFor("Text changed")
        try second.send("+", "c")
        try second.waitFor("[modified]")
        let changed = folder.file("changed.pdf")
        try Self.save(second, "w \(changed)", saying: "Saved \(changed)")

        let before = try #require(try MuPDFProbe.annotations(in: annotated)[0].annotations.first)
        let after = try #require(try MuPDFProbe.annotations(in: changed)[0].annotations.first)
        #expect(after.type == "FreeText" && after.content == "Approved, with thanks" && after.title == "Alice")
        #expect(abs(after.rect[1] - before.rect[1] - 10) < 0.5, "10 pt down: \(before.rect) → \(after.rect)")
        #expect(after.defaultAppearance?.contains("16 Tf") == true, "14 pt made 16: \(after.defaultAppearance ?? "")")
        #expect(after.defaultAppearance?.contains("1 0 0 rg") == false, "no longer red: \(after.defaultAppearance ?? "")")
        #expect(after.appearanceDigest != before.appearanceDigest && after.hasAppearance)
        #expect(try QPDFCheck.errors(in: changed) == nil)
        let words = try PopplerText.text(in: changed, page: 1)
        #expect(words.contains("Approved, with thanks") && !words.contains("Aproved"), "poppler draws the new words, not the old")
    }
}
