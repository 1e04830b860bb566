import RedlineCore
import TerminalGrid

/// The mouse, where the terminal reports one. A press and the wheel go through the keymaps as the keys
/// `Click`, `WheelDown` and `WheelUp`, so they mean what the context binds them to; a drag and a release
/// continue what the press started (moving a markup, drawing a stroke).
extension EditorReducer {
    static func mouse(_ state: inout EditorState, _ event: MouseEvent, _ env: EditorEnvironment) -> [EditorEffect] {
        state.interaction.pointer = (event.column, event.row)
        state.interaction.pointerWithinCell = event.withinCell
        state.interaction.input = .pointer
        if event.action == .drag || event.action == .release { state.interaction.via = event.action == .drag ? "Drag" : "Release" }
        switch event.action {
        case .scrollDown: return keyPressed(&state, .wheelDown, env)
        case .scrollUp: return keyPressed(&state, .wheelUp, env)
        case .press: return keyPressed(&state, .click, env)
        case .drag: state.interaction.edgeTurn = nil
        case .release:
            if let turn = state.interaction.edgeTurn, state.focus == .page {
                // A click near the page area's side turns the page when the button comes up: a drag from
                // there selects words instead.
                state.interaction.edgeTurn = nil
                state.interaction.via = "Click"
                state.interaction.lastPress = nil
                state.interaction.textPress = nil
                fastScroll(&state, by: turn, toBottom: false, env)
                return []
            }
        }
        let spot = pointerSpot(state, env)
        switch state.focus {
        case .inking(var session):
            if event.action == .drag, session.isPenDown {
                let from = session.pen
                session.pen = spot.point
                state.cursor = spot.point
                return penMoved(&state, &session, from: from)
            }
            if event.action == .release, session.isPenDown {
                // A box or a line ends where the button comes up (a callout's words go there); a polygon's corners are
                // clicked one by one.
                if session.tool == .callout || session.tool.shapeKind?.takesCorners == false {
                    session.pen = spot.point
                    state.cursor = spot.point
                    return finishShape(&state, &session)
                }
                if session.tool.shapeKind != nil { return [] }
                endStroke(&session)
                state.interaction.activity = .inking(session)
            }
            return []
        case .page, .selectingText:
            if let drag = state.interaction.annotationDrag {
                return dragAnnotation(&state, drag, to: spot.point, released: event.action == .release, env)
            }
            if event.action == .drag, state.mouseDrag == nil {
                dragText(&state, to: spot.point, env)
                return []
            }
            if event.action == .release { state.interaction.textPress = nil }
            return event.action == .drag ? dragSelection(&state, to: spot.point, env) : endDrag(&state)
        default:
            return []
        }
    }

    /// The entry of a side panel's list the pointer is on; nil when it is not on the panel's list.
    static func clickedEntry<ID: Hashable & Sendable>(_ state: EditorState, _ list: PanelList<ID>,
                                                     _ entries: [(id: ID, rows: Int)]) -> ID? {
        clickedEntry(state, list, ListEntries(entries))
    }

    static func clickedEntry<ID: Hashable & Sendable>(_ state: EditorState, _ list: PanelList<ID>, _ entries: ListEntries<ID>) -> ID? {
        let (column, row) = state.interaction.pointer
        guard let area = state.layout.panel, area.contains(column: column, row: row) else { return nil }
        return list.entry(atRow: row - area.row - 1, of: entries, height: state.panelListHeight)
    }

    /// Where the pointer is on the page: the middle of its cell kept on the page, the cell itself, and whether
    /// the cell is on the page at all (a cell beside a page narrower than the screen is not).
    struct PointerSpot {
        var point: Point
        var cell: Rect
        var onPage: Bool
    }

