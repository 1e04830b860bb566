import Foundation
import RedlineCore
import RedlineKit
import TestSupport
import Testing

/// Markup saved as annotations (`:wa`, `redline apply --annotations`), read back by MuPDF and drawn by poppler and
/// MuPDF: on every rotation and on crop boxes that do not start at the origin, each markup is the annotation a
/// reader expects, where it was placed, and it looks exactly as the flattened save of the same markup looks.
@Suite(.serialized) struct MarkupAsAnnotationsTests {
    /// qpdf's fixture: eight pages, /Rotate 0, 90, 180 and 270, crop boxes inside media boxes, some of them
    /// starting below the origin.
    static let boxes = TestPaths.fixture("qpdf_boxes.pdf")

    static let inkStrokes = [[Point(x: 40, y: 150), Point(x: 200, y: 160), Point(x: 210, y: 200)], [Point(x: 60, y: 210)]]
    static let highlighterStroke = [[Point(x: 40, y: 260), Point(x: 250, y: 262)]]
    static let highlightRects = [Rect(x: 40, y: 300, width: 150, height: 14), Rect(x: 40, y: 320, width: 100, height: 14)]
    static let underlineRects = [Rect(x: 40, y: 360, width: 120, height: 12)]

    static func markup(onPage page: Int) -> [(Int, MarkupContent)] {
        [Saving.text("Approved", page: page, x: 40, y: 50, size: 14, color: .red),
         (page, .ink(InkMarkup(strokes: inkStrokes, width: 3, color: .blue))),
         (page, .ink(InkMarkup(strokes: highlighterStroke, width: 14, color: .yellow, opacity: InkMarkup.highlighterOpacity))),
         (page, .textMarks(TextMarks(kind: .highlight, rects: highlightRects, color: .green))),
         (page, .textMarks(TextMarks(kind: .underline, rects: underlineRects, color: .purple)))]
    }

    static func rgb(_ color: MarkupColor) -> [Double] {
        let rgb = color.rgb
        return [rgb.red, rgb.green, rgb.blue].map { Double($0) / 255 }
    }

