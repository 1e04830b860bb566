import Foundation
import PDFRendering
import RedlineCore
import RedlineKit
import Testing
import TestSupport

/// Annotations other tools wrote, given a new colour, a new font size or new words, as the editor does, and saved:
/// MuPDF reads the new colour and text, the ones Redline draws (FreeText, Ink, Highlight, shapes from their keys) have
/// a new appearance in their new look, the others lose theirs so readers draw them from the new colour, and the editor's picture of the
/// page is the saved page.
@Suite struct RestylingFileAnnotationsTests {
    static let date = PDFDate(year: 2026, month: 11, day: 24, hour: 10, minute: 0, second: 0)
    static let blue = RGBColor(red: 0, green: 0, blue: 255)
    static let green = RGBColor(red: 0, green: 160, blue: 0)

    /// A copy of a fixture opened as the editor opens it, its annotations, and where a save of it goes.
    struct Opened {
        let folder = TemporaryFolder()
        let source: String, output: String
        let document: OpenedDocument
        var original: [Annotation] { document.description.annotations }

        init(_ fixture: String, savedAs name: String) throws {
            source = folder.copy(fixture: fixture)
            output = folder.file(name)
            document = try OpenedDocument(path: source, password: nil)
        }
    }

    /// The editor's picture of page 1 with `edits`, and poppler's picture of page 1 once `:w`'s saver has written them
    /// (checked by qpdf).
    static func shownAndSaved(_ edits: AnnotationEdits, document: OpenedDocument, source: String,
                              to output: String) throws -> (shown: PageRaster, saved: PageRaster) {
        let original = document.description.annotations
        let shown = document.renderer.render(page: 0, scale: 1, annotationEdits: edits.shownChanges(onPage: 0, of: original))
        try DocumentSaver(services: RedlineServices()).save(DocumentEdits(annotations: edits), source: source, password: nil,
                                                            description: document.description, to: output)
        #expect(try QPDFCheck.errors(in: output) == nil)
        return (shown, try OpenedDocument(path: output, password: nil).renderer.render(page: 0, scale: 1))
    }

