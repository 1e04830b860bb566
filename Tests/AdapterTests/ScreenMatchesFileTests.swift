import CellPictures
import Editor
import TerminalGrid
import Foundation
import PDFRendering
import RedlineKit
import TerminalFrontEnd
import RedlineCore
import TestSupport
import Testing

/// What you see is what is saved: the cells the markup covers on screen are the cells it covers when
/// poppler renders the saved file at the same scale.
@Suite struct ScreenMatchesFileTests {
    @Test(arguments: [("Resources/sample.pdf", 0), ("Resources/sample.pdf", 2), ("qpdf_boxes.pdf", 1), ("qpdf_boxes.pdf", 2),
                      ("qpdf_boxes.pdf", 3)])
    func markupCoversTheSameCellsOnScreenAndInTheSavedFile(fixture: String, page: Int) throws {
        let source = fixture.hasPrefix("Resources/") ? TestPaths.packageRoot.appendingPathComponent(fixture).path
            : TestPaths.fixture(fixture)
        let services = Saving.services
        let environment = EditorEnvironment(measurer: services.measurer)
        let document = try OpenedDocument(path: source, password: nil)
        var state = EditorState(documentPath: source, document: document.description, columns: 100, rows: 40, pageIndex: page)
        state.zoom = 2
        var keys = StampedKeys()
        state.cursor = Point(x: 90, y: 130)
        state.textStyle.fontSize = 24
        state.textStyle.color = .blue
        // Esc after Enter deselects: the selection's outline is the screen's, not the file's.
        keys.press([.character("t")] + "Wysiwyg".map(Key.character) + [.enter, .escape], on: &state, environment: environment)
        #expect(state.markup.items.map(\.content) == [.text(TextMarkup(origin: Point(x: 90, y: 130), text: "Wysiwyg", fontSize: 24, color: .blue))])
        let scene = state.scene(environment: environment)

        let maker = PagePictureMaker(renderer: document.renderer, services: services, depth: .truecolor)
        let plain = maker.composite(PageScene(pageIndex: page, viewport: scene.viewport, markup: [], highlight: nil))
        let onScreen = maker.composite(scene)

        let folder = TemporaryFolder()
        let output = folder.file("saved.pdf")
        try DocumentSaver(services: services).save(state.markup, source: source, password: nil,
                                                    description: document.description, to: output)
        let saved = PagePictureMaker(renderer: try OpenedDocument(path: output, password: nil).renderer,
                                     services: services, depth: .truecolor)
        let inFile = saved.composite(PageScene(pageIndex: page, viewport: scene.viewport, markup: [], highlight: nil))

        // Glyph edges are antialiased a little differently by the two paths; the cells the markup spans must agree.
        let screenCells = try #require(cellExtent(changedCells(plain, onScreen, cell: scene.viewport.cellPixels)))
        let fileCells = try #require(cellExtent(changedCells(plain, inFile, cell: scene.viewport.cellPixels)))
        #expect(screenCells == fileCells)
        // And they are where the markup was asked for: column of x = 90 pt, row of y = 130 pt.
        let corner = scene.viewport.cell(for: Point(x: 90, y: 130))
        #expect(abs(screenCells.minColumn - corner.column) <= 1 && abs(screenCells.minRow - corner.row) <= 1)
    }

    private struct CellExtent: Equatable {
        let minColumn, minRow, maxColumn, maxRow: Int
    }

    private func cellExtent(_ cells: Set<[Int]>) -> CellExtent? {
        guard !cells.isEmpty else { return nil }
        return CellExtent(minColumn: cells.map { $0[0] }.min()!, minRow: cells.map { $0[1] }.min()!,
                          maxColumn: cells.map { $0[0] }.max()!, maxRow: cells.map { $0[1] }.max()!)
    }

