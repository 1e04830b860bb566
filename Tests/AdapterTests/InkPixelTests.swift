import Foundation
import RedlineCore
import TestSupport
import Testing

/// Saved ink, rendered by poppler (pdftoppm, at one pixel per point) and compared with the original's render.
@Suite struct InkPixelTests {
    static let stroke = [Point(x: 100, y: 100), Point(x: 250, y: 130), Point(x: 180, y: 260)]
    static let width = 6.0

    @Test(arguments: 1...8)
    func inkChangesOnlyPixelsNearItsStrokeAndHasItsColourAlongIt(page: Int) throws {
        // qpdf_boxes.pdf pages 1–4: /Rotate 0, 90, 180, 270; pages 5–8 the same with offset media boxes; all cropped.
        let folder = TemporaryFolder()
        let source = TestPaths.fixture("qpdf_boxes.pdf"), output = folder.file("ink.pdf")
        let color = RGBColor(hex: "#1040E0")!
        try Saving.save([(page - 1, .ink(InkMarkup(strokes: [Self.stroke], width: Self.width, color: .custom(color))))],
                        from: source, to: output)
        let before = try PopplerRender.page(page, of: source), after = try PopplerRender.page(page, of: output)
        #expect(before.width == after.width && before.height == after.height)

        let reach = Self.width / 2 + 1.5
        let box = Rect(enclosing: Self.stroke)!.insetBy(dx: -reach, dy: -reach)
        var changed = 0
        for y in 0..<after.height {
            for x in 0..<after.width where after.difference(from: before, x, y) > 40 {
                changed += 1
                #expect(box.contains(Point(x: Double(x) + 0.5, y: Double(y) + 0.5)), "pixel \(x),\(y) changed outside the stroke")
            }
        }
        #expect(changed > 300)
        for (a, b) in zip(Self.stroke, Self.stroke.dropFirst()) {
            for step in 0...10 {
                let t = Double(step) / 10
                let x = Int(a.x + (b.x - a.x) * t), y = Int(a.y + (b.y - a.y) * t)
                let pixel = after.rgb(x, y)
                #expect(abs(pixel.red - Int(color.red)) < 40 && abs(pixel.green - Int(color.green)) < 40
                        && abs(pixel.blue - Int(color.blue)) < 40, "stroke colour at \(x),\(y) on page \(page): \(pixel)")
            }
        }
        #expect(try QPDFCheck.errors(in: output) == nil)
    }

    @Test func highlightedTextStaysExtractableAndVisible() throws {
        // The sample's title, Helvetica-Bold 28 pt, sits between about y = 50 and 72 on page 1.
        let folder = TemporaryFolder()
        let output = folder.file("highlight.pdf")
        let yellow = RGBColor(hex: "#FFD000")!
        let highlight = InkMarkup(strokes: [[Point(x: 66, y: 62), Point(x: 380, y: 62)]], width: 24,
                                  color: .custom(yellow), opacity: InkMarkup.highlighterOpacity)
        try Saving.save([(0, .ink(highlight))], from: TestPaths.sample, to: output)
        let words = try PopplerText.words(in: output, page: 1).map(\.text)
        #expect(words.contains("Redline") && words.contains("sample") && words.contains("document"))

        let before = try PopplerRender.page(1, of: TestPaths.sample), after = try PopplerRender.page(1, of: output)
        var blendedPaper = 0, visibleInk = 0
        for y in 54...70 {
            for x in 70...370 {
                let old = before.rgb(x, y), new = after.rgb(x, y)
                if old.red > 250 && old.green > 250 && old.blue > 250 {
                    // Paper under the highlighter: a blend, neither white nor the solid colour.
                    let expectedBlue = Int(255 * (1 - InkMarkup.highlighterOpacity) + Double(yellow.blue) * InkMarkup.highlighterOpacity)
                    #expect(abs(new.blue - expectedBlue) < 12, "blend at \(x),\(y): \(new)")
                    #expect(new.blue > Int(yellow.blue) + 60)
                    blendedPaper += 1
                } else if old.red + old.green + old.blue < 150 {
                    // The title's black letters still show through: far darker than highlighted paper (sum ≈ 659).
                    #expect(new.red + new.green + new.blue < 400, "letter at \(x),\(y) hidden: \(new)")
                    visibleInk += 1
                }
            }
        }
        #expect(blendedPaper > 500 && visibleInk > 200)
    }
}