    @Test func newColoursSizesAndWordsAreWhatReadersFindAndWhatTheEditorShows() throws {
        let opened = try Opened("pdfjs_issue14438.pdf", savedAs: "restyled.pdf")
        let (source, output, document, original) = (opened.source, opened.output, opened.document, opened.original)
        let freeText = try #require(original.first { $0.subtype == .freeText && $0.contents == "title" })
        let ink = try #require(original.first { $0.subtype == .ink && !$0.drawing.inkList.isEmpty })
        let square = try #require(original.first { $0.subtype == AnnotationSubtype("Square") && $0.drawing.interiorColor == nil })
        // A filled square (pdf.js's area highlight) drawn again from its keys would cover the page in its fill; a
        // caret vanishes in poppler: both keep their look.
        let filled = try #require(original.first { $0.subtype == AnnotationSubtype("Square") && $0.drawing.interiorColor != nil })
        let caret = try #require(original.first { $0.subtype == AnnotationSubtype("Caret") })
        let editing = ThreadEditing(author: "Ana", path: source)
        var edits = AnnotationEdits()
        try editing.restyle(freeText.id, color: Self.blue, fontSize: 24, original: freeText, at: Self.date, current: original, edits: &edits)
        try editing.rewrite(freeText.id, text: "Reworded title", at: Self.date, current: edits.applied(to: original), edits: &edits)
        try editing.restyle(ink.id, color: Self.blue, fontSize: nil, original: ink, at: Self.date, current: original, edits: &edits)
        try editing.restyle(square.id, color: Self.green, fontSize: nil, original: square, at: Self.date, current: original, edits: &edits)
        // pdf.js's polygon has two corners: its appearance draws a line, readers would draw nothing.
        let twoCorners = try #require(original.first { $0.subtype == AnnotationSubtype("Polygon") && $0.drawing.vertices.count < 3 })
        for (kept, why) in [(filled, "drawn again, its fill would cover the page"), (caret, "poppler draws none without the appearance it has"),
                            (twoCorners, "it has too few corners for readers to draw it again")] {
            #expect(throws: AnnotationEditError.keepsItsLook(kept.id, subtype: kept.subtype, what: "colour", why: why)) {
                try editing.restyle(kept.id, color: Self.green, fontSize: nil, original: kept, at: Self.date, current: original, edits: &edits)
            }
        }
        #expect(throws: AnnotationEditError.keepsItsLook(ink.id, subtype: .ink, what: "size")) {
            try editing.restyle(ink.id, color: nil, fontSize: 30, original: ink, at: Self.date, current: original, edits: &edits)
        }

        let (shown, saved) = try Self.shownAndSaved(edits, document: document, source: source, to: output)
        #expect(shown.width == saved.width && shown.height == saved.height)
        let same = shown.pixels == saved.pixels
        #expect(same, "the editor shows the page as :w writes it")

        let before = try MuPDFProbe.annotations(in: source)[0].annotations
        let after = try MuPDFProbe.annotations(in: output)[0].annotations
        func find(_ list: [MuPDFAnnotation], _ id: AnnotationID) -> MuPDFAnnotation? { list.first { $0.id == id.rawValue } }
        // pdf.js's "title" box has no /NM: the save gives it its id as one, so MuPDF names it only afterwards.
        let textBefore = try #require(before.first { $0.type == "FreeText" && $0.content == "title" })
        let text = try #require(find(after, freeText.id))
        #expect(text.content == "Reworded title")
        #expect(text.defaultAppearance?.contains("24 Tf") == true && text.defaultAppearance?.contains("0 0 1 rg") == true,
                "\(text.defaultAppearance ?? "")")
        #expect(text.appearanceDigest != textBefore.appearanceDigest, "drawn anew")
        #expect(text.rect[2] - text.rect[0] > textBefore.rect[2] - textBefore.rect[0], "its box grew to hold 24 pt words")
        let inked = try #require(find(after, ink.id))
        #expect(inked.stroke == [0, 0, 1] && inked.hasAppearance && inked.appearanceDigest != find(before, ink.id)?.appearanceDigest)
        #expect(inked.ink == find(before, ink.id)?.ink, "its strokes stay")
        let boxed = try #require(find(after, square.id))
        #expect(abs(boxed.stroke[1] - 160.0 / 255) < 0.01 && boxed.hasAppearance && boxed.appearanceDigest != find(before, square.id)?.appearanceDigest,
                "a square is drawn anew from its keys, in green")
        let changed = Set([freeText.id, ink.id, square.id].map(\.rawValue))
        for other in after where !changed.contains(other.id ?? "") {
            let was = before.first { $0.id == other.id && $0.type == other.type && $0.rect == other.rect }
            #expect(was?.appearanceDigest == other.appearanceDigest && was?.stroke == other.stroke,
                    "\(other.type) \(other.id ?? "") stays: \(String(describing: was?.appearanceDigest)) \(String(describing: other.appearanceDigest))")
        }

        // Poppler draws the restyled ones in their new colours where they are.
        let page = try PopplerRender.page(1, of: output)
        func count(in rect: Rect, _ matches: (Int, Int, Int) -> Bool) -> Int {
            var found = 0
            for y in Int(rect.minY)..<Int(rect.maxY) where y >= 0 && y < page.height {
                for x in Int(rect.minX)..<Int(rect.maxX) where x >= 0 && x < page.width {
                    let pixel = page.rgb(x, y)
                    if matches(pixel.red, pixel.green, pixel.blue) { found += 1 }
                }
            }
            return found
        }
        let isBlue: (Int, Int, Int) -> Bool = { $2 > 150 && $0 < 100 && $1 < 100 }
        #expect(count(in: ink.rect, isBlue) > 10, "the ink is blue")
        #expect(count(in: square.rect.insetBy(dx: -2, dy: -2)) { $1 > 120 && $0 < 80 && $2 < 80 } > 50, "the square is green")
        #expect(count(in: Rect(x: freeText.rect.minX, y: freeText.rect.minY, width: 200, height: 40), isBlue) > 20, "the words are blue")
    }

    /// Acrobat's typewriter box holds rich text (/RC, orange words in SimSun) that would still say the old words and
    /// colour: given new words and a new colour, its rich text and style go, and what shows is drawn anew from /DA
    /// and /Contents in the new colour. The editor shows the page as it is saved.
    @Test func aRichTextBoxLosesItsOldRichTextWithNewWordsAndColour() throws {
        let opened = try Opened("pdfjs_file_pdfjs_test.pdf", savedAs: "reworded.pdf")
        let (source, output, document, original) = (opened.source, opened.output, opened.document, opened.original)
        let box = try #require(original.first { $0.subtype == .freeText && $0.contents == "this is a text anotation" })
        #expect(box.drawing.richText != nil, "Acrobat wrote it with rich text")
        let editing = ThreadEditing(author: "Ana", path: source)
        var edits = AnnotationEdits()
        try editing.restyle(box.id, color: Self.blue, fontSize: nil, original: box, at: Self.date, current: original, edits: &edits)
        try editing.rewrite(box.id, text: "Checked by Ana", at: Self.date, current: edits.applied(to: original), edits: &edits)
        #expect(edits.applied(to: original).first { $0.id == box.id }?.drawing.richText == nil, "the list has no old rich text")

        let (shown, saved) = try Self.shownAndSaved(edits, document: document, source: source, to: output)
        #expect(shown.pixels == saved.pixels, "the editor shows the page as :w writes it")

        let written = try #require(try AnnotationProbe.read(output).first { $0.NM == box.id.rawValue })
        #expect(written.Contents == "Checked by Ana")
        #expect(written.look["RC words"] == nil && written.look["DS"] == nil, "no rich text saying the old words: \(written.look)")
        #expect(written.look["IT"] == .text("/FreeTextTypewriter"), "what it is for stays")
        let muPDF = try #require(try MuPDFProbe.annotations(in: output)[0].annotations.first { $0.id == box.id.rawValue })
        #expect(muPDF.defaultAppearance?.contains("0 0 1 rg") == true, "\(muPDF.defaultAppearance ?? "")")

        // Poppler draws the new words in blue where the box is, and the old orange ones are gone.
        let page = try PopplerRender.page(1, of: output)
        var blue = 0, orange = 0
        for y in Int(box.rect.minY)..<Int(box.rect.maxY) {
            for x in Int(box.rect.minX)..<Int(box.rect.maxX) {
                let pixel = page.rgb(x, y)
                if pixel.blue > 150 && pixel.red < 100 && pixel.green < 100 { blue += 1 }
                if pixel.red > 200 && (60...140).contains(pixel.green) && pixel.blue < 60 { orange += 1 }
            }
        }
        #expect(blue > 20 && orange == 0, "\(blue) blue and \(orange) orange pixels")
    }

    /// A text box filled with a colour and centred is not what the painter draws: given a new colour and new words,
    /// its old appearance goes and readers draw it again from /C, /Q and /DA, so poppler shows the words in the new
    /// colour on the box's own fill, and the editor shows the page as it is saved.
    @Test func aFilledCentredBoxIsDrawnAgainByReadersInItsNewColour() throws {
        let folder = TemporaryFolder()
        let xfdf = folder.file("box.xfdf"), source = folder.file("boxed.pdf"), output = folder.file("restyled.pdf")
        try """
        <xfdf xmlns="http://ns.adobe.com/xfdf/"><annots><freetext page="0" rect="100,600,300,640" name="Boxed" color="#FFFF00"
        justification="centered" width="1"><contents>Centred</contents><defaultappearance>/Helv 14 Tf 1 0 0 rg</defaultappearance>
        </freetext></annots></xfdf>
        """.write(toFile: xfdf, atomically: true, encoding: .utf8)
        let imported = folder.file("imported.pdf")
        try XFDFExchange.importing(Array(try Data(contentsOf: URL(fileURLWithPath: xfdf))), into: folder.copy(fixture: "pypdf_crazyones-pdfa.pdf"),
                                   password: nil, to: imported)
        // The appearance the writing tool drew: a red box, which must not outlive the new look.
        let script = """
            import pikepdf, sys
            pdf = pikepdf.open(sys.argv[1])
            for annot in pdf.pages[0].Annots:
                if annot.get("/NM") == "Boxed":
                    form = pikepdf.Stream(pdf, b"1 0 0 rg 0 0 200 40 re f")
                    form.Type, form.Subtype, form.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 200, 40]
                    annot.AP = pikepdf.Dictionary(N=pdf.make_indirect(form))
            pdf.save(sys.argv[2])
            """
        let drawn = try ProcessRunner.run(TestPaths.python, ["-c", script, imported, source])
        try #require(drawn.status == 0, "\(drawn.stderr)")
        let document = try OpenedDocument(path: source, password: nil)
        let original = document.description.annotations
        let box = try #require(original.first { $0.id == "Boxed" })
        #expect(MarkupAnnotations.item(for: box) == nil, "the painter does not draw a filled, centred box")
        let editing = ThreadEditing(author: "Ana", path: source)
        var edits = AnnotationEdits()
        try editing.restyle(box.id, color: Self.blue, fontSize: nil, original: box, at: Self.date, current: original, edits: &edits)
        try editing.rewrite(box.id, text: "Now blue", at: Self.date, current: edits.applied(to: original), edits: &edits)
        let (shown, saved) = try Self.shownAndSaved(edits, document: document, source: source, to: output)
        #expect(shown.pixels == saved.pixels, "the editor shows the page as :w writes it")
        let written = try #require(try AnnotationProbe.read(output).first { $0.NM == "Boxed" })
        #expect(written.Contents == "Now blue" && written.look["FreeText C"] == .numbers([1, 1, 0]) && written.look["Q"] == .text("1"))
        let page = try PopplerRender.page(1, of: output)
        var yellow = 0, blue = 0, red = 0
        for y in (page.height - 640)..<(page.height - 600) {
            for x in 100..<300 {
                let p = page.rgb(x, y)
                if p.red > 200 && p.green > 200 && p.blue < 80 { yellow += 1 }
                if p.blue > 150 && p.red < 100 && p.green < 100 { blue += 1 }
                if p.red > 150 && p.green < 80 && p.blue < 80 { red += 1 }
            }
        }
        #expect(yellow > 4_000 && blue > 20 && red == 0, "\(yellow) yellow, \(blue) blue, \(red) red pixels")
    }

    /// Another tool's callout, given more words than its box holds: its box grows down to hold every line, so poppler
    /// and MuPDF show every word (they used to show the first ones only), and the callout line stays.
    @Test func aRewordedCalloutGrowsToShowEveryWord() throws {
        let folder = TemporaryFolder()
        let xfdf = folder.file("callout.xfdf"), source = folder.file("callout.pdf"), output = folder.file("reworded.pdf")
        try """
        <xfdf xmlns="http://ns.adobe.com/xfdf/"><annots><freetext page="0" rect="100,600,260,630" name="Callout" color="#FFFFFF"
        intent="FreeTextCallout" callout="60,500,80,560,100,615" head="OpenArrow" fringe="0,0,0,0" width="1">
        <contents>Check</contents><defaultappearance>/Helv 12 Tf 0 0 1 rg</defaultappearance></freetext></annots></xfdf>
        """.write(toFile: xfdf, atomically: true, encoding: .utf8)
        try XFDFExchange.importing(Array(try Data(contentsOf: URL(fileURLWithPath: xfdf))), into: folder.copy(fixture: "pypdf_crazyones-pdfa.pdf"),
                                   password: nil, to: source)
        let document = try OpenedDocument(path: source, password: nil)
        let original = document.description.annotations
        let callout = try #require(original.first { $0.id == "Callout" })
        let words = "Totals on this page disagree with table two: please check every figure against the ledger before signing"
        var edits = AnnotationEdits()
        try ThreadEditing(author: "Ana", path: source).rewrite(callout.id, text: words, at: Self.date, current: original, edits: &edits)
        _ = try Self.shownAndSaved(edits, document: document, source: source, to: output)
        let written = try #require(try OpenedDocument(path: output, password: nil).description.annotations.first { $0.id == "Callout" })
        #expect(written.rect.height > callout.rect.height + 20, "grown: \(callout.rect) → \(written.rect)")
        #expect(written.rect.minY == callout.rect.minY && written.rect.width == callout.rect.width, "down, as wide as it was")
        #expect(written.drawing.callout.count == callout.drawing.callout.count, "the callout line is kept")
        // Every line shows in poppler's and MuPDF's drawings: blue text from the first line to the fourth (the words
        // take four at this width), inside the box's border; the old 30 pt box held one.
        func textSpan(_ page: RenderedPage) -> Double {
            let box = written.rect
            let rows = (Int(box.minY) + 3..<Int(box.maxY) - 3).filter { y in
                (Int(box.minX) + 3..<Int(box.maxX) - 3).contains { x in
                    let p = page.rgb(x, y)
                    return p.blue > 150 && p.red < 120 && p.green < 120
                }
            }
            return Double((rows.last ?? 0) - (rows.first ?? 0))
        }
        // Readers set it in Helvetica, narrower than Redline's font: four lines, three line steps (36 pt) from the top
        // of the first to the top of the last, more than the old box (30 pt) could show at all.
        let poppler = try PopplerRender.page(1, of: output), mupdf = try MuPDFProbe.render(1, of: output)
        #expect(textSpan(poppler) >= 36, "poppler shows every line: \(textSpan(poppler)) pt of text")
        #expect(textSpan(mupdf) >= 36, "MuPDF shows every line: \(textSpan(mupdf)) pt of text")
        #expect(written.rect.height >= textSpan(poppler) + 12, "the box holds them")
    }

    /// A note is drawn again from its keys once recoloured; poppler knows only some icons (Comment, Note, Key, …):
    /// a note with Acrobat's Check would vanish, so it keeps its colour and says why, and a Comment note turns blue.
    @Test func aNoteKeepsItsColourWherePopplerCouldNotDrawItsIcon() throws {
        let opened = try Opened("pdfjs_file_pdfjs_test.pdf", savedAs: "recoloured.pdf")
        let (source, output, document, original) = (opened.source, opened.output, opened.document, opened.original)
        let checked = try #require(original.first { $0.subtype == .text && $0.drawing.icon == "Check" && $0.pageIndex == 0 })
        let comment = try #require(original.first { $0.subtype == .text && $0.drawing.icon == "Comment" && $0.pageIndex == 0 })
        let editing = ThreadEditing(author: "Ana", path: source)
        var edits = AnnotationEdits()
        #expect(throws: AnnotationEditError.keepsItsLook(checked.id, subtype: .text, what: "colour", why: "poppler has no Check icon to draw it with")) {
            try editing.restyle(checked.id, color: Self.blue, fontSize: nil, original: checked, at: Self.date, current: original, edits: &edits)
        }
        try editing.restyle(comment.id, color: Self.blue, fontSize: nil, original: comment, at: Self.date, current: original, edits: &edits)
        let (shown, saved) = try Self.shownAndSaved(edits, document: document, source: source, to: output)
        #expect(shown.pixels == saved.pixels, "the editor shows the page as :w writes it")
        let page = try PopplerRender.page(1, of: output)
        var blue = 0
        for y in Int(comment.rect.minY)..<Int(comment.rect.maxY) {
            for x in Int(comment.rect.minX)..<Int(comment.rect.maxX) {
                let pixel = page.rgb(x, y)
                if pixel.blue > 150 && pixel.red < 100 && pixel.green < 100 { blue += 1 }
            }
        }
        #expect(blue > 20, "poppler draws the Comment note in blue: \(blue) pixels")
    }

    /// A square and a circle of width 0 (no line, ISO 32000-1 §12.5.4) given a new colour: drawn again from their
    /// keys, they show nothing in poppler and MuPDF alike, where without an appearance MuPDF drew a hairline.
    @Test func aRecolouredShapeOfWidthZeroShowsNothingInEveryReader() throws {
        let folder = TemporaryFolder()
        let source = folder.file("shapes.pdf"), output = folder.file("recoloured.pdf")
        let xfdf = """
            <?xml version="1.0" encoding="UTF-8"?><xfdf xmlns="http://ns.adobe.com/xfdf/"><annots>
            <square page="0" rect="100,500,250,650" name="sq0" color="#00A000" width="0"/>
            <circle page="0" rect="300,500,450,650" name="ci0" color="#00A000" width="0"/>
            </annots></xfdf>
            """
        try XFDFExchange.importing(Array(xfdf.utf8), into: TestPaths.sample, password: nil, to: source)
        let document = try OpenedDocument(path: source, password: nil)
        let original = document.description.annotations
        let editing = ThreadEditing(author: "Ana", path: source)
        var edits = AnnotationEdits()
        for name in ["sq0", "ci0"] {
            let shape = try #require(original.first { $0.id.rawValue == name })
            try editing.restyle(shape.id, color: Self.blue, fontSize: nil, original: shape, at: Self.date, current: original, edits: &edits)
        }
        let (shown, saved) = try Self.shownAndSaved(edits, document: document, source: source, to: output)
        #expect(shown.pixels == saved.pixels, "the editor shows the page as :w writes it")
        let written = try MuPDFProbe.annotations(in: output)[0].annotations
        for name in ["sq0", "ci0"] {
            let shape = try #require(written.first { $0.id == name })
            #expect(shape.hasAppearance && shape.stroke == [0, 0, 1], "\(name): \(shape.stroke)")
        }
        for (reader, page) in [("poppler", try PopplerRender.page(1, of: output)), ("MuPDF", try MuPDFProbe.render(1, of: output, dpi: 72))] {
            var coloured = 0
            for y in 135..<300 { for x in 95..<455 where page.rgb(x, y).blue > 150 && page.rgb(x, y).red < 100 { coloured += 1 } }
            #expect(coloured == 0, "\(reader) draws \(coloured) blue pixels of shapes of width 0")
        }
    }

    /// Acrobat draws a typewriter box in its /DS colour (orange here) and leaves /DA's default black: a bigger size
    /// keeps the orange the reviewer saw, in /DA too, where every reader finds it.
    @Test func aBiggerSizeKeepsTheColourTheBoxShowed() throws {
        let opened = try Opened("pdfjs_file_pdfjs_test.pdf", savedAs: "bigger.pdf")
        let (source, output, document, original) = (opened.source, opened.output, opened.document, opened.original)
        let box = try #require(original.first { $0.subtype == .freeText && $0.contents == "this is a text anotation" })
        let orange = RGBColor(red: 255, green: 84, blue: 0)
        #expect(box.drawing.color == orange, "the colour it shows, from /DS: \(String(describing: box.drawing.color))")
        let editing = ThreadEditing(author: "Ana", path: source)
        var edits = AnnotationEdits()
        try editing.restyle(box.id, color: nil, fontSize: 24, original: box, at: Self.date, current: original, edits: &edits)
        let (shown, saved) = try Self.shownAndSaved(edits, document: document, source: source, to: output)
        #expect(shown.pixels == saved.pixels, "the editor shows the page as :w writes it")
        let written = try #require(try MuPDFProbe.annotations(in: output)[0].annotations.first { $0.id == box.id.rawValue })
        #expect(written.defaultAppearance?.contains("24 Tf 1 0.3294 0 rg") == true, "\(written.defaultAppearance ?? "")")
        let page = try PopplerRender.page(1, of: output)
        var orangePixels = 0, dark = 0
        for y in Int(box.rect.minY)..<Int(box.rect.maxY) + 10 {
            for x in Int(box.rect.minX)..<Int(box.rect.maxX) {
                let pixel = page.rgb(x, y)
                if pixel.red > 200 && (40...140).contains(pixel.green) && pixel.blue < 60 { orangePixels += 1 }
                if pixel.red < 60 && pixel.green < 60 && pixel.blue < 60 { dark += 1 }
            }
        }
        #expect(orangePixels > 50, "the words stay orange: \(orangePixels) orange, \(dark) dark pixels")
    }
}
