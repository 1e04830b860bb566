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
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(pageSize); hasher.combine(scale); hasher.combine(cellPixels)
        hasher.combine(originPixel.x); hasher.combine(originPixel.y)
        hasher.combine(columns); hasher.combine(rows)
    }

    /// The whole page's raster size in pixels at this scale.
    public var rasterWidth: Int { max(1, Int(clamping: (pageSize.width * scale).rounded(.up))) }
    public var rasterHeight: Int { max(1, Int(clamping: (pageSize.height * scale).rounded(.up))) }

    /// The cell that shows a display-space point (may lie outside the page area).
    public func cell(for point: Point) -> (column: Int, row: Int) {
        let px = point.x * scale - Double(originPixel.x)
        let py = point.y * scale - Double(originPixel.y)
        return (Int(clamping: (px / Double(cellPixels.width)).rounded(.down)),
                Int(clamping: (py / Double(cellPixels.height)).rounded(.down)))
    }

    /// The display-space point at the top-left corner of a cell.
    public func point(forCellColumn column: Int, row: Int) -> Point {
        Point(x: Double(column * cellPixels.width + originPixel.x) / scale,
              y: Double(row * cellPixels.height + originPixel.y) / scale)
    }

    /// How many points one cell spans, horizontally and vertically.
    public var pointsPerCell: Size {
        Size(width: Double(cellPixels.width) / scale, height: Double(cellPixels.height) / scale)
    }
}
