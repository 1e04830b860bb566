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

    public func contains(column: Int, row: Int) -> Bool {
        column >= self.column && column < maxColumn && row >= self.row && row < maxRow
    }
}
