/// A rectangle of cells: column, row, width, height.
public struct CellRect: Sendable, Hashable {
    public var column: Int
    public var row: Int
    public var width: Int
    public var height: Int

    public init(column: Int, row: Int, width: Int, height: Int) {
        self.column = column
        self.row = row
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var maxColumn: Int { column + width }
    public var maxRow: Int { row + height }

    /// The cells both rects cover, nil when they do not meet.
    public func intersection(_ other: CellRect) -> CellRect? {
        let left = max(column, other.column), top = max(row, other.row)
        let right = min(maxColumn, other.maxColumn), bottom = min(maxRow, other.maxRow)
        guard right > left, bottom > top else { return nil }
        return CellRect(column: left, row: top, width: right - left, height: bottom - top)
    }

    public func contains(column: Int, row: Int) -> Bool {
        column >= self.column && column < maxColumn && row >= self.row && row < maxRow
    }
}
