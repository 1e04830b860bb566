import RedlineCore
import TerminalGrid

/// The mouse, where the terminal reports one. Ink mode: press, drag and release draw a freehand stroke.
/// Otherwise a click selects the markup under the pointer (or moves the cursor there) and a drag moves it.
extension EditorReducer {
    static func mouse(_ state: inout EditorState, _ event: MouseEvent, _ env: EditorEnvironment) -> [EditorEffect] {
        switch event.action {
        case .scrollDown:
            if case .annotations(let panel) = state.mode, panel.input == nil {
                state.message = nil
                return annotationPanelCommand(&state, panel, .listDown, env)
            }
            if state.mode == .normal { scrollDown(&state, by: scrollRows, env) }
            return []
        case .scrollUp:
            if case .annotations(let panel) = state.mode, panel.input == nil {
                state.message = nil
                return annotationPanelCommand(&state, panel, .listUp, env)
            }
            if state.mode == .normal { scrollUp(&state, by: scrollRows, env) }
            return []
        case .press, .drag, .release:
            break
        }
        let area = state.layout.pageArea
        let viewport = state.viewport(cellPixels: env.cellPixels)
        let corner = viewport.point(forCellColumn: event.column - area.column, row: event.row - area.row)
        let cell = viewport.pointsPerCell
        let size = state.pageSize
        // The middle of the cell under the pointer, kept on the page.
        let center = Point(x: corner.x + cell.width / 2, y: corner.y + cell.height / 2)
        let point = Point(x: min(max(0, center.x), size.width), y: min(max(0, center.y), size.height))
        // A cell beside the page (the backdrop when the page is narrower than the screen) is not on it.
        let onPage = area.contains(column: event.column, row: event.row)
            && corner.x < size.width && corner.x + cell.width > 0 && corner.y < size.height && corner.y + cell.height > 0
        let cellRect = Rect(origin: corner, size: cell)

        switch state.mode {
        case .inking(var session):
            switch event.action {
            case .press where onPage:
                endStroke(&session)
                session.pen = point
                session.current = [point]
                state.cursor = point
                state.mode = .inking(session)
                return session.tool == .eraser ? erase(&state, &session, from: point, to: point) : []
            case .drag where session.isPenDown:
                let from = session.pen
                session.pen = point
                state.cursor = point
                return penMoved(&state, &session, from: from)
            case .release where session.isPenDown:
                endStroke(&session)
                state.mode = .inking(session)
                return []
            default:
                return []
            }
        case .normal:
            return normalMouse(&state, event.action, point: point, cell: cellRect, onPage: onPage, env)
        case .annotations(var panel) where event.action == .press && onPage && panel.input == nil:
            // A click on an annotation's area selects it in the list; the smallest area wins, as it is on top.
            let listed = Set(state.annotationRows(panel).map(\.annotation.id))
            let hit = state.annotations.filter { $0.pageIndex == state.pageIndex && listed.contains($0.id) && !$0.isStateChange }
                .filter { $0.rect.intersects(cellRect) }
                .min { $0.rect.width * $0.rect.height < $1.rect.width * $1.rect.height }
            guard let hit else { return [] }
            panel.selected = hit.id
            state.mode = .annotations(panel)
            return []
        default:
            return []
        }
    }

    private static func normalMouse(_ state: inout EditorState, _ action: MouseEvent.Action, point: Point, cell: Rect,
                                    onPage: Bool, _ env: EditorEnvironment) -> [EditorEffect] {
        switch action {
        case .press:
            guard onPage else { return [] }
            state.nudgeRun = nil
            // A cell can be larger than a small markup: the markup hit is one the clicked cell overlaps,
            // the one under the cell's middle first, else the topmost (drawn last).
            let touched = state.markup.items(onPage: state.pageIndex).filter {
                $0.bounds(measuredBy: env.measurer).intersects(cell)
            }
            if let hit = touched.last(where: { $0.bounds(measuredBy: env.measurer).contains(point) }) ?? touched.last {
                state.selection = hit.id
                state.mouseDrag = MouseDrag(markup: hit.id, last: point, moved: false)
            } else {
                state.selection = nil
                state.cursor = point
            }
            return []
        case .drag:
            guard var drag = state.mouseDrag, let item = state.markup.item(drag.markup) else { return [] }
            let moved = item.translated(dx: point.x - drag.last.x, dy: point.y - drag.last.y)
                .keptInside(pageSize: state.pageSize, measuredBy: env.measurer)
            drag.last = point
            defer { state.mouseDrag = drag }
            guard moved != item else { return [] }
            // One drag is one step to undo, however many reports it takes.
            let continuing = drag.moved
            drag.moved = true
            return moveInRun(&state, item, to: moved, continuing: continuing)
        case .release:
            state.mouseDrag = nil
            return []
        case .scrollUp, .scrollDown:
            return []
        }
    }
}
