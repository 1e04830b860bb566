import RedlineCore
import TerminalGrid

/// Draws the bookmarks panel: each bookmark's name and page, in the order chosen.
enum BookmarkPanelView {
    static func draw(_ grid: inout CellGrid, _ state: EditorState, _ panel: BookmarkPanel, in area: CellRect) {
        let shown = state.bookmarks.sorted(panel.order)
        let title = "Bookmarks · \(shown.count) · " + (panel.order == .custom ? "your order" : "page order")
        let inner = SidePanelFrame.draw(&grid, title: title, in: area)
        let background = SidePanelFrame.background
        guard !shown.isEmpty else {
            grid.write("None yet: b bookmarks the page", column: inner.column, row: inner.row,
                       style: SidePanelFrame.dim, limit: inner.width)
            return
        }
        let visible = max(1, inner.height)
        let first = panel.list.shownTop(shown.map { ($0.id, 1) }, height: visible)
        for (offset, bookmark) in shown.dropFirst(first).prefix(visible).enumerated() {
            let row = inner.row + offset
            let isSelected = bookmark.id == panel.selected
            let style = isSelected ? Theme.selectedRow : background
            if isSelected { grid.fill(CellRect(column: inner.column - 1, row: row, width: inner.width + 1, height: 1), with: Cell(" ", style: style)) }
            let page = bookmark.pageIndex.map { "p\($0 + 1)" } ?? "—"
            let name = isSelected && panel.renaming != nil ? (panel.renaming ?? "") + "▏" : bookmark.title
            let nameWidth = max(1, inner.width - page.count - 2)
            grid.write(name, column: inner.column, row: row, style: style, limit: nameWidth, marksCut: true)
            grid.write(page, column: inner.column + inner.width - page.count, row: row, style: style)
        }
    }

    static func messageLine(_ state: EditorState, _ panel: BookmarkPanel, width: Int) -> String {
        if let name = panel.renaming { return MessageLine.prompt("Name: ", name, hint: MessageLine.typingHint(state.keymaps, "renames"), width: width) }
        return state.message ?? state.keymaps.hints([([.listDown, .listUp], "move"), ([.goToBookmark], "go"), ([.renameBookmark], "rename"),
                                                     ([.deleteBookmark], "delete"), ([.toggleOrder], "order"),
                                                     ([.moveBookmarkUp, .moveBookmarkDown], "move"), ([.toggleBookmark], "this page"),
                                                     ([.closePanel], "closes")], in: .bookmarks)
    }
}
