import RedlineCore
import TerminalGrid

/// `f`: a label over the top left of every link in view, black on yellow, as zathura draws its hints; the
/// letters typed so far are dimmed, and labels they no longer fit are not shown.
enum LinkHintsView {
    static func draw(_ grid: inout CellGrid, _ state: EditorState, typed: String, _ env: EditorEnvironment) {
        let viewport = state.viewport(cellPixels: env.cellPixels)
        let area = state.layout.pageArea
        // Links side by side on one row of cells (a line's title and its page number) would cover each other's
        // labels: a label goes right, past the one before it, until it has room.
        var taken: [Int: [Range<Int>]] = [:]
        for (label, link) in EditorReducer.hintedLinks(state, env) where label.hasPrefix(typed) {
            // In the text view a row holds its line's middle, and a link's box often reaches up into the row above
            // (a blank one between lines): its label goes on the row of the link's middle, where its words are.
            let cell = viewport.cell(for: state.showsTextView ? Point(x: link.rect.minX, y: link.rect.center.y) : link.rect.origin)
            var column = min(max(area.column, area.column + cell.column), area.maxColumn - label.count)
            let row = min(max(area.row, area.row + cell.row), area.maxRow - 1)
            while let blocking = taken[row]?.first(where: { $0.overlaps(column - 1..<column + label.count + 1) }) {
                column = blocking.upperBound + 1
            }
            taken[row, default: []].append(column..<column + label.count)
            grid.write(String(label.dropFirst(typed.count)), column: column + typed.count, row: row, style: Theme.linkHint)
            if !typed.isEmpty { grid.write(typed, column: column, row: row, style: Theme.linkHintTyped) }
        }
    }
}
