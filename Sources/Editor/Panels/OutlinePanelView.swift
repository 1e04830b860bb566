import RedlineCore
import TerminalGrid

/// Draws the outline panel: the tree, indented, with ▸ on folded entries and ▾ on unfolded ones; the entry the
/// current page is in carries a ● and its page number is bright.
enum OutlinePanelView {
    static func draw(_ grid: inout CellGrid, _ state: EditorState, _ panel: OutlinePanel, in area: CellRect) {
        let outline = state.navigation.outline ?? []
        let rows = panel.rows(outline)
        let inner = SidePanelFrame.draw(&grid, title: "Outline · \(rows.count) shown", in: area)
        let background = SidePanelFrame.background
        let current = panel.currentRow(outline, pageIndex: state.pageIndex)
        let visible = max(1, inner.height)
        let first = panel.list.shownTop(rows.map { ($0.path, 1) }, height: visible)
        for (offset, entry) in rows.dropFirst(first).prefix(visible).enumerated() {
            let row = inner.row + offset
            let isSelected = entry.path == panel.list.selected
            let style = isSelected ? Theme.selectedRow : background
            if isSelected { grid.fill(CellRect(column: inner.column - 1, row: row, width: inner.width + 1, height: 1), with: Cell(" ", style: style)) }
            if entry.path == current {
                grid.write("●", column: inner.column - 1, row: row, style: isSelected ? style : Theme.panelTitle)
            }
            let fold = !entry.hasChildren ? " " : panel.unfolded.contains(entry.path) ? "▾" : "▸"
            let indent = String(repeating: "  ", count: min(entry.depth, 8))
            // The page as the document prints it, where it has labels.
            let page = entry.entry.destination.map { destination in
                state.document.pageLabels.label(ofPage: destination.pageIndex).map { VisibleText.line($0, limit: 12) } ?? "p\(destination.pageIndex + 1)"
            } ?? "—"
            let title = VisibleText.line(entry.entry.title.isEmpty ? "(untitled)" : entry.entry.title, limit: 200)
            let nameWidth = max(1, inner.width - page.count - 1)
            grid.write(indent + fold + " " + title, column: inner.column, row: row, style: style, limit: nameWidth, marksCut: true)
            grid.write(page, column: inner.column + inner.width - page.count, row: row,
                       style: isSelected || entry.path != current ? style : Theme.panelTitle)
        }
    }

    static func messageLine(_ state: EditorState, width: Int) -> String {
        state.message ?? state.keymaps.hints([([.listDown, .listUp], "move"), ([.goToEntry], "go"),
                                              ([.unfoldEntry, .foldEntry], "unfold/fold"), ([.jumpBack], "back"),
                                              ([.closePanel], "closes")], in: .outline)
    }
}
