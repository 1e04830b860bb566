import RedlineCore
import TerminalGrid

/// Ink mode: Space lifts or lowers the pen, the arrows move it (drawing while it is down), Enter ends a
/// stroke, Esc leaves. The strokes drawn in a row become one ink markup.
extension EditorReducer {
    static func inkKey(_ state: inout EditorState, _ session: InkSession, _ key: Key,
                       _ env: EditorEnvironment) -> [EditorEffect] {
        var session = session
        state.message = nil
        let command = state.keymaps.command(for: key, in: .ink)
        switch command {
        case .leaveInk?:
            // Esc in the middle of a shape drops it, as in Acrobat; Esc again leaves.
            if session.tool.places, session.current != nil {
                session.current = nil
                state.interaction.activity = .inking(session)
                state.message = "\(session.tool == .callout ? "Callout" : "Shape") dropped (Esc again leaves ink mode)"
                return journalDue
            }
            state.cursor = session.pen
            state.interaction.activity = .idle
            return commitInk(&state, &session)
        case .penDownUp?:
            if session.tool.places { return placeCorner(&state, &session) }
            if session.isPenDown {
                endStroke(&session)
            } else {
                session.current = [session.pen]
                if session.tool.erases {
                    state.interaction.activity = .inking(session)
                    return erase(&state, &session, from: session.pen, to: session.pen)
                }
            }
            state.interaction.activity = .inking(session)
            return journalDue
        case .endStroke?:
            if session.tool.places { return finishShape(&state, &session) }
            endStroke(&session)
        case .penUp?: return movePen(&state, &session, dx: 0, dy: -1, env)
        case .penDown?: return movePen(&state, &session, dx: 0, dy: 1, env)
        case .penLeft?: return movePen(&state, &session, dx: -1, dy: 0, env)
        case .penRight?: return movePen(&state, &session, dx: 1, dy: 0, env)
        case .penFarUp?: return movePen(&state, &session, dx: 0, dy: -10, env)
        case .penFarDown?: return movePen(&state, &session, dx: 0, dy: 10, env)
        case .penFarLeft?: return movePen(&state, &session, dx: -10, dy: 0, env)
        case .penFarRight?: return movePen(&state, &session, dx: 10, dy: 0, env)
        case .pen?: return switchTool(&state, &session, to: .pen)
        case .highlighter?: return switchTool(&state, &session, to: .highlighter)
        case .eraser?: return switchTool(&state, &session, to: .eraser)
        case .partialEraser?: return switchTool(&state, &session, to: .partialEraser)
        case .rectangle?: return switchTool(&state, &session, to: .rectangle)
        case .ellipse?: return switchTool(&state, &session, to: .ellipse)
        case .line?: return switchTool(&state, &session, to: .line)
        case .arrow?: return switchTool(&state, &session, to: .arrow)
        case .polygon?: return switchTool(&state, &session, to: .polygon)
        case .polyline?: return switchTool(&state, &session, to: .polyline)
        case .toggleFill?:
            return toggleFill(&state, &session)
        case .stamp?:
            return stepStamp(&state, &session)
        case .note?: return switchTool(&state, &session, to: .note)
        case .callout?: return switchTool(&state, &session, to: .callout)
        case .widerInk?, .narrowerInk?:
            let up = command == .widerInk
            let effects = commitInk(&state, &session)
            if session.tool == .callout {
                state.textStyle.fontSize = steppedFontSize(state.textStyle.fontSize, up: up)
            } else if session.tool.shapeKind != nil {
                state.inkStyle.shapeWidth = InkStyle.step(state.inkStyle.shapeWidth, up: up, highlighter: false)
            } else if session.tool == .highlighter {
                state.inkStyle.highlighterWidth = InkStyle.step(state.inkStyle.highlighterWidth, up: up, highlighter: true)
            } else {
                state.inkStyle.penWidth = InkStyle.step(state.inkStyle.penWidth, up: up, highlighter: false)
            }
            state.interaction.activity = .inking(session)
            return effects
        case .nextInkColour?:
            let effects = commitInk(&state, &session)
            if session.tool == .callout {
                state.textStyle.color = state.textStyle.color.next(in: state.palettes.text)
            } else if session.tool == .note {
                state.inkStyle.noteColor = state.inkStyle.noteColor.next(in: state.palettes.highlighter)
            } else if session.tool.shapeKind != nil {
                state.inkStyle.shapeColor = state.inkStyle.shapeColor.next(in: state.palettes.text)
            } else if session.tool == .highlighter {
                state.inkStyle.highlighterColor = state.inkStyle.highlighterColor.next(in: state.palettes.highlighter)
            } else {
                state.inkStyle.penColor = state.inkStyle.penColor.next(in: state.palettes.text)
            }
            state.interaction.activity = .inking(session)
            return effects
        case .undo?:
            // Within a markup being drawn, undo takes back its last stroke first (a polygon's last corner).
            if let corners = session.current, corners.count > 1, session.tool.shapeKind?.takesCorners == true {
                session.current = Array(corners.dropLast())
            } else if session.current != nil {
                session.current = nil
            } else if !session.strokes.isEmpty {
                session.strokes.removeLast()
            } else {
                state.interaction.activity = .inking(session)
                return undo(&state)
            }
            state.interaction.activity = .inking(session)
            return journalDue
        case .redo?:
            state.interaction.activity = .inking(session)
            return redo(&state)
        case .drawAtPointer?:
            return penPressed(&state, &session, env)
        default:
            break
        }
        state.interaction.activity = .inking(session)
        return []
    }

