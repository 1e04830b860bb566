/// One cell that differs between the screen the terminal shows and the one to show next.
public struct CellChange: Sendable, Hashable {
    public var column: Int
    public var row: Int
    public var cell: Cell
}

extension CellGrid {
    /// The cells a backend must write to turn `previous` into this grid. A size change means every cell.
    public func changes(since previous: CellGrid?) -> [CellChange] {
        var result: [CellChange] = []
        let sameSize = previous.map { $0.columns == columns && $0.rows == rows } ?? false
        for row in 0..<rows {
            for column in 0..<columns {
                let cell = self[column, row]
                if sameSize, let previous, previous[column, row] == cell { continue }
                result.append(CellChange(column: column, row: row, cell: cell))
            }
        }
        return result
    }
}
