import Foundation
import TestSupport
import Testing

/// The shape tools in the real editor under tmux: drawn with keys and with SGR mouse reports, saved flattened
/// (`:w`) and as annotations (`:wa`), read back by MuPDF and drawn by poppler where the editor drew them.
@Suite(.serialized) struct ShapesInTerminalTests {
    @Test func shapesDrawnWithKeysAreSavedBothWays() throws {
        let (folder, document) = try copyOfSample(named: "shapes.pdf")
        // Wide enough for the save's message after the temporary folder's long path.
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)' --page 4", columns: 160)
        try tmux.waitFor("page 4/4")
        // A rectangle 80 × 50 pt from the cursor, 4 pt wide.
        try tmux.send("i", "r", "+", "+")
        try tmux.waitFor("shape rectangle 4pt red, pen up")
        try tmux.send("Space")
        for _ in 0..<8 { try tmux.send("S-Right") }
        for _ in 0..<5 { try tmux.send("S-Down") }
        try tmux.send("Space")
        // A filled triangle below it, its corners placed with Space, closed with Enter.
        try tmux.send("f", "P", "J", "J", "Space")
        try tmux.waitFor("shape polygon filled 4pt red, 1 corner")
        try tmux.send("L", "L", "L", "Space", "J", "J", "J", "Space", "Enter")
        // An arrow to the right of the rectangle.
        try tmux.send("a", "K", "K", "K", "K", "K", "K", "K", "Space", "L", "L", "L", "L", "L", "L", "Space", "Escape")
        try tmux.waitFor("[modified]")
        // A comment on the rectangle: Tab selects it, Enter opens the comment.
        try tmux.send("Tab")
        try tmux.waitFor("selected rectangle 4pt red")
        try tmux.send("Enter")
        try tmux.waitFor("Comment:")
        try tmux.type("Rewrite this paragraph")
        try tmux.send("Enter")
        try tmux.waitFor("Comment kept")
        try tmux.command("wa \(folder.file("annotated.pdf"))")
        try tmux.waitFor("Saved")
        try tmux.command("w")
        try tmux.waitFor("1 comment is not in a flattened copy: :wa keeps it")
        try tmux.command("q")
        try tmux.waitFor("REDLINE-EXIT=0")

        let annotations = try MuPDFProbe.annotations(in: folder.file("annotated.pdf"))[3].annotations
        try #require(annotations.map(\.type) == ["Square", "Polygon", "Line"], "\(annotations.map(\.type))")
        #expect(annotations[0].content == "Rewrite this paragraph")
        // /Rect is the box and 1 pt around it.
        let box = annotations[0].rect
        #expect(abs(box[2] - box[0] - 82) < 0.01 && abs(box[3] - box[1] - 52) < 0.01, "\(box)")
        let (left, top) = (box[0] + 1, box[1] + 1)
        func near(_ a: [[Double]], _ b: [[Double]]) -> Bool { a.count == b.count && zip(a, b).allSatisfy { abs($0[0] - $1[0]) < 0.01 && abs($0[1] - $1[1]) < 0.01 } }
        // The pen ended at the rectangle's far corner (left + 80, top + 50).
        #expect(near(annotations[1].points, [[left + 80, top + 70], [left + 110, top + 70], [left + 110, top + 100]]), "\(annotations[1].points)")
        #expect(near(annotations[2].points, [[left + 110, top + 30], [left + 170, top + 30]]), "\(annotations[2].points)")