    static func close(_ a: [Double], _ b: [Double], within tolerance: Double) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
    }

    static func contains(_ rect: [Double], _ point: Point, margin: Double = 0) -> Bool {
        point.x - margin >= rect[0] - 0.01 && point.x + margin <= rect[2] + 0.01
            && point.y - margin >= rect[1] - 0.01 && point.y + margin <= rect[3] + 0.01
    }

    @Test func everyMarkupIsTheAnnotationMuPDFExpectsOnEveryRotationAndBox() throws {
        let folder = TemporaryFolder()
        let output = folder.file("annotated.pdf")
        let pages = 0..<8
        try Saving.save(pages.flatMap { Self.markup(onPage: $0) }, from: Self.boxes, to: output, markupAs: .annotations)
        let read = try MuPDFProbe.annotations(in: output)
        for page in pages {
            let found = read[page].annotations
            try #require(found.map(\.type) == ["FreeText", "Ink", "Ink", "Highlight", "Underline"],
                         "page \(page + 1), rotation \(read[page].rotation): \(found.map(\.type))")
            for annotation in found {
                #expect(annotation.title == "Alice")
                #expect(annotation.hasAppearance, "an appearance stream, for readers that never draw their own")
                #expect(annotation.flags == 4, "printed")
                #expect(UUID(uuidString: annotation.id ?? "") != nil, "/NM is a UUID: \(annotation.id ?? "none")")
                #expect(annotation.creationDate?.hasPrefix("D:") == true && annotation.modDate?.hasPrefix("D:") == true)
            }
            let text = found[0]
            #expect(text.content == "Approved")
            // PyMuPDF says -1 for no /Rotate: none on a page that is not turned.
            #expect(text.rotate == (read[page].rotation == 0 ? -1 : read[page].rotation),
                    "a reader drawing the text afresh turns it as the page is turned")
            #expect(Self.contains(text.rect, Point(x: 40, y: 50)), "the text's corner is inside its box: \(text.rect)")
            #expect(text.rect[2] - text.rect[0] > 50 && text.rect[3] - text.rect[1] > 14, "as wide as the word: \(text.rect)")
            let red = Self.rgb(.red).map { String(format: "%.4g", $0) }.joined(separator: " ")
            #expect(text.defaultAppearance == "/Helv 14 Tf \(red) rg", "\(text.defaultAppearance ?? "no /DA")")
            #expect(!text.hasColor, "no /C: Acrobat would fill the box with it")

            let pen = found[1]
            #expect(Self.close(pen.stroke, Self.rgb(.blue), within: 0.002))
            #expect(pen.width == 3)
            #expect(pen.opacity == -1, "the pen is opaque: no /CA")
            #expect(pen.ink.count == 2)
            for (stroke, expected) in zip(pen.ink, Self.inkStrokes) {
                #expect(Self.close(stroke.flatMap { $0 }, expected.flatMap { [$0.x, $0.y] }, within: 0.01),
                        "page \(page + 1): the strokes where they were drawn: \(stroke) against \(expected)")
            }
            for point in Self.inkStrokes.flatMap({ $0 }) {
                #expect(Self.contains(pen.rect, point, margin: 1.5), "the rect holds every point with its width: \(pen.rect)")
            }

            let highlighter = found[2]
            #expect(abs(highlighter.opacity - InkMarkup.highlighterOpacity) < 0.001, "the highlighter's /CA")
            #expect(highlighter.width == 14)
            #expect(Self.close(highlighter.stroke, Self.rgb(.yellow), within: 0.002))

            let highlight = found[3]
            let corners = Self.highlightRects.flatMap { [$0.minX, $0.minY, $0.maxX, $0.minY, $0.minX, $0.maxY, $0.maxX, $0.maxY] }
            #expect(Self.close(highlight.quads.flatMap { $0 }, corners, within: 0.01),
                    "page \(page + 1): the quads are the words' corners as they read: \(highlight.quads)")
            #expect(Self.close(highlight.stroke, Self.rgb(.green), within: 0.002))
            #expect(abs(highlight.opacity - TextMarks.highlightOpacity) < 0.001)
            #expect(Self.close(found[4].stroke, Self.rgb(.purple), within: 0.002))
        }
        // The header, or (an update appended to the original cannot change its header) the catalog's /Version.
        let header = String(decoding: try #require(FileManager.default.contents(atPath: output)).prefix(8), as: UTF8.self)
        let trailer = try ProcessRunner.run("qpdf", ["--show-object=trailer", output]).stdout
        let root = try #require(trailer.firstMatch(of: /\/Root (\d+) 0 R/)?.1)
        let catalog = try ProcessRunner.run("qpdf", ["--show-object=\(root)", output]).stdout
        #expect(header >= "%PDF-1.5" || catalog.contains("/Version /1.5"),
                "translucency and /DS need PDF 1.5; the source says 1.3: \(header), \(catalog)")
        let check = try ProcessRunner.run("qpdf", ["--check", output])
        #expect(check.status == 0 && !check.stdout.contains("WARNING"), "qpdf --check: \(check.stdout)")
    }

    /// What a reader shows is what the editor showed: the flattened save is drawn by the same painter, and poppler
    /// and MuPDF each draw the annotated file as they draw the flattened one.
    @Test func popplerAndMuPDFDrawTheAnnotationsAsTheFlattenedMarkup() throws {
        let folder = TemporaryFolder()
        let annotated = folder.file("annotated.pdf"), flattened = folder.file("flattened.pdf")
        let pages = [0, 1, 2, 3, 5, 7]
        let items = pages.flatMap { Self.markup(onPage: $0) }
        try Saving.save(items, from: Self.boxes, to: annotated, markupAs: .annotations)
        try Saving.save(items, from: Self.boxes, to: flattened, markupAs: .flatten)
        let plain = folder.file("plain.pdf")
        try FileManager.default.copyItem(atPath: Self.boxes, toPath: plain)
        for page in pages {
            for (reader, render) in [("poppler", { try PopplerRender.page($0, of: $1, dpi: 72) }),
                                     ("MuPDF", { try MuPDFProbe.render($0, of: $1, dpi: 72) })] as [(String, (Int, String) throws -> RenderedPage)] {
                let a = try render(page + 1, annotated), b = try render(page + 1, flattened), before = try render(page + 1, plain)
                try #require(a.width == b.width && a.height == b.height)
                var differing = 0, marked = 0
                for y in 0..<a.height {
                    for x in 0..<a.width {
                        if a.difference(from: b, x, y) > 24 { differing += 1 }
                        if b.difference(from: before, x, y) > 24 { marked += 1 }
                    }
                }
                #expect(marked > 3000, "\(reader), page \(page + 1): the markup shows (\(marked) pixels)")
                #expect(differing <= marked / 200, "\(reader), page \(page + 1): \(differing) pixels differ from the flattened save's")
            }
        }
    }

    /// /NM names one annotation: the same markup (same ids) applied onto a file that already holds it gets new names.
    @Test func markupAppliedTwiceGetsNamesOfItsOwn() throws {
        let folder = TemporaryFolder()
        var layer = MarkupLayer()
        for (page, content) in Self.markup(onPage: 0) { layer.add(pageIndex: page, content: content) }
        let once = folder.file("once.pdf"), twice = folder.file("twice.pdf")
        for (source, destination) in [(Self.boxes, once), (once, twice)] {
            let description = try MarkupApplication.describe(source, password: nil)
            try DocumentSaver(services: Saving.services).save(layer, source: source, password: nil, description: description,
                                                               to: destination, markupAs: .annotations, author: "Alice")
        }
        let names = try MuPDFProbe.annotations(in: twice)[0].annotations.compactMap(\.id)
        #expect(names.count == 10 && Set(names).count == 10, "ten annotations, ten names: \(names)")
    }

    /// Saving as annotations adds annotations and nothing else: the pages' content streams, the other pages and the
    /// document's structure are as they were.
    @Test func nothingElseChanges() throws {
        let folder = TemporaryFolder()
        let source = TestPaths.fixture("pdfcpu_text_annotations.pdf")
        let output = folder.file("annotated.pdf")
        try Saving.save(Self.markup(onPage: 0), from: source, to: output, markupAs: .annotations)
        let before = try PDFProbe.read(source), after = try PDFProbe.read(output)
        #expect(before.pageCount == after.pageCount)
        for page in 0..<before.pageCount {
            #expect(before.contents(ofPage: page) == after.contents(ofPage: page), "page \(page + 1)'s content is untouched")
        }
        #expect(before.outline == after.outline && before.names == after.names)
        let old = try MuPDFProbe.annotations(in: source)[0].annotations, new = try MuPDFProbe.annotations(in: output)[0].annotations
        #expect(new.count == old.count + 5)
        for (was, now) in zip(old, new) {
            #expect(was.type == now.type && was.rect == now.rect && was.content == now.content && was.id == now.id,
                    "the file's own annotations come first, as they were")
        }
    }
}
