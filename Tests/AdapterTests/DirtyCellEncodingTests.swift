import CellPictures
import Editor
import Foundation
import RedlineCore
import RedlineKit
import TerminalFrontEnd
import TerminalGrid
import TestSupport
import Testing

/// A nudge makes again only the cells its markup covered and covers; those must be exactly the cells a picture of
/// the whole page area would have there, at every colour depth, on real pages.
@Suite struct DirtyCellEncodingTests {
    @Test(arguments: [ColorDepth.truecolor, .palette256, .palette16, .palette8])
    func nudgesTypingAndInkGiveTheWholePicturesCells(depth: ColorDepth) throws {
        for (file, page) in [(TestPaths.sample, 0), (TestPaths.fixture("pypdf_GeoTopo-komprimiert.pdf"), 19)] {
            let services = Saving.services
            let environment = EditorEnvironment(measurer: services.measurer)
            let document = try OpenedDocument(path: file, password: nil)
            var state = EditorState(documentPath: file, document: document.description, columns: 120, rows: 40, pageIndex: page)
            var keys = StampedKeys()
            let maker = PagePictureMaker(renderer: document.renderer, services: services, depth: depth)
            let reference = PagePictureMaker(renderer: document.renderer, services: services, depth: depth)
            var incremental = 0
            func check(_ step: String) {
                let scene = state.scene(environment: environment)
                let picture = maker.picture(for: scene)
                let whole = reference.wholePicture(for: scene)
                if maker.lastEncodedCells < scene.viewport.columns * scene.viewport.rows { incremental += 1 }
                let differing = zip(picture.cells, whole.cells).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
                #expect(differing.isEmpty, "\(depth) \(file) after \(step): \(differing.count) cells differ, first at \(differing.first.map { ($0 % 120, $0 / 120) } as Any)")
            }
            state.cursor = Point(x: 120, y: 140)
            check("opening")
            keys.press([.character("t")] + "Reviewed".map(Key.character), on: &state, environment: environment)
            check("typing")
            keys.press([.enter], on: &state, environment: environment)
            check("committing")
            for (index, key) in [Key.right, .right, .down, .shiftRight, .shiftDown, .left, .up, .shiftLeft].enumerated() {
                keys.press([key], on: &state, environment: environment)
                check("nudge \(index)")
            }
            keys.press([.character("+"), .character("c")], on: &state, environment: environment)
            check("bigger and recoloured")
            keys.press([.escape], on: &state, environment: environment)
            check("deselected")
            keys.press([.character("i"), .character(" ")], on: &state, environment: environment)
            for (index, key) in [Key.shiftRight, .shiftRight, .shiftDown, .right, .shiftLeft].enumerated() {
                keys.press([key], on: &state, environment: environment)
                check("ink segment \(index)")
            }
            keys.press([.character("h"), .shiftDown, .shiftRight, .escape], on: &state, environment: environment)
            check("highlighter")
            keys.press([.tab], on: &state, environment: environment)
            check("selected again")
            keys.press([.character("x")], on: &state, environment: environment)
            check("deleted")
            keys.press([.character("u")], on: &state, environment: environment)
            check("undone")
            #expect(incremental >= 20, "the markup-only changes took the dirty-cell path: \(incremental)")
        }
    }
}