    /// Lifts the pen; what it drew becomes a finished stroke (the eraser's path is not kept).
    static func endStroke(_ session: inout InkSession) {
        if let current = session.current, !session.tool.erases {
            session.strokes.append(current)
        }
        session.current = nil
        // The eraser's next pass is an undo step of its own.
        session.erasingPass = nil
    }

    private static func movePen(_ state: inout EditorState, _ session: inout InkSession, dx: Double, dy: Double,
                                _ env: EditorEnvironment) -> [EditorEffect] {
        let size = state.pageSize
        let from = session.pen
        if state.showsTextView {
            // In the text view the pen goes a cell at a time (Shift: eight), through the cells' middles, so a stroke
            // marks the cells it is drawn over and a line drawn down stays in its column.
            let viewport = state.viewport(cellPixels: env.cellPixels)
            let at = viewport.cell(for: from)
            let step = abs(dx) >= 10 || abs(dy) >= 10 ? 8 : 1
            let target = viewport.rect(forCellColumn: at.column + Int(dx.sign == .minus ? -1 : dx > 0 ? 1 : 0) * step,
                                       row: at.row + Int(dy.sign == .minus ? -1 : dy > 0 ? 1 : 0) * step).center
            session.pen = Point(x: min(max(0, target.x), size.width), y: min(max(0, target.y), size.height))
            state.cursor = session.pen
            revealCursor(&state, env)
            return penMoved(&state, &session, from: from)
        }
        session.pen = Point(x: min(max(0, from.x + dx), size.width), y: min(max(0, from.y + dy), size.height))
        state.cursor = session.pen
        revealCursor(&state, env)
        return penMoved(&state, &session, from: from)
    }

    /// Draws or erases along the pen's way from `from` to where it is now.
    static func penMoved(_ state: inout EditorState, _ session: inout InkSession, from: Point) -> [EditorEffect] {
        guard session.isPenDown, session.pen != from else {
            state.interaction.activity = .inking(session)
            return []
        }
        if session.tool.erases {
            state.interaction.activity = .inking(session)
            return erase(&state, &session, from: from, to: session.pen)
        }
        // A shape follows the pen: its corners are where the pen went down, or was placed.
        if !session.tool.places { session.current?.append(session.pen) }
        state.interaction.activity = .inking(session)
        // A stroke with the pen still down is journaled as it grows.
        return journalDue
    }

