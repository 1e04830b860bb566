import Editor
import RedlineCore
import TerminalGrid

/// Sixel and iTerm2 images: pixels that take the place of the cells they cover, until something is written into
/// those cells. So after each frame the cells that need pixels again are those whose picture changed (a nudge: the
/// markup's old and new cells), and those ncurses wrote into; an image never covers a cell showing something else
/// (the cursor, an overlay, a label).
final class CellReplacingPageImages: PageImages {
    private let cell: TerminalReplies.PixelSize
    /// Pixels of a rect of cells as the protocol's image.
    private let encode: (PageRaster, Int, Int) -> String

    func cells(for scene: PageScene) -> CellGrid {
        var grid = CellGrid(columns: scene.viewport.columns, rows: scene.viewport.rows)
        for row in 0..<grid.rows { for column in 0..<grid.columns { grid[column, row] = Self.filler } }
        return grid
    }
    private var lastScene: PageScene?
    /// Whether the last frame's images reached into the row below the page area (the status line), which must then
    /// be drawn again.
    private(set) var paintsBelowArea = false
    /// Sixel paints bands six pixels tall: an image's height is a whole number of bands.
    private let band: Int
    /// The most cells one image may cover: the terminal's largest image (xterm shows nothing of a larger one, and
    /// a window over 1000 pixels wide used to show only a strip), less a band for the last one's overreach.
    private let largest: (columns: Int, rows: Int)

    /// What the page area's cells hold under the images: an empty braille pattern, which shows nothing but is no
    /// space. Over spaces ncurses may erase the rest of a line (EL) to draw one changed cell, wiping the images of
    /// cells it never reports; over these it writes only the cells that changed, which are then sent again.
    static let filler = Cell("\u{2800}")

    init(cell: TerminalReplies.PixelSize, band: Int = 1, largestImage: TerminalReplies.PixelSize? = nil,
         encode: @escaping (PageRaster, _ columns: Int, _ rows: Int) -> String) {
        self.cell = cell
        self.band = band
        self.encode = encode
        largest = largestImage.map { (max(1, $0.width / cell.width), max(1, ($0.height - band) / cell.height)) } ?? (Int.max, Int.max)
    }

    func frame(scene: PageScene?, pictures: PagePictureMaker, area: CellRect, grid: CellGrid, previous: CellGrid?,
               fullRepaint: Bool) -> String {
        defer { lastScene = scene }
        paintsBelowArea = false
        guard let scene, pictures.keptRaster(for: scene) != nil else { return "" }
        var dirty = [[Bool]](repeating: [Bool](repeating: false, count: area.width), count: area.height)
        func mark(_ rect: CellRect) {
            for row in rect.row..<rect.maxRow where row >= 0 && row < area.height {
                for column in rect.column..<rect.maxColumn where column >= 0 && column < area.width { dirty[row][column] = true }
            }
        }
        let whole = CellRect(column: 0, row: 0, width: area.width, height: area.height)
        if fullRepaint || previous == nil || lastScene == nil {
            mark(whole)
        } else if let lastScene, lastScene != scene {
            if let rects = DirtyCells.between(lastScene, scene, measurer: pictures.measurer) { rects.forEach(mark) } else { mark(whole) }
        }
        if let previous, !fullRepaint {
            for change in grid.changes(since: previous) where area.contains(column: change.column, row: change.row) {
                dirty[change.row - area.row][change.column - area.column] = true
            }
        }
        // Only the picture's own cells get pixels: what ncurses draws there (the cursor, a label) stays readable.
        for row in 0..<area.height {
            for column in 0..<area.width where dirty[row][column] && grid[area.column + column, area.row + row] != Self.filler {
                dirty[row][column] = false
            }
        }
        var out = ""
        // Top to bottom: a sixel image's last band reaches into the row below it, which the next image then paints.
        let pieces = Self.rects(of: dirty).flatMap { Self.split($0, columns: largest.columns, rows: largest.rows) }
        for rect in pieces.sorted(by: { ($0.row, $0.column) < ($1.row, $1.column) }) {
            out += CursorPlacement.at(column: area.column + rect.column, row: area.row + rect.row,
                                      encode(banded(pictures, scene, rect, areaRows: area.height), rect.width, rect.height))
        }
        return out
    }

    /// The rect's pixels, as many rows as whole bands take: reaching into the page's next row, which shows the same
    /// pixels there, or at the page area's foot into the status line, which is then drawn again (stopping short
    /// would leave the page area's last pixel rows unpainted).
    private func banded(_ pictures: PagePictureMaker, _ scene: PageScene, _ rect: CellRect, areaRows: Int) -> PageRaster {
        let height = rect.height * cell.height
        guard band > 1, height % band != 0 else { return pictures.composite(scene, in: rect) }
        if rect.maxRow >= areaRows { paintsBelowArea = true }
        let wanted = (height + band - 1) / band * band
        var grown = rect
        grown.height += 1
        let pixels = pictures.composite(scene, in: grown)
        let rows = min(wanted, pixels.height)
        return PageRaster(width: pixels.width, height: rows, stride: pixels.stride, pixels: Array(pixels.pixels.prefix(rows * pixels.stride)))
    }

    /// A rect in pieces of at most `columns` × `rows` cells, row by row.
    static func split(_ rect: CellRect, columns: Int, rows: Int) -> [CellRect] {
        guard rect.width > columns || rect.height > rows else { return [rect] }
        var pieces: [CellRect] = []
        for row in stride(from: rect.row, to: rect.maxRow, by: rows) {
            for column in stride(from: rect.column, to: rect.maxColumn, by: columns) {
                pieces.append(CellRect(column: column, row: row, width: min(columns, rect.maxColumn - column),
                                       height: min(rows, rect.maxRow - row)))
            }
        }
        return pieces
    }

    /// Marked cells as few rects: runs along each row, joined down while the next row has the same run.
    static func rects(of marked: [[Bool]]) -> [CellRect] {
        var open: [CellRect] = []
        var done: [CellRect] = []
        for (row, cells) in marked.enumerated() {
            var runs: [CellRect] = []
            var column = 0
            while column < cells.count {
                guard cells[column] else { column += 1; continue }
                let start = column
                while column < cells.count && cells[column] { column += 1 }
                runs.append(CellRect(column: start, row: row, width: column - start, height: 1))
            }
            var next: [CellRect] = []
            for run in runs {
                if let index = open.firstIndex(where: { $0.column == run.column && $0.width == run.width }) {
                    var grown = open.remove(at: index)
                    grown.height += 1
                    next.append(grown)
                } else {
                    next.append(run)
                }
            }
            done += open
            open = next
        }
        return done + open
    }

    func farewell() -> String { "" }
}
