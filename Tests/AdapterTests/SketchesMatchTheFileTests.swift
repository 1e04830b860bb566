import Editor
import Foundation
import PDFRendering
import RedlineCore
import RedlineKit
import TerminalFrontEnd
import TestSupport
import Testing

/// Shapes, lines, polygons, notes and carets drawn from their keys (what a shared session shows for annotations
/// others made or changed) cover what poppler draws from their appearance streams, in the same colours.
@Suite struct SketchesMatchTheFileTests {
    @Test func everySketchedAnnotationOfARealFileCoversWhatPopplerDraws() throws {
        let source = TestPaths.fixture("pdfjs_issue14438.pdf")
        let services = Saving.services
        let document = try OpenedDocument(path: source, password: nil)
        var state = EditorState(documentPath: source, document: document.description, columns: 160, rows: 60, pageIndex: 0)
        let viewport = state.scene(environment: EditorEnvironment(measurer: services.measurer)).viewport
        let maker = PagePictureMaker(renderer: document.renderer, services: services, depth: .truecolor)
        let annotations = document.description.annotations.filter { $0.pageIndex == 0 }
        let drawn = maker.composite(PageScene(pageIndex: 0, viewport: viewport, markup: [], highlight: nil))
        var kinds: Set<String> = []
        var filled = 0
        for annotation in annotations {
            guard let sketch = AnnotationSketch(annotation) else { continue }
            kinds.insert(annotation.subtype.rawValue)
            let hidden = AnnotationEdits().shownChanges(onPage: 0, of: annotations, hiding: [annotation.id])
            let without = maker.composite(PageScene(pageIndex: 0, viewport: viewport, markup: [], highlight: nil, annotationEdits: hidden))
            let sketched = maker.composite(PageScene(pageIndex: 0, viewport: viewport, markup: [], sketches: [sketch], highlight: nil,
                                                     annotationEdits: hidden))
            let byPoppler = try #require(changedBox(without, drawn), "poppler draws \(annotation.subtype.rawValue) where shown")
            let bySketch = try #require(changedBox(without, sketched), "the sketch of \(annotation.subtype.rawValue) draws")
            #expect(overlap(byPoppler, bySketch) >= 0.6,
                    "\(annotation.subtype.rawValue) \(annotation.id): poppler's \(byPoppler), sketched \(bySketch)")
            let colours = (mean(without, drawn, in: byPoppler), mean(without, sketched, in: bySketch))
            #expect(distance(colours.0, colours.1) < 90, "\(annotation.subtype.rawValue): poppler's \(colours.0), sketched \(colours.1)")
            // A filled shape, pixel by pixel over its box, what is under it included (an area highlight lets the words
            // show). Thin outlines are a pixel off here and there, which says nothing: the box and colour above do.
            if sketch.fill != nil, annotation.subtype.rawValue != "Text" {
                let apart = meanDifference(drawn, sketched, in: byPoppler)
                #expect(apart < 40, "\(annotation.subtype.rawValue): the two pictures differ by \(apart) on average")
                filled += 1
            }
        }
        #expect(kinds == ["Square", "Circle", "Line", "Polygon", "Text", "Caret"])
        #expect(filled == 1)
    }

    /// The box around the pixels that differ between two pictures of the page area (x, y, x + 1, y + 1).
    private func changedBox(_ a: PageRaster, _ b: PageRaster) -> [Int]? {
        var box: [Int]?
        for y in 0..<a.height {
            for x in 0..<a.width where difference(a.rgb(x: x, y: y), b.rgb(x: x, y: y)) > 96 {
                box = box.map { [min($0[0], x), min($0[1], y), max($0[2], x + 1), max($0[3], y + 1)] } ?? [x, y, x + 1, y + 1]
            }
        }
        return box
    }

    /// How much two boxes share: their intersection's area over their union's.
    private func overlap(_ a: [Int], _ b: [Int]) -> Double {
        let width = max(0, min(a[2], b[2]) - max(a[0], b[0])), height = max(0, min(a[3], b[3]) - max(a[1], b[1]))
        let area = { (box: [Int]) in Double((box[2] - box[0]) * (box[3] - box[1])) }
        let shared = Double(width * height)
        return shared / (area(a) + area(b) - shared)
    }

    /// The mean colour of the pixels of `b` that differ from `a`, within `box`.
    private func mean(_ a: PageRaster, _ b: PageRaster, in box: [Int]) -> [Double] {
        var sum = [0.0, 0.0, 0.0], count = 0.0
        for y in box[1]..<box[3] {
            for x in box[0]..<box[2] {
                let p = a.rgb(x: x, y: y), q = b.rgb(x: x, y: y)
                guard difference(p, q) > 96 else { continue }
                sum[0] += Double(q.red)
                sum[1] += Double(q.green)
                sum[2] += Double(q.blue)
                count += 1
            }
        }
        return sum.map { $0 / max(1, count) }
    }

    /// How far apart two pictures are within `box`: the mean of each pixel's summed channel differences.
    private func meanDifference(_ a: PageRaster, _ b: PageRaster, in box: [Int]) -> Double {
        var sum = 0, count = 0
        for y in box[1]..<box[3] {
            for x in box[0]..<box[2] {
                sum += difference(a.rgb(x: x, y: y), b.rgb(x: x, y: y))
                count += 1
            }
        }
        return Double(sum) / Double(max(1, count))
    }

    private func difference(_ p: (red: UInt8, green: UInt8, blue: UInt8), _ q: (red: UInt8, green: UInt8, blue: UInt8)) -> Int {
        abs(Int(p.red) - Int(q.red)) + abs(Int(p.green) - Int(q.green)) + abs(Int(p.blue) - Int(q.blue))
    }

    private func distance(_ a: [Double], _ b: [Double]) -> Double {
        zip(a, b).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot()
    }
}

