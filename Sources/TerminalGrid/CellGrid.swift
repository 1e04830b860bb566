/// A screen's worth of cells. Views draw into a grid; only a backend turns grids into terminal output.
public struct CellGrid: Sendable, Hashable {
    public let columns: Int
    public let rows: Int
    public private(set) var cells: [Cell]

    public init(columns: Int, rows: Int, filling cell: Cell = .blank) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        cells = Array(repeating: cell, count: self.columns * self.rows)
    }

    public var bounds: CellRect { CellRect(column: 0, row: 0, width: columns, height: rows) }

    public subscript(column: Int, row: Int) -> Cell {
        get { cells[row * columns + column] }
        set {
            guard bounds.contains(column: column, row: row) else { return }
            cells[row * columns + column] = newValue
        }
    }

    /// Writes text from a cell onwards, clipped at `limit` columns (the grid's right edge by default).
    /// A wide character takes two cells; one that would be cut in half at the edge is left out. Control
    /// characters are written as visible escapes (`VisibleText`): whatever a document says, it only shows.
    /// `marksCut`: text longer than the room ends in "…", so a reader knows there is more.
    public mutating func write(_ text: String, column: Int, row: Int, style: CellStyle = .plain, limit: Int? = nil,
                               marksCut: Bool = false) {
        guard row >= 0, row < rows else { return }
        let end = min(columns, limit.map { column + $0 } ?? columns)
        var shown = VisibleText.of(text)
        if marksCut, end - column >= 1, CharacterWidth.of(shown) > end - column {
            shown = CharacterWidth.prefix(of: shown, columns: end - column - 1) + "…"
        }
        var current = column
        for character in shown where current < end {
            let width = CharacterWidth.of(character)
            if width == 2 {
                guard current + 1 < end else { break }
                if current >= 0 { self[current, row] = Cell(character, style: style) }
                self[current + 1, row] = Cell(Cell.wideTail.character, style: style)
            } else if current >= 0 {
                self[current, row] = Cell(character, style: style)
            }
            current += width
        }
    }

    public mutating func fill(_ rect: CellRect, with cell: Cell) {
        for row in max(0, rect.row)..<min(rows, rect.maxRow) {
            for column in max(0, rect.column)..<min(columns, rect.maxColumn) {
                self[column, row] = cell
            }
        }
    }

    /// Copies another grid in with its top-left corner at (column, row), clipped to this grid.
    public mutating func paste(_ other: CellGrid, column: Int, row: Int) {
        for sourceRow in 0..<other.rows {
            for sourceColumn in 0..<other.columns {
                self[column + sourceColumn, row + sourceRow] = other[sourceColumn, sourceRow]
            }
        }
    }

    /// One row's characters, trailing spaces kept: tests compare screens line by line.
    public func text(ofRow row: Int) -> String {
        String(cells[(row * columns)..<((row + 1) * columns)].filter { !$0.isWideTail }.map(\.character))
    }

    /// The whole screen as lines of text, for assertions and debugging.
    public var lines: [String] { (0..<rows).map(text(ofRow:)) }

    /// Where text first appears, if anywhere.
    public func find(_ text: String) -> (column: Int, row: Int)? {
        let needle = Array(text)
        guard !needle.isEmpty, needle.count <= columns else { return nil }
        for row in 0..<rows {
            let line = Array(self.text(ofRow: row))
            for start in 0...(columns - needle.count) where Array(line[start..<(start + needle.count)]) == needle {
                return (start, row)
            }
        }
        return nil
    }
}