    static func pointerSpot(_ state: EditorState, _ env: EditorEnvironment) -> PointerSpot {
        let (column, row) = state.interaction.pointer
        let area = state.layout.pageArea
        let viewport = state.viewport(cellPixels: env.cellPixels)
        let span = viewport.rect(forCellColumn: column - area.column, row: row - area.row)
        let (corner, cell) = (span.origin, span.size)
        let size = state.pageSize
        // A terminal reporting pixels says where in the cell the pointer is (not in the text view, whose cells are
        // characters): a stroke follows the pointer, not the cells' middles.
        var spot = span.center
        if let within = state.interaction.pointerWithinCell, !state.showsTextView {
            spot = Point(x: corner.x + within.x * cell.width, y: corner.y + within.y * cell.height)
        }
        let point = Point(x: min(max(0, spot.x), size.width), y: min(max(0, spot.y), size.height))
        let onPage = area.contains(column: column, row: row)
            && corner.x < size.width && corner.x + cell.width > 0 && corner.y < size.height && corner.y + cell.height > 0
        return PointerSpot(point: point, cell: Rect(origin: corner, size: cell), onPage: onPage)
    }

    /// `point-at`: selects the markup under the pointer (and starts a drag), follows a link, turns the page from
    /// the page area's sides, or puts the cursor there. Each through its interaction component.
    static func pointAt(_ state: inout EditorState, _ env: EditorEnvironment) -> [EditorEffect] {
        let spot = pointerSpot(state, env)
        let (column, row) = state.interaction.pointer
        state.interaction.textPress = nil
        state.interaction.edgeTurn = nil
        if state.interaction.textSelection != nil {
            deselectText(&state, env)
            if state.interaction.textSelection != nil { return [] }
        }
        let now = state.interaction.clock.stamp.milliseconds
        if spot.onPage, let last = state.interaction.lastPress, last.column == column, last.row == row,
           now - last.milliseconds <= doubleClickMilliseconds, now >= last.milliseconds {
            // The second press of a double click: the first already put the cursor here.
            state.interaction.lastPress = nil
            smartZoom(&state, at: spot.point, env)
            return []
        }
        state.interaction.lastPress = spot.onPage ? (column, row, now) : nil
        if spot.onPage, let hit = touchedMarkup(spot, state, env),
           permits(&state, .selectAnnotation, on: hit, env) {
            state.selection = hit.id
            state.mouseDrag = MouseDrag(markup: hit.id, last: spot.point, moved: false)
            return []
        }
        if spot.onPage, let hit = touchedFileAnnotation(spot, state) {
            guard hit.id == state.interaction.selectedAnnotation || permits(&state, .selectAnnotation, onAnnotation: hit, env) else {
                // In a shared session that is someone else's annotation (said on the line): the press selects no
                // words under it either, or the drag that follows would select text the user never meant to.
                if state.sharing != nil { return [] }
                return pressBeside(&state, spot, column: column, row: row, env)
            }
            // The file's own annotations come after the session's markup, as with Tab, and before links under them.
            selectAnnotation(&state, hit)
            state.interaction.endNudgeRuns()
            state.interaction.annotationDrag = AnnotationDrag(id: hit.id, last: spot.point)
            return []
        }
        return pressBeside(&state, spot, column: column, row: row, env)
    }

    /// A press on nothing the session selects: a link, or the page itself.
    private static func pressBeside(_ state: inout EditorState, _ spot: PointerSpot, column: Int, row: Int,
                                    _ env: EditorEnvironment) -> [EditorEffect] {
        if spot.onPage, let link = link(at: spot, state) {
            // A click on a link follows it, as in every viewer; markup over a link is selected first.
            if let id = state.selection, let item = state.markup.item(id),
               !permits(&state, .deselectAnnotation, on: item, env) {
                return []
            }
            state.selection = nil
            return follow(&state, link, env)
        }
        if let id = state.selection, let item = state.markup.item(id),
           !permits(&state, .deselectAnnotation, on: item, env) {
            return []
        }
        // A click beside the selected annotation of the file lets it go, as Esc does.
        if let annotation = state.selectedFileAnnotation, !permits(&state, .deselectAnnotation, onAnnotation: annotation, env) {
            return []
        }
        state.selection = nil
        state.interaction.selectedAnnotation = nil
        if let side = edgeFifth(state, column: column, row: row), state.pageIndex + side >= 0, state.pageIndex + side < state.document.pageCount {
            state.interaction.edgeTurn = side
        }
        guard spot.onPage else { return [] }
        // In the text view the cursor stands at a cell's top-left, where the arrows put it: text typed there
        // starts at that letter, on its line.
        state.cursor = state.showsTextView ? spot.cell.origin : spot.point
        // A drag from here selects the words it passes over.
        state.interaction.textPress = spot.point
        return []
    }

