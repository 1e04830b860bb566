import Editor
import Foundation
import NcursesTerminal
import RedlineCore
import RedlineKit
import TerminalGrid

extension Benchmark {
    /// The pixel modes' figures: the first frame (the page sent) and a nudge frame (only the markup, or its cells),
    /// in time and in the bytes written to the terminal, cells and images together. A 10×20-pixel cell, as a
    /// terminal at a common font size has; kitty by direct transfer (shared memory is local only).
    static func pixelModes(path: String, password: String?, columns: Int, rows: Int) throws -> [Figure] {
        let services = RedlineServices()
        let cell = GraphicsChoice.assumedCell
        let environment = EditorEnvironment(measurer: services.measurer,
                                            cellPixels: CellPixelSize(width: cell.width, height: cell.height))
        let document = try OpenedDocument(path: path, password: password)
        var figures: [Figure] = []
        for mode in [GraphicsMode.kitty, .sixel] {
            guard let screen = NcursesScreen(measuring: "xterm-256color", columns: columns, rows: rows),
                  let images = PageImagesFactory.make(for: GraphicsChoice(mode: mode, cellPixels: cell), colors: screen.colors)
            else { continue }
            var state = EditorState(documentPath: path, document: document.description, columns: columns, rows: rows)
            let maker = PagePictureMaker(renderer: document.renderer, services: services, depth: .palette256)
            maker.makesCells = false
            var previous: CellGrid?
            func frame() -> Int {
                let before = screen.bytesWritten
                let scene = state.scene(environment: environment)
                if let key = maker.missingRaster(for: scene) {
                    maker.store(document.renderer.render(page: key.page, scale: key.scale), for: key)
                }
                let grid = EditorView.draw(state, environment: environment, picture: images.cells(for: scene))
                screen.present(grid)
                screen.writeImages(images.frame(scene: scene, pictures: maker, area: state.layout.pageArea, grid: grid,
                                                previous: previous, fullRepaint: previous == nil))
                previous = grid
                return screen.bytesWritten - before
            }
            func press(_ key: Key) {
                let stamp = EventStamp(time: PDFDate(Date(), timeZone: .current), seed: UUID())
                _ = EditorReducer.reduce(&state, .keyPressed(key), at: stamp, environment: environment)
            }
            var firstBytes = 0
            let first = measure("\(mode.rawValue): first page sent", runs: 1) { firstBytes = frame() }
            figures.append(first)
            figures.append(Figure(name: "\(mode.rawValue): first frame, bytes", median: .zero, best: .zero, runs: 1,
                                  bytes: (firstBytes, firstBytes)))
            for key in [Key.character("t")] + "Approved".map(Key.character) + [.enter] { press(key) }
            _ = frame()
            var nudgeBytes: [Int] = []
            figures.append(measure("\(mode.rawValue): nudge frame", runs: 30) {
                press(.right)
                nudgeBytes.append(frame())
            })
            nudgeBytes.sort()
            figures.append(Figure(name: "\(mode.rawValue): nudge frame, bytes", median: .zero, best: .zero, runs: nudgeBytes.count,
                                  bytes: (nudgeBytes[nudgeBytes.count / 2], nudgeBytes[0])))
        }
        return figures
    }
}