    /// Removes every whole stroke of the page's ink that the eraser touches, or with the partial eraser the part
    /// of each it passes over (what is left either side stays, in the same markup). Nothing is pending while it
    /// erases: switching to the eraser made the strokes drawn before it a markup.
    /// The whole way from `start` to `end` is tested as one segment, so a long step cannot jump over a stroke.
    static func erase(_ state: inout EditorState, _ session: inout InkSession, from start: Point, to end: Point) -> [EditorEffect] {
        let radius = state.inkStyle.eraserRadius
        let partly = session.tool == .partialEraser
        // The ink's width counts: its edge, not its middle line, is what the eraser must reach, and a piece left by
        // the partial eraser ends where its round cap stays clear of the eraser's way.
        func kept(_ stroke: [Point], width: Double) -> [[Point]] {
            if partly { return InkMarkup.erasing(stroke, within: radius + width / 2, ofSegment: start, end) ?? [stroke] }
            return InkMarkup.stroke(stroke, passesWithin: radius + width / 2, ofSegment: start, end) ? [] : [stroke]
        }
        state.interaction.activity = .inking(session)
        var updated = state.markup
        for item in state.markup.items(onPage: session.pageIndex) {
            guard case .ink(var ink) = item.content else { continue }
            let kept = ink.strokes.flatMap { kept($0, width: ink.width) }
            guard kept != ink.strokes else { continue }
            if kept.isEmpty {
                updated.remove(item.id)
            } else {
                ink.strokes = kept
                updated.replace(item.with(.ink(ink)))
            }
        }
        guard updated != state.markup else {
            // Ink the file already holds is an annotation: the eraser does not reshape it, and says so rather than
            // doing nothing.
            let fileInk = selectableAnnotations(state).contains { annotation in
                annotation.subtype == .ink && annotation.pageIndex == session.pageIndex
                    && annotation.drawing.inkList.contains { InkMarkup.stroke($0, passesWithin: radius + (annotation.drawing.lineWidth ?? 1) / 2,
                                                                             ofSegment: start, end) }
            }
            if fileInk { state.message = "The eraser takes this session's ink; ink the file holds is an annotation: Esc, Tab to it, x deletes it" }
            return []
        }
        var next = state.edits
        next.markup = updated
        if let pass = session.erasingPass, state.editing.extend(pass, to: next) { return journalDue }
        let id = state.freshID()
        guard state.editing.commit(next, id: id, time: state.now) != nil else { return [] }
        session.erasingPass = id
        state.interaction.activity = .inking(session)
        return journalDue
    }

    private static func switchTool(_ state: inout EditorState, _ session: inout InkSession, to tool: InkTool) -> [EditorEffect] {
        guard tool != session.tool else { return [] }
        let effects = commitInk(&state, &session)
        session.tool = tool
        state.interaction.activity = .inking(session)
        return effects
    }

    /// Makes the strokes drawn so far one ink markup (one undo step) and starts afresh.
    static func commitInk(_ state: inout EditorState, _ session: inout InkSession) -> [EditorEffect] {
        if session.tool == .callout {
            // A spot without words is no callout: dropped when the tool changes or ink mode ends.
            session.current = nil
            if case .inking = state.interaction.activity { state.interaction.activity = .inking(session) }
            return []
        }
        if session.tool.shapeKind != nil { return finishShape(&state, &session) }
        endStroke(&session)
        let strokes = session.strokes
        session.strokes = []
        let committed = strokes.isEmpty || session.tool.erases ? nil
            : MarkupItem(id: session.id, pageIndex: session.pageIndex,
                         content: .ink(state.inkStyle.markup(for: session.tool, strokes: strokes)))
        // The next strokes make another markup; the session must not show the committed ones as pending too.
        if committed != nil { session.id = MarkupID(state.freshID()) }
        if case .inking = state.interaction.activity { state.interaction.activity = .inking(session) }
        guard let markup = committed else { return [] }
        return change(&state) { $0.add(markup) }
    }
}