    /// A cell can be larger than a small markup: the markup hit is one the clicked cell overlaps, the one under
    /// the cell's middle first, else the topmost (drawn last).
    static func touchedMarkup(_ spot: PointerSpot, _ state: EditorState, _ env: EditorEnvironment) -> MarkupItem? {
        let touched = state.markup.items(onPage: state.pageIndex).filter { $0.bounds(measuredBy: env.measurer).intersects(spot.cell) }
        return touched.last { $0.bounds(measuredBy: env.measurer).contains(spot.point) } ?? touched.last
    }

    /// The file's annotation a click selects: one Tab stops at whose area the clicked cell overlaps, the one under
    /// the cell's middle first, else the topmost (drawn last).
    static func touchedFileAnnotation(_ spot: PointerSpot, _ state: EditorState) -> Annotation? {
        let touched = selectableAnnotations(state).filter { $0.rect.intersects(spot.cell) }.sorted { $0.order < $1.order }
        return touched.last { $0.rect.contains(spot.point) } ?? touched.last
    }

    /// A drag moves the selected annotation of the file with the pointer, kept on the page; the whole drag is one
    /// step to undo. The release ends it.
    private static func dragAnnotation(_ state: inout EditorState, _ drag: AnnotationDrag, to point: Point,
                                       released: Bool, _ env: EditorEnvironment) -> [EditorEffect] {
        defer {
            if released {
                state.interaction.annotationDrag = nil
                state.interaction.endNudgeRuns()
            }
        }
        guard let annotation = state.selectedFileAnnotation, annotation.id == drag.id else {
            state.interaction.annotationDrag = nil
            return []
        }
        var drag = drag
        let (dx, dy) = (point.x - drag.last.x, point.y - drag.last.y)
        drag.last = point
        guard dx != 0 || dy != 0 else {
            state.interaction.annotationDrag = drag
            return []
        }
        // Asked once a drag starts moving: the whole drag is one transform.
        if drag.allowed == nil { drag.allowed = permits(&state, .transformAnnotation, onAnnotation: annotation, env) }
        state.interaction.annotationDrag = drag
        guard drag.allowed == true else { return [] }
        return nudgeAnnotation(&state, annotation, dx: dx, dy: dy)
    }

    /// `draw-at-pointer`: the pen goes down where the pointer is; the drag that follows draws.
    static func penPressed(_ state: inout EditorState, _ session: inout InkSession, _ env: EditorEnvironment) -> [EditorEffect] {
        let spot = pointerSpot(state, env)
        guard spot.onPage else { return [] }
        if session.tool == .note {
            session.pen = spot.point
            state.cursor = spot.point
            return placeNote(&state, &session)
        }
        if session.tool.shapeKind?.takesCorners == true, session.isPenDown {
            session.pen = spot.point
            state.cursor = spot.point
            return placeCorner(&state, &session)
        }
        endStroke(&session)
        session.pen = spot.point
        session.current = [spot.point]
        state.cursor = spot.point
        state.interaction.activity = .inking(session)
        return session.tool.erases ? erase(&state, &session, from: spot.point, to: spot.point) : []
    }

    private static func dragSelection(_ state: inout EditorState, to point: Point, _ env: EditorEnvironment) -> [EditorEffect] {
        guard var drag = state.mouseDrag, let item = state.markup.item(drag.markup) else { return [] }
        if !drag.moved, drag.allowed == nil {
            // Asked once a drag starts moving: the whole drag is one transform.
            drag.allowed = permits(&state, .transformAnnotation, on: item, env)
            state.mouseDrag = drag
        }
        guard drag.allowed == true else { return [] }
        let moved = item.translated(dx: point.x - drag.last.x, dy: point.y - drag.last.y)
            .keptInside(pageSize: state.pageSize, measuredBy: env.measurer)
        drag.last = point
        defer { state.mouseDrag = drag }
        guard moved != item else { return [] }
        // One drag is one step to undo, however many reports it takes.
        let continuing = drag.moved
        drag.moved = true
        return moveInRun(&state, item, to: moved, continuing: continuing)
    }

    private static func endDrag(_ state: inout EditorState) -> [EditorEffect] {
        state.mouseDrag = nil
        return []
    }
}
