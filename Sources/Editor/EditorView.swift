import RedlineCore
import TerminalGrid

/// Draws the editor into a grid: a pure function of the state. The page picture is handed in as cells,
/// made by the runner from the state's scene; without one the page area stays blank.
public enum EditorView {
    /// `rendering`: the page (index) whose picture is still being rendered; `picture` is then the last one
    /// drawn, and a label over it says so.
    public static func draw(_ state: EditorState, environment: EditorEnvironment, picture: CellGrid?,
                            rendering: Int? = nil) -> CellGrid {
        var grid = CellGrid(columns: state.columns, rows: state.rows)
        let layout = state.layout
        if state.showsTextView {
            TextPageView.draw(&grid, state, state.scene(environment: environment), environment, in: layout.pageArea)
        } else if let picture {
            grid.paste(picture, column: layout.pageArea.column, row: layout.pageArea.row)
        }
        if let rendering {
            grid.write(" Rendering page \(rendering + 1)… ", column: layout.pageArea.column, row: layout.pageArea.row,
                       style: Theme.question, limit: layout.pageArea.width)
        }
        switch state.interaction.activity {
        case .inking(let session): drawPen(&grid, state, session, environment)
        case .typing: drawCursor(&grid, state, environment)
        case .commenting: break
        case .idle: if state.interaction.panel == nil { drawCursor(&grid, state, environment) }
        }
        if !layout.hidesInterface {
            StatusLine.draw(&grid, state, environment, row: layout.statusRow)
            MessageLine.draw(&grid, state, row: layout.messageRow)
        } else if state.focus != .page || state.message != nil {
            // Hidden, the bottom line still comes for a question, what is typed, or something to say.
            MessageLine.draw(&grid, state, row: layout.messageRow)
        }
        switch state.interaction.panel {
        case .annotations(let panel)?: if let area = layout.panel { AnnotationPanelView.draw(&grid, state, panel, in: area) }
        case .bookmarks(let panel)?: if let area = layout.panel { BookmarkPanelView.draw(&grid, state, panel, in: area) }
        case .outline(let panel)?: if let area = layout.panel { OutlinePanelView.draw(&grid, state, panel, in: area) }
        case nil: break
        }
        // Overlays last, bottom to top: the key overlay covers the page and the panel.
        for overlay in state.interaction.overlays {
            if case .linkHints(let typed) = overlay { LinkHintsView.draw(&grid, state, typed: typed, environment) }
            if case .help(let scroll) = overlay {
                HelpOverlay.draw(&grid, in: layout.overlayArea, scroll: scroll, keymaps: state.keymaps,
                                 fillingArea: state.interaction.panel != nil)
            }
        }
        return grid
    }

    /// The pen: `o` while lifted; while lowered, a mark for the tool that is drawing.
    private static func drawPen(_ grid: inout CellGrid, _ state: EditorState, _ session: InkSession, _ env: EditorEnvironment) {
        let viewport = state.viewport(cellPixels: env.cellPixels)
        guard let (column, row) = markCell(viewport.cell(for: session.pen), viewport, state.layout.pageArea) else { return }
        let mark: Character = !session.isPenDown ? "o" : session.tool.erases ? "X" : session.tool == .highlighter ? "="
            : session.tool.places ? "+" : "*"
        grid[column, row] = Cell(mark, style: Theme.cursor)
    }

    /// A crosshair cell marks where new markup goes.
    private static func drawCursor(_ grid: inout CellGrid, _ state: EditorState, _ env: EditorEnvironment) {
        let viewport = state.viewport(cellPixels: env.cellPixels)
        var point = state.cursor
        var cell: (column: Int, row: Int)?
        if case .typing(let draft) = state.interaction.activity {
            if state.showsTextView {
                // The text view shows the text a character a cell from where it starts: the caret goes after it.
                let start = viewport.cell(for: draft.markup.origin)
                cell = (start.column + CharacterWidth.of(VisibleText.of(draft.markup.text)), start.row)
            } else {
                // While typing the crosshair follows the end of the text.
                let metrics = env.measurer.metrics(of: draft.markup.text, fontSize: draft.markup.fontSize)
                point = Point(x: draft.markup.origin.x + metrics.width, y: draft.markup.origin.y)
            }
        }
        guard let (column, row) = markCell(cell ?? viewport.cell(for: point), viewport, state.layout.pageArea) else { return }
        let typing = if case .typing = state.interaction.activity { true } else { false }
        // Over the text view's words the cursor is a block on the character, as in any text, so it hides none.
        let under = grid[column, row].character
        if state.showsTextView, under != " ", under != Cell.wideTail.character {
            grid[column, row] = Cell(under, style: Theme.cursor)
            return
        }
        grid[column, row] = Cell(typing ? "▏" : "+", style: Theme.cursor)
    }

    /// The screen cell for a mark at a page point. A point on the page's right or bottom edge falls in the
    /// cell just past the page; it is shown in the page's last cell, so the cursor never hides there.
    private static func markCell(_ cell: (column: Int, row: Int), _ viewport: PageViewport, _ area: CellRect) -> (Int, Int)? {
        let lastColumn = (viewport.rasterWidth - 1 - viewport.originPixel.x) / viewport.cellPixels.width
        let lastRow = (viewport.rasterHeight - 1 - viewport.originPixel.y) / viewport.cellPixels.height
        let column = area.column + (cell.column == lastColumn + 1 ? lastColumn : cell.column)
        let row = area.row + (cell.row == lastRow + 1 ? lastRow : cell.row)
        return area.contains(column: column, row: row) ? (column, row) : nil
    }
}
