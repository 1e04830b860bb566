import RedlineCore

/// The shape tools of ink mode: a rectangle, an ellipse, a line or an arrow goes from where the pen goes down to
/// where it comes up (Space twice, or a drag); a polygon or a polyline takes a corner at each Space or click and
/// ends with Enter. Each shape is a markup of its own, one undo step.
extension EditorReducer {
    /// Space with a shape tool: the first corner, then for a box or a line its last, for a polygon the next.
    static func placeCorner(_ state: inout EditorState, _ session: inout InkSession) -> [EditorEffect] {
        guard let kind = session.tool.shapeKind else { return [] }
        guard let placed = session.current else {
            session.current = [session.pen]
            state.interaction.activity = .inking(session)
            return journalDue
        }
        guard kind.takesCorners else { return finishShape(&state, &session) }
        if placed.last != session.pen, placed.count < ShapeMarkup.mostCorners { session.current = placed + [session.pen] }
        state.interaction.activity = .inking(session)
        return journalDue
    }

    /// The shape drawn so far becomes a markup, and the tool starts afresh. One that encloses nothing (the pen
    /// lifted where it went down, a polygon of two corners) is not kept, and the message says why.
    static func finishShape(_ state: inout EditorState, _ session: inout InkSession) -> [EditorEffect] {
        guard let kind = session.tool.shapeKind, session.current != nil else { return [] }
        let shape = session.shape(state.inkStyle)
        session.current = nil
        let id = session.id
        if shape != nil { session.id = MarkupID(state.freshID()) }
        state.interaction.activity = .inking(session)
        guard let shape else {
            state.message = kind.takesCorners
                ? "A \(kind.rawValue) needs \(kind.leastPoints) corners or more: Space or a click places each, Enter ends it"
                : "A \(kind.rawValue) needs room: move the pen before lifting it (or drag)"
            return journalDue
        }
        let item = MarkupItem(id: id, pageIndex: session.pageIndex, content: .shape(shape))
        return change(&state) { $0.add(item) }
    }

    /// `f`: rectangles, ellipses and polygons from now on filled in their colour, or outlined only.
    static func toggleFill(_ state: inout EditorState, _ session: inout InkSession) -> [EditorEffect] {
        state.inkStyle.shapeFilled.toggle()
        state.interaction.activity = .inking(session)
        let now = state.inkStyle.shapeFilled ? "filled" : "outlined"
        if session.tool.shapeKind?.canBeFilled == true {
            state.message = "Rectangles, ellipses and polygons are \(now) from now on"
        } else {
            state.message = "Rectangles, ellipses and polygons will be \(now) (r, o or P draws one)"
        }
        return journalDue
    }
}
