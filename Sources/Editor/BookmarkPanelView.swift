import RedlineCore
import TerminalGrid

/// Draws the bookmarks panel: each bookmark's name and page, in the order chosen.
enum BookmarkPanelView {
    static func draw(_ grid: inout CellGrid, _ state: EditorState, _ panel: BookmarkPanel, in area: CellRect) {
        let background = CellStyle(foreground: .white, background: .black)
        grid.fill(area, with: Cell(" ", style: background))
        for row in area.row..<area.maxRow {
            grid[area.column, row] = Cell("│", style: CellStyle(foreground: .brightBlack, background: .black))
        }
        let inner = CellRect(column: area.column + 2, row: area.row, width: max(1, area.width - 3), height: area.height)
        let shown = state.bookmarks.sorted(panel.order)
        let title = "Bookmarks · \(shown.count) · " + (panel.order == .custom ? "your order" : "page order")
        grid.write(title, column: inner.column, row: inner.row,
                   style: CellStyle(foreground: .brightWhite, background: .black, bold: true), limit: inner.width)
        guard !shown.isEmpty else {
            grid.write("None yet: b bookmarks the page", column: inner.column, row: inner.row + 1,
                       style: CellStyle(foreground: .brightBlack, background: .black), limit: inner.width)
            return
        }
        let visible = max(1, inner.height - 1)
        let selected = shown.firstIndex { $0.id == panel.selected } ?? 0
        let first = max(0, min(selected - visible + 1, shown.count - visible))
        for (offset, bookmark) in shown.dropFirst(max(0, first)).prefix(visible).enumerated() {
            let row = inner.row + 1 + offset
            let isSelected = bookmark.id == panel.selected
            let style = isSelected ? CellStyle(foreground: .black, background: .brightYellow) : background
            if isSelected { grid.fill(CellRect(column: inner.column - 1, row: row, width: inner.width + 1, height: 1), with: Cell(" ", style: style)) }
            let page = bookmark.pageIndex.map { "p\($0 + 1)" } ?? "—"
            let name = isSelected && panel.renaming != nil ? (panel.renaming ?? "") + "▏" : bookmark.title
            let nameWidth = max(1, inner.width - page.count - 2)
            grid.write(name, column: inner.column, row: row, style: style, limit: nameWidth)
            grid.write(page, column: inner.column + inner.width - page.count, row: row, style: style)
        }
    }

    static func messageLine(_ state: EditorState, _ panel: BookmarkPanel) -> String {
        if let name = panel.renaming { return "Name: \(name)▏   Enter renames · Esc cancels" }
        return state.message ?? "j/k move · Enter go · R rename · d delete · o order · K/J move · b this page · Esc closes"
    }
}
