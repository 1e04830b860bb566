import Foundation
import PDFRendering
import RedlineCore
import RedlineKit
import Testing
import TestSupport

/// A file's rectangle and arrow (Redline's own, saved with `:wa`), moved and recoloured in one session: saved where
/// they went in their new colour, whole, as the editor shows them.
@Suite struct MovedAndRecolouredShapesTests {
    static let date = PDFDate(year: 2026, month: 11, day: 29, hour: 16, minute: 0, second: 0)

    @Test(arguments: [false, true])
    func aMovedAndRecolouredShapeIsDrawnWholeWhereItWent(recolourFirst: Bool) throws {
        let folder = TemporaryFolder()
        let markup = folder.file("shapes.json"), annotated = folder.file("annotated.pdf"), output = folder.file("moved.pdf")
        try #"{"version": 1, "items": [{"page": 1, "kind": "rectangle", "points": [[72, 400], [272, 500]], "width": 4}, {"page": 1, "kind": "arrow", "points": [[72, 600], [272, 600]], "width": 4}]}"#
            .write(toFile: markup, atomically: true, encoding: .utf8)
        let applied = try ProcessRunner.run(TestPaths.redline, ["apply", TestPaths.sample, "--markup", markup, "--annotations", "--output", annotated])
        try #require(applied.status == 0, "\(applied.stderr)")
        let document = try OpenedDocument(path: annotated, password: nil)
        let original = document.description.annotations
        let editing = ThreadEditing(author: "Ana", path: annotated)
        var edits = AnnotationEdits()
        let blue = RGBColor(red: 0, green: 0, blue: 255)
        for shape in original where [.square, .line].contains(shape.subtype) {
            if recolourFirst {
                try editing.restyle(shape.id, color: blue, fontSize: nil, original: shape, at: Self.date, current: edits.applied(to: original), edits: &edits)
            }
            try editing.move(shape.id, dx: 20, dy: 30, at: Self.date, current: edits.applied(to: original), edits: &edits)
            if !recolourFirst {
                try editing.restyle(shape.id, color: blue, fontSize: nil, original: shape, at: Self.date, current: edits.applied(to: original), edits: &edits)
            }
        }
        let shown = document.renderer.render(page: 0, scale: 1, annotationEdits: edits.shownChanges(onPage: 0, of: original))
        try DocumentSaver(services: RedlineServices()).save(DocumentEdits(annotations: edits), source: annotated, password: nil,
                                                            description: document.description, to: output)
        #expect(try QPDFCheck.errors(in: output) == nil)
        for picture in [try PopplerRender.page(1, of: output), try MuPDFProbe.render(1, of: output)] {
            func blueAt(_ x: Int, _ y: Int) -> Bool { let p = picture.rgb(x, y); return p.blue > 180 && p.red < 80 }
            func paperAt(_ x: Int, _ y: Int) -> Bool { let p = picture.rgb(x, y); return p.red > 225 && p.green > 225 && p.blue > 225 }
            // The rectangle, now 92…292 × 430…530: all four sides; nothing where it was.
            #expect(blueAt(192, 432) && blueAt(192, 528) && blueAt(94, 480) && blueAt(290, 480), "the moved rectangle's sides")
            #expect(paperAt(74, 450), "where its left side was")
            // The arrow, now 92…292 at 630: its tail and its head.
            #expect(blueAt(95, 630) && blueAt(285, 630) && paperAt(80, 600), "the moved arrow")
        }
        // The editor showed what was saved.
        let saved = try OpenedDocument(path: output, password: nil).renderer.render(page: 0, scale: 1)
        var apart = 0
        for y in stride(from: 380, to: 660, by: 2) {
            for x in stride(from: 60, to: 320, by: 2) {
                let (a, b) = (shown.rgb(x: x, y: y), saved.rgb(x: x, y: y))
                if abs(Int(a.red) - Int(b.red)) + abs(Int(a.green) - Int(b.green)) + abs(Int(a.blue) - Int(b.blue)) > 96 { apart += 1 }
            }
        }
        #expect(apart < 10, "\(apart) sampled pixels differ between the editor's picture and the saved page")
    }
}
