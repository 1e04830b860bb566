/// The size of one terminal cell in raster pixels. Pages are rasterised at this many pixels per cell,
/// so a cell covers a fixed patch of the page and markup lands on the same cell on screen and in the file.
public struct CellPixelSize: Sendable, Hashable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Terminal cells are about twice as tall as wide.
    public static let standard = CellPixelSize(width: 8, height: 16)
}

/// Maps between display-space points of one page and the cells of the page area on screen.
public struct PageViewport: Sendable, Hashable {
    public var pageSize: Size
    /// Raster pixels per point.
    public var scale: Double
    public var cellPixels: CellPixelSize
    /// The raster pixel shown at the top-left corner of the page area; negative when the page is centred.
    public var originPixel: (x: Int, y: Int)
    public var columns: Int
    public var rows: Int
    /// The text view's columns, placed row by row through the page's words, and its rows, each spanning its
    /// line; nil for the picture, whose cells are evenly spaced.
    public var textColumns: TextColumnMap?
    public var textRows: TextRowMap?

    public init(pageSize: Size, scale: Double, cellPixels: CellPixelSize, originPixel: (x: Int, y: Int),
                columns: Int, rows: Int) {
        self.pageSize = pageSize
        self.scale = scale
        self.cellPixels = cellPixels
        self.originPixel = originPixel
        self.columns = columns
        self.rows = rows
    }

    public static func == (lhs: PageViewport, rhs: PageViewport) -> Bool {
        lhs.pageSize == rhs.pageSize && lhs.scale == rhs.scale && lhs.cellPixels == rhs.cellPixels
            && lhs.originPixel == rhs.originPixel && lhs.columns == rhs.columns && lhs.rows == rhs.rows
            && lhs.textColumns == rhs.textColumns && lhs.textRows == rhs.textRows
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(pageSize); hasher.combine(scale); hasher.combine(cellPixels)
        hasher.combine(originPixel.x); hasher.combine(originPixel.y)
        hasher.combine(columns); hasher.combine(rows); hasher.combine(textColumns); hasher.combine(textRows)
    }

    /// The whole page's raster size in pixels at this scale.
    public var rasterWidth: Int { max(1, Int(clamping: (pageSize.width * scale).rounded(.up))) }
    public var rasterHeight: Int { max(1, Int(clamping: (pageSize.height * scale).rounded(.up))) }

    /// The cell that shows a display-space point (may lie outside the page area).
    public func cell(for point: Point) -> (column: Int, row: Int) {
        let place = cellPlace(for: point)
        // A point on a cell's edge (a cell's own corner, converted there and back) is in that cell.
        return (Int(clamping: (place.x + 1e-6).rounded(.down)), Int(clamping: (place.y + 1e-6).rounded(.down)))
    }

    /// The display-space point at the top-left corner of a cell.
    public func point(forCellColumn column: Int, row: Int) -> Point {
        point(forCellPlace: Point(x: Double(column), y: Double(row)))
    }

    /// Where a display-space point is in cells of the page area, with fractions: 2.5 is the middle of the third.
    public func cellPlace(for point: Point) -> Point {
        guard let textColumns, let textRows else {
            return Point(x: (point.x * scale - Double(originPixel.x)) / Double(cellPixels.width),
                         y: (point.y * scale - Double(originPixel.y)) / Double(cellPixels.height))
        }
        let first = firstCell
        let pageRow = textRows.row(forY: point.y)
        let column = textColumns.column(forX: point.x, row: Int(clamping: (pageRow + 1e-6).rounded(.down)))
        return Point(x: column - Double(first.column), y: pageRow - Double(first.row))
    }

    /// The display-space point at a place in cells of the page area.
    public func point(forCellPlace place: Point) -> Point {
        guard let textColumns, let textRows else {
            return Point(x: (place.x * Double(cellPixels.width) + Double(originPixel.x)) / scale,
                         y: (place.y * Double(cellPixels.height) + Double(originPixel.y)) / scale)
        }
        let first = firstCell
        let pageRow = place.y + Double(first.row)
        return Point(x: textColumns.x(forColumn: place.x + Double(first.column), row: Int(clamping: (pageRow + 1e-6).rounded(.down))),
                     y: textRows.y(forRow: pageRow))
    }

    /// The span of the page one cell shows, in display space.
    public func rect(forCellColumn column: Int, row: Int) -> Rect {
        let corner = point(forCellColumn: column, row: row)
        let far = point(forCellPlace: Point(x: Double(column + 1), y: Double(row) + 0.999))
        let foot = point(forCellPlace: Point(x: Double(column), y: Double(row + 1)))
        return Rect(x: corner.x, y: corner.y, width: max(0, far.x - corner.x), height: max(0, foot.y - corner.y))
    }

    /// The page's cell shown at the page area's top-left (whole cells in the text view, which scrolls by cells).
    public var firstCell: (column: Int, row: Int) {
        (Int((Double(originPixel.x) / Double(cellPixels.width)).rounded(.down)),
         Int((Double(originPixel.y) / Double(cellPixels.height)).rounded(.down)))
    }

    /// How many points one cell spans, horizontally and vertically.
    public var pointsPerCell: Size {
        Size(width: Double(cellPixels.width) / scale, height: Double(cellPixels.height) / scale)
    }
}
