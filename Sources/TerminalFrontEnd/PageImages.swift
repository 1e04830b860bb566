import CellPictures
import Editor
import Foundation
import PDFRendering
import RedlineCore
import TerminalGrid

/// The page as pixels, in a terminal with a graphics protocol: what to write after each frame so the page area
/// shows the scene. The cells ncurses draws there are blank (kitty, sixel, iTerm2) or placeholders (kitty through
/// tmux); this writes the images those cells show. Each mode writes only what changed since the last frame.
protocol PageImages: AnyObject {
    /// The cells to draw in the page area for a scene shown as pixels: blanks, or kitty's placeholder cells.
    func cells(for scene: PageScene) -> CellGrid
    /// The escapes that bring the terminal's images up to date after `grid` was presented.
    /// `scene` is nil when the page area shows no picture (the text view, a page still rendering the first time).
    /// `fullRepaint`: the terminal was cleared for this frame, so whatever it showed is gone.
    func frame(scene: PageScene?, pictures: PagePictureMaker, area: CellRect, grid: CellGrid, previous: CellGrid?,
               fullRepaint: Bool) -> String
    /// What removes every image the editor placed, as it quits.
    func farewell() -> String
    /// The terminal said it no longer holds image `id` (kitty evicts images when its store is full): whatever
    /// showed it must be sent again.
    func imageMissing(_ id: Int)
    /// Whether the last frame's images reached into the row below the page area, which must be drawn again.
    var paintsBelowArea: Bool { get }
}

extension PageImages {
    var paintsBelowArea: Bool { false }
    func imageMissing(_ id: Int) {}

    /// Blank cells: the image lies under them (kitty) or takes their place (sixel, iTerm2).
    func cells(for scene: PageScene) -> CellGrid {
        CellGrid(columns: scene.viewport.columns, rows: scene.viewport.rows)
    }
}

enum PageImagesFactory {
    static func make(for choice: GraphicsChoice, colors: Int) -> (any PageImages)? {
        guard let cell = choice.cellPixels else { return nil }
        switch choice.mode {
        case .symbols: return nil
        case .kitty: return KittyPageImages(cell: cell, sharedMemory: choice.sharedMemory)
        case .kittyPlaceholders: return KittyPlaceholderPageImages(colors: colors)
        case .sixel:
            let encoder = SixelEncoder()
            // One row of cells as tall as the pixels: chafa then neither scales them nor pads the last band.
            return CellReplacingPageImages(cell: cell, band: 6, largestImage: choice.largestImage) { raster, columns, _ in
                encoder.encode(pixels: raster.pixels, width: raster.width, height: raster.height, stride: raster.stride,
                               columns: columns, rows: 1, cellWidth: cell.width, cellHeight: raster.height)
            }
        case .iterm2:
            return CellReplacingPageImages(cell: cell) { raster, columns, rows in
                let png = PNGEncoding.png(raster)
                return "\u{1B}]1337;File=inline=1;size=\(png.count);width=\(columns);height=\(rows);preserveAspectRatio=0;"
                    + "doNotMoveCursor=1:" + Base64.encode(png) + "\u{07}"
            }
        }
    }
}

/// Cursor moves that leave ncurses' idea of the cursor true: the position is saved before and restored after.
enum CursorPlacement {
    static func at(column: Int, row: Int, _ body: String) -> String {
        "\u{1B}7\u{1B}[\(row + 1);\(column + 1)H" + body + "\u{1B}8"
    }
}

/// Which cells of the page area the scene's markup, marks and outline cover, with room for antialiasing: the part
/// of the area a markup layer must hold.
enum MarkupCells {
    static func covered(by scene: PageScene, measurer: any TextMeasuring) -> CellRect? {
        let pixel = 1 / scene.viewport.scale
        var boxes = scene.markup.map { DirtyCells.paintedBox(of: $0, measurer: measurer, pixel: pixel) }
        boxes += scene.sketches.map { DirtyCells.paintedBox(of: $0, pixel: pixel) }
        boxes += scene.marks.map { $0.rect.insetBy(dx: -3 * pixel, dy: -3 * pixel) }
        if let highlight = scene.highlight { boxes.append(DirtyCells.paintedBox(ofHighlight: highlight, pixel: pixel)) }
        return boxes.compactMap { DirtyCells.cells(covering: $0, in: scene.viewport, margin: 0) }
            .reduce(nil) { union, cells in union?.bounding(cells) ?? cells }
    }
}

extension CellRect {
    func bounding(_ other: CellRect) -> CellRect {
        let column = min(self.column, other.column), row = min(self.row, other.row)
        return CellRect(column: column, row: row, width: max(maxColumn, other.maxColumn) - column,
                        height: max(maxRow, other.maxRow) - row)
    }
}
