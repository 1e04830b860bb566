import RedlineCore

/// Reading a page larger than the screen, as in zathura and mupdf: `j`/`k` and the arrows scroll within
/// the page and continue onto the next or previous one at its edge, Space and Backspace scroll a screen,
/// `h`/`l` scroll sideways, and turning a page keeps the horizontal position. The markup cursor travels
/// with the view, staying where it was on screen.
extension EditorReducer {
    /// The part of the page in view and how far it can scroll, in page points.
    struct View {
        var scroll: Point
        var visible: Size
        var limit: Point
        var cell: Size
    }

    static func view(_ state: EditorState, _ env: EditorEnvironment) -> View {
        let viewport = state.viewport(cellPixels: env.cellPixels)
        let cell = viewport.pointsPerCell
        let area = state.layout.pageArea
        let visible = Size(width: Double(area.width) * cell.width, height: Double(area.height) * cell.height)
        let scroll = Point(x: Double(max(0, viewport.originPixel.x)) / viewport.scale,
                           y: Double(max(0, viewport.originPixel.y)) / viewport.scale)
        var limit = Point(x: max(0, Double(viewport.rasterWidth - area.width * viewport.cellPixels.width) / viewport.scale),
                          y: max(0, Double(viewport.rasterHeight - area.height * viewport.cellPixels.height) / viewport.scale))
        if let text = state.textLayout {
            // The text view scrolls by whole cells as far as its text reaches (past the page's edge where words were
            // pushed): the last place the view can stand, exactly, so scrolling there ends and the page turns.
            limit = Point(x: Double(max(0, text.extent.columns - area.width) * viewport.cellPixels.width) / viewport.scale,
                          y: Double(max(0, text.extent.rows - area.height) * viewport.cellPixels.height) / viewport.scale)
        }
        return View(scroll: scroll, visible: visible, limit: limit, cell: cell)
    }

    /// Rows `j`, `k` and the arrows scroll by; columns `h` and `l` do.
    static let scrollRows = 3.0
    static let scrollColumns = 6.0

    /// Scrolls by `dx`, `dy` points as far as the page allows; the cursor moves along. False when the view
    /// could not move at all in that direction.
    @discardableResult
    static func scroll(_ state: inout EditorState, dx: Double, dy: Double, _ env: EditorEnvironment) -> Bool {
        let view = view(state, env)
        let target = Point(x: min(max(0, view.scroll.x + dx), view.limit.x), y: min(max(0, view.scroll.y + dy), view.limit.y))
        let moved = Point(x: target.x - view.scroll.x, y: target.y - view.scroll.y)
        guard abs(moved.x) > 1e-9 || abs(moved.y) > 1e-9 else { return false }
        state.scroll = target
        let size = state.pageSize
        state.cursor = Point(x: min(max(0, state.cursor.x + moved.x), size.width),
                             y: min(max(0, state.cursor.y + moved.y), size.height))
        return true
    }

    /// `j`, Down, the wheel: scroll down, or at the page's foot go on to the next page's top.
    static func scrollDown(_ state: inout EditorState, by rows: Double, _ env: EditorEnvironment) {
        let step = view(state, env).cell.height * rows
        guard !scroll(&state, dx: 0, dy: step, env) else { return }
        // The wheel turning pages is fastScroll's; the keys always turn.
        if state.interaction.input == .pointer {
            fastScroll(&state, by: 1, toBottom: false, env)
        } else {
            turnPage(&state, by: 1, toBottom: false, env)
        }
    }

    /// `k`, Up, the wheel: scroll up, or at the page's top go back to the previous page's foot.
    static func scrollUp(_ state: inout EditorState, by rows: Double, _ env: EditorEnvironment) {
        let step = view(state, env).cell.height * rows
        guard !scroll(&state, dx: 0, dy: -step, env) else { return }
        if state.interaction.input == .pointer {
            fastScroll(&state, by: -1, toBottom: true, env)
        } else {
            turnPage(&state, by: -1, toBottom: true, env)
        }
    }

    /// Space and Backspace: a screen at a time, one row overlapping so the eye finds its place.
    static func scrollScreen(_ state: inout EditorState, down: Bool, _ env: EditorEnvironment) {
        let view = view(state, env)
        let rows = max(1, (view.visible.height / view.cell.height).rounded(.down) - 1)
        if down { scrollDown(&state, by: rows, env) } else { scrollUp(&state, by: rows, env) }
    }

    /// Another page, scrolled to its top (or foot), at the same horizontal position; the cursor keeps its
    /// place on screen.
    static func turnPage(_ state: inout EditorState, by offset: Int, toBottom: Bool, _ env: EditorEnvironment) {
        goToPage(&state, state.pageIndex + offset, env, toBottom: toBottom)
    }
}
