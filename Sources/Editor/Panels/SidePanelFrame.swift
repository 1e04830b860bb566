import TerminalGrid

/// The frame both side panels share: a dark background, a rule against the page, a bold title.
enum SidePanelFrame {
    static let background = Theme.panel
    static let dim = Theme.panelDim

    /// Draws the frame and title; returns the area below the title for the panel's content.
    static func draw(_ grid: inout CellGrid, title: String, in area: CellRect) -> CellRect {
        grid.fill(area, with: Cell(" ", style: background))
        for row in area.row..<area.maxRow {
            grid[area.column, row] = Cell("│", style: dim)
        }
        let inner = CellRect(column: area.column + 2, row: area.row, width: max(1, area.width - 3), height: area.height)
        grid.write(title, column: inner.column, row: inner.row,
                   style: Theme.panelTitle, limit: inner.width, marksCut: true)
        return CellRect(column: inner.column, row: inner.row + 1, width: inner.width, height: max(0, inner.height - 1))
    }
}
