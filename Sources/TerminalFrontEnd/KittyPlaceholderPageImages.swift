import CellPictures
import Editor
import RedlineCore
import TerminalGrid

/// kitty's graphics through tmux: the page area is cut into tiles, each an image with a virtual placement, and its
/// cells are kitty's placeholder cells, which ncurses draws and tmux keeps like any text. The page and its markup
/// go in the tiles together; a nudge sends again only the tiles the markup's old and new places touch. Every
/// escape is wrapped for tmux's passthrough.
final class KittyPlaceholderPageImages: PageImages {
    private let colors: Int
    private var lastScene: PageScene?
    private var lastArea: CellRect?

    init(colors: Int) {
        self.colors = colors
    }

    /// Tiles at most this many cells across and down: a few KB to a few tens of KB each.
    static let tileColumns = 16
    static let tileRows = 8

    /// The tiles of a page area, row by row; tile `i` is image `i + 1`.
    static func tiles(columns: Int, rows: Int) -> [CellRect] {
        var width = tileColumns, height = tileRows
        // A placeholder can name images 1 to 255 in every colour depth: a wider area takes bigger tiles.
        while ((columns + width - 1) / width) * ((rows + height - 1) / height) > KittyPlaceholders.largestImageID,
              width < KittyPlaceholders.marks.count {
            width = min(KittyPlaceholders.marks.count, width * 2)
            height = min(KittyPlaceholders.marks.count, height * 2)
        }
        var tiles: [CellRect] = []
        for row in stride(from: 0, to: rows, by: height) {
            for column in stride(from: 0, to: columns, by: width) {
                tiles.append(CellRect(column: column, row: row, width: min(width, columns - column), height: min(height, rows - row)))
            }
        }
        return tiles
    }

    func cells(for scene: PageScene) -> CellGrid {
        var grid = CellGrid(columns: scene.viewport.columns, rows: scene.viewport.rows)
        for (index, tile) in Self.tiles(columns: grid.columns, rows: grid.rows).enumerated() where index < KittyPlaceholders.largestImageID {
            for row in 0..<tile.height {
                for column in 0..<tile.width {
                    grid[tile.column + column, tile.row + row] = KittyPlaceholders.cell(image: index + 1, row: row, column: column,
                                                                                       colors: colors)
                }
            }
        }
        return grid
    }

    func frame(scene: PageScene?, pictures: PagePictureMaker, area: CellRect, grid: CellGrid, previous: CellGrid?,
               fullRepaint: Bool) -> String {
        guard let scene, pictures.keptRaster(for: scene) != nil else { return "" }
        defer {
            lastScene = scene
            lastArea = area
        }
        let tiles = Self.tiles(columns: area.width, rows: area.height)
        var changed: [CellRect]?
        if let lastScene, lastArea == area {
            if lastScene == scene { return "" }
            changed = DirtyCells.between(lastScene, scene, measurer: pictures.measurer)
        }
        var out = ""
        for (index, tile) in tiles.enumerated() where index < KittyPlaceholders.largestImageID {
            if let changed, !changed.contains(where: { $0.intersection(tile) != nil }) { continue }
            let pixels = pictures.composite(scene, in: tile)
            let command = KittyGraphicsCommands.transmitVirtual(image: index + 1, columns: tile.width, rows: tile.height,
                                                                width: pixels.width, height: pixels.height,
                                                                compressed: ZlibCompression.compress(PixelLayouts.rgb(pixels)),
                                                                format: 24)
            out += TmuxPassthrough.wrap(command)
        }
        return out
    }

    func farewell() -> String {
        guard let lastArea else { return "" }
        let count = min(KittyPlaceholders.largestImageID, Self.tiles(columns: lastArea.width, rows: lastArea.height).count)
        return (1...max(1, count)).map { TmuxPassthrough.wrap(KittyGraphicsCommands.delete(image: $0, freeing: true)) }.joined()
    }
}