    /// Cells where more than a speck (8 of 128 pixels) differs between two pictures of the page area.
    private func changedCells(_ a: PageRaster, _ b: PageRaster, cell: CellPixelSize) -> Set<[Int]> {
        var counts: [[Int]: Int] = [:]
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.rgb(x: x, y: y), q = b.rgb(x: x, y: y)
                let difference = abs(Int(p.red) - Int(q.red)) + abs(Int(p.green) - Int(q.green)) + abs(Int(p.blue) - Int(q.blue))
                if difference > 96 { counts[[x / cell.width, y / cell.height], default: 0] += 1 }
            }
        }
        return Set(counts.filter { $0.value >= 8 }.keys)
    }

    @Test func aNudgeOrAnInkSegmentRedrawsWithoutRenderingThePageAgain() throws {
        let services = Saving.services
        let environment = EditorEnvironment(measurer: services.measurer)
        let document = try OpenedDocument(path: TestPaths.sample, password: nil)
        var state = EditorState(documentPath: TestPaths.sample, document: document.description, columns: 80, rows: 30)
        let maker = PagePictureMaker(renderer: document.renderer, services: services, depth: .palette256)
        var keys = StampedKeys()
        keys.press([.character("t"), .character("H"), .character("i"), .enter], on: &state, environment: environment)
        let first = maker.picture(for: state.scene(environment: environment))
        #expect(maker.renderCount == 1)
        for key in [Key.right, .right, .shiftDown, .character("+")] {
            keys.press([key], on: &state, environment: environment)
            _ = maker.picture(for: state.scene(environment: environment))
        }
        #expect(maker.renderCount == 1)
        #expect(maker.picture(for: state.scene(environment: environment)) != first)
        // Drawing ink, segment by segment, composites over the same raster too.
        for key in [Key.escape, .character("i"), .character(" "), .shiftRight, .shiftDown, .right, .enter, .escape] {
            keys.press([key], on: &state, environment: environment)
            _ = maker.picture(for: state.scene(environment: environment))
        }
        #expect(state.markup.items.count == 2)
        #expect(maker.renderCount == 1)
        keys.press([.character("j")], on: &state, environment: environment)
        _ = maker.picture(for: state.scene(environment: environment))
        #expect(maker.renderCount == 2)
    }

    @Test(arguments: ColorDepth.allCases)
    func chafaDrawsAPageIntoCellsAtEveryColourDepth(depth: ColorDepth) {
        // Left half black, right half white, split on a cell boundary: every cell must look as dark or as light
        // as the part of the page it shows, at every depth.
        var raster = PageRaster(width: 160, height: 160, filledWith: 0xFFFFFF)
        for y in 0..<160 { for x in 0..<80 { for channel in 0..<3 { raster.pixels[y * raster.stride + x * 4 + channel] = 0 } } }
        let grid = ChafaCellEncoder(depth: depth).encode(pixels: raster.pixels, width: 160, height: 160, stride: raster.stride,
                                                         columns: 20, rows: 10)
        #expect(grid.columns == 20 && grid.rows == 10)
        for row in 0..<10 {
            for column in 0..<20 {
                let lightness = Self.apparentLightness(grid[column, row])
                if column < 10 {
                    #expect(lightness < 0.2, "cell \(column),\(row) at \(depth) looks light: \(grid[column, row])")
                } else {
                    #expect(lightness > 0.7, "cell \(column),\(row) at \(depth) looks dark: \(grid[column, row])")
                }
            }
        }
    }

    /// How light a cell looks, 0 to 1: its background where the character leaves it bare, its foreground
    /// where the glyph covers it, half and half for the partial blocks.
    static func apparentLightness(_ cell: Cell) -> Double {
        func lightness(_ color: TerminalColor) -> Double {
            switch color {
            case .default: return .nan
            case .indexed(let index):
                let rgb = XtermPalette.rgb(index)
                return (Double(rgb.red) + Double(rgb.green) + Double(rgb.blue)) / 765
            case .rgb(let red, let green, let blue): return (Double(red) + Double(green) + Double(blue)) / 765
            }
        }
        let foreground = lightness(cell.style.foreground), background = lightness(cell.style.background)
        switch cell.character {
        case " ": return cell.style.reverse ? foreground : background
        case "█": return cell.style.reverse ? background : foreground
        default: return (foreground + background) / 2
        }
    }
}