        // Flattened, the same places show the shapes; annotations, poppler draws them there too.
        for saved in ["shapes-marked.pdf", "annotated.pdf"] {
            let page = try PopplerRender.page(4, of: folder.file(saved))
            func red(_ x: Double, _ y: Double) -> Bool { let p = page.rgb(Int(x), Int(y)); return p.red > 150 && p.green < 90 && p.blue < 90 }
            func paper(_ x: Double, _ y: Double) -> Bool { let p = page.rgb(Int(x), Int(y)); return p.red > 225 && p.green > 225 && p.blue > 225 }
            #expect(red(left + 40, top + 2) && red(left + 2, top + 25) && paper(left + 40, top + 25), "\(saved): the rectangle's edges, its inside")
            #expect(red(left + 100, top + 80), "\(saved): the filled triangle")
            #expect(red(left + 140, top + 30), "\(saved): the arrow")
        }
    }

    @Test func aDragDrawsAnEllipseAndClicksPlaceAPolylinesCorners() throws {
        let (folder, document) = try copyOfSample(named: "mouse.pdf")
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)' --page 4", columns: 120, rows: 40)
        try tmux.waitFor("page 4/4")
        try tmux.send("i", "o")
        try tmux.waitFor("shape ellipse")
        // SGR mouse reports (1-based cells): press, two drags with the button held, release.
        for report in ["\u{1B}[<0;50;10M", "\u{1B}[<32;60;12M", "\u{1B}[<32;70;15M", "\u{1B}[<0;70;15m"] {
            try tmux.type(report)
            try tmux.waitUntilIdle()
        }
        try tmux.waitFor("[modified]")
        // A polyline: a click at each corner, Enter ends it.
        try tmux.send("Y")
        try tmux.waitFor("shape polyline")
        for (column, row) in [(50, 20), (60, 25), (70, 20)] {
            try tmux.type("\u{1B}[<0;\(column);\(row)M\u{1B}[<0;\(column);\(row)m")
            try tmux.waitUntilIdle()
        }
        try tmux.send("Enter", "Escape")
        try tmux.command("wa")
        try tmux.waitFor("Saved")
        try tmux.command("q")
        try tmux.waitFor("REDLINE-EXIT=0")

        let annotations = try MuPDFProbe.annotations(in: folder.file("mouse-marked.pdf"))[3].annotations
        try #require(annotations.map(\.type) == ["Circle", "PolyLine"], "\(annotations.map(\.type))")
        let ellipse = annotations[0].rect, corners = annotations[1].points
        // The ellipse spans 20 columns and 5 rows; the polyline's corners are 10 columns apart, the middle one lower,
        // and the first under the ellipse's left edge, as the cells were.
        let column = (corners[1][0] - corners[0][0]) / 10
        #expect(abs(corners[2][0] - corners[1][0] - 10 * column) < 0.01 && abs(corners[0][1] - corners[2][1]) < 0.01 && corners[1][1] > corners[0][1])
        #expect(abs((ellipse[2] - ellipse[0] - 2) - 20 * column) < 0.01, "\(ellipse) for columns of \(column) pt")
        #expect(abs(ellipse[0] + 1 - corners[0][0]) < 0.01)
        let page = try PopplerRender.page(4, of: folder.file("mouse-marked.pdf"))
        let middle = (Int((ellipse[0] + ellipse[2]) / 2), Int(ellipse[1] + 2))
        let p = page.rgb(middle.0, middle.1)
        #expect(p.red > 150 && p.green < 90, "the ellipse's top at \(middle): \(p)")
    }

    /// A sticky note: `n` in ink mode, Space places it at the pen and its words are typed at once; `:wa` saves a Text
    /// annotation with a Note icon, its words and a popup; `:w` prints the icon and says the words are not kept.
    @Test func aStickyNoteIsPlacedWithItsWordsAndSavedBothWays() throws {
        let (folder, document) = try copyOfSample(named: "notes.pdf")
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)' --page 4", columns: 160)
        try tmux.waitFor("page 4/4")
        try tmux.send("i", "n")
        try tmux.waitFor("Note: Space places it, then type its words")
        try tmux.send("L", "L", "J", "J", "Space")
        try tmux.waitFor("Comment:")
        try tmux.type("Check these numbers")
        try tmux.send("Enter")
        try tmux.waitFor("Note kept")
        try tmux.send("Escape")
        try tmux.command("wa \(folder.file("annotated.pdf"))")
        try tmux.waitFor("Saved")
        try tmux.command("w")
        try tmux.waitFor("1 comment is not in a flattened copy: :wa keeps it")
        try tmux.command("q")
        try tmux.waitFor("REDLINE-EXIT=0")

        let annotated = folder.file("annotated.pdf")
        let note = try #require(try MuPDFProbe.annotations(in: annotated)[3].annotations.first)
        #expect(note.type == "Text" && note.content == "Check these numbers" && note.hasAppearance)
        #expect(abs(note.rect[2] - note.rect[0] - 20) < 0.01 && abs(note.rect[3] - note.rect[1] - 20) < 0.01, "\(note.rect)")
        let held = try #require(try AnnotationProbe.read(annotated).first { $0.subtype == "/Text" })
        #expect(held.look["Name"] == .text("/Note") && held.popupParentIsThis == true && held.look["popup open"] == .flag(false), "\(held.look)")
        // The icon where the pen was, in poppler's and MuPDF's pictures of the annotated copy and in the printed one.
        let (x, y) = (note.rect[0] + 10, note.rect[1] + 4)
        for saved in ["notes-marked.pdf", "annotated.pdf"] {
            for page in [try PopplerRender.page(4, of: folder.file(saved)), try MuPDFProbe.render(4, of: folder.file(saved))] {
                let p = page.rgb(Int(x), Int(y))
                #expect(p.red > 200 && p.green > 170 && p.blue < 120, "\(saved): the note's yellow at (\(x), \(y)): \(p)")
            }
        }
    }

    /// A callout: `C` in ink mode, Space at the spot, Space where the words go, the words, Enter. `:wa` saves a FreeText
    /// callout (/IT, /CL, /LE) drawn by poppler and MuPDF with its line to the spot; `:w` prints it; through XFDF the
    /// callout's keys reach a fresh copy unchanged.
    @Test func aCalloutIsPlacedWithItsWordsAndSavedBothWays() throws {
        let (folder, document) = try copyOfSample(named: "callouts.pdf")
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)' --page 4", columns: 160)
        try tmux.waitFor("page 4/4")
        try tmux.send("i", "C")
        try tmux.waitFor("Callout: Space at the spot")
        try tmux.send("J", "J", "J", "J", "J", "Space")
        try tmux.waitFor("spot placed")
        for _ in 0..<12 { try tmux.send("L") }
        try tmux.send("J", "J", "J", "Space")
        try tmux.type("Source of this figure?")
        try tmux.send("Enter")
        try tmux.waitFor("callout 14pt red, pen up")
        try tmux.send("Escape")
        try tmux.waitFor("[modified]")
        try tmux.command("wa \(folder.file("annotated.pdf"))")
        try tmux.waitFor("Saved")
        try tmux.command("w")
        try tmux.waitFor("Saved")
        try tmux.command("q")
        try tmux.waitFor("REDLINE-EXIT=0")

        let annotated = folder.file("annotated.pdf")
        let callout = try #require(try MuPDFProbe.annotations(in: annotated)[3].annotations.first)
        #expect(callout.type == "FreeText" && callout.content == "Source of this figure?" && callout.hasAppearance)
        let held = try #require(try AnnotationProbe.read(annotated).first { $0.subtype == "/FreeText" })
        #expect(held.look["IT"] == .text("/FreeTextCallout") && held.look["LE"] == .text("/OpenArrow"), "\(held.look)")
        guard case .numbers(let line)? = held.look["CL"], line.count == 4 else { Issue.record("no /CL: \(held.look)"); return }
        // The spot is 120 pt left of and 30 pt above where the words begin (page 4 is upright: user y grows upwards).
        let (spotX, spotY) = (line[0], 792 - line[1])
        #expect(abs(line[2] - (spotX + 120 - 2)) < 0.01 && abs(line[3] - line[1]) > 20, "the line leaves the words' left side: \(line)")
        // Through XFDF (which carries no appearance) into a fresh copy: the same callout keys, drawn again by Redline
        // as it was, line and arrow too.
        let xfdf = folder.file("callout.xfdf")
        let redline = try RedlineCommand()
        let exported = try redline.run(["xfdf", "export", annotated])
        try #require(exported.status == 0, "\(exported.stderr)")
        try exported.stdout.write(toFile: xfdf, atomically: true, encoding: .utf8)
        let result = try redline.run(["xfdf", "import", TestPaths.sample, xfdf, "--output", folder.file("imported.pdf")])
        try #require(result.status == 0, "\(result.stderr)")
        let back = try #require(try AnnotationProbe.read(folder.file("imported.pdf")).first { $0.subtype == "/FreeText" })
        #expect(back.look["CL"] == held.look["CL"] && back.look["IT"] == held.look["IT"] && back.look["LE"] == held.look["LE"])
        #expect(back.look["RD"] == held.look["RD"] && back.Contents == "Source of this figure?")
        // Drawn along the line, in red, halfway, flattened, as the annotation and imported, by poppler and MuPDF.
        let (midX, midY) = ((spotX + line[2]) / 2, (spotY + 792 - line[3]) / 2)
        for saved in ["callouts-marked.pdf", "annotated.pdf", "imported.pdf"] {
            for page in [try PopplerRender.page(4, of: folder.file(saved), dpi: 144), try MuPDFProbe.render(4, of: folder.file(saved), dpi: 144)] {
                var reds = 0
                for dy in -3...3 {
                    for dx in -3...3 {
                        let pixel = page.rgb(Int(midX * 2) + dx, Int(midY * 2) + dy)
                        if pixel.red > 150, pixel.green < 120, pixel.blue < 120 { reds += 1 }
                    }
                }
                #expect(reds > 0, "\(saved): the callout's line near (\(midX), \(midY))")
            }
        }
    }
}