@Suite struct StampSketchTests {
    /// A stamp is its words in its colour inside its box, and nothing outside it.
    @Test func aStampIsDrawnInsideItsBoxInItsColour() throws {
        let source = TestPaths.packageRoot.appendingPathComponent("Resources/sample.pdf").path
        let services = Saving.services
        let document = try OpenedDocument(path: source, password: nil)
        let state = EditorState(documentPath: source, document: document.description, columns: 160, rows: 60, pageIndex: 0)
        let viewport = state.scene(environment: EditorEnvironment(measurer: services.measurer)).viewport
        let maker = PagePictureMaker(renderer: document.renderer, services: services, depth: .truecolor)
        let box = Rect(x: 300, y: 400, width: 200, height: 60)
        let stamp = AnnotationSketch(shape: .stamp(box, words: "APPROVED"), stroke: RGBColor(red: 0, green: 150, blue: 0), width: 2)
        let plain = maker.composite(PageScene(pageIndex: 0, viewport: viewport, markup: [], highlight: nil))
        let stamped = maker.composite(PageScene(pageIndex: 0, viewport: viewport, markup: [], sketches: [stamp], highlight: nil))
        let origin = viewport.originPixel
        var inside = 0, outside = 0, green = 0
        for y in 0..<plain.height {
            for x in 0..<plain.width {
                let p = plain.rgb(x: x, y: y), q = stamped.rgb(x: x, y: y)
                guard p != q else { continue }
                let point = Point(x: (Double(x + origin.x)) / viewport.scale, y: Double(y + origin.y) / viewport.scale)
                if box.insetBy(dx: -1, dy: -1).contains(point) { inside += 1 } else { outside += 1 }
                if Int(q.green) > Int(q.red) + 60 { green += 1 }
            }
        }
        // The border and the words: a good part of the box's pixels, most of them green.
        let boxPixels = box.width * box.height * viewport.scale * viewport.scale
        #expect(Double(inside) > boxPixels * 0.1 && outside == 0, "\(inside) inside, \(outside) outside")
        #expect(Double(green) > Double(inside) * 0.5)
    }
}
