import RedlineCore

/// The shape tools of ink mode: a rectangle, an ellipse, a line or an arrow goes from where the pen goes down to
/// where it comes up (Space twice, or a drag); a polygon or a polyline takes a corner at each Space or click and
/// ends with Enter. Each shape is a markup of its own, one undo step.
extension EditorReducer {
    /// Space with a shape tool: the first corner, then for a box or a line its last, for a polygon the next.
    static func placeCorner(_ state: inout EditorState, _ session: inout InkSession) -> [EditorEffect] {
        if session.tool == .callout, session.current == nil {
            session.current = [session.pen]
            state.interaction.activity = .inking(session)
            return []
        }
        guard let kind = session.tool.shapeKind else { return finishShape(&state, &session) }
        if kind == .note { return placeNote(&state, &session) }
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
        if session.tool == .callout { return startCalloutWords(&state, &session) }
        guard let kind = session.tool.shapeKind, session.current != nil else { return [] }
        let shape = session.shape(state.inkStyle)
        session.current = nil
        let id = session.id
        if shape != nil { session.id = MarkupID(state.freshID()) }
        state.interaction.activity = .inking(session)
        guard let shape else {
            let name = (kind == .ellipse || kind == .arrow ? "An " : "A ") + kind.rawValue
            state.message = kind.takesCorners
                ? "\(name) needs \(kind.leastPoints) corners or more, not all in one place\(kind == .polygon ? " or on one line" : ""): Space or a click places each, Enter ends it"
                : "\(name) needs room: move the pen before lifting it (or drag)"
            return journalDue
        }
        // A stamp placed at its usual size near the page's edge is moved onto the page, as a nudge stops there.
        let item = MarkupItem(id: id, pageIndex: session.pageIndex, content: .shape(kind == .stamp ? shape.keptInside(state.pageSize) : shape))
        return change(&state) { $0.add(item) }
    }

    /// A sticky note where the pen is (moved onto the page near an edge), and its words asked for at once, as a
    /// reader opens a new note's popup: Enter makes the note with them, Esc drops it; either comes back to the tool.
    static func placeNote(_ state: inout EditorState, _ session: inout InkSession) -> [EditorEffect] {
        let note = ShapeMarkup.note(at: session.pen, color: state.inkStyle.noteColor).keptInside(state.pageSize)
        let item = MarkupItem(id: session.id, pageIndex: session.pageIndex, content: .shape(note))
        session.id = MarkupID(state.freshID())
        session.current = nil
        state.interaction.activity = .commenting(CommentDraft(markup: item.id, text: "", resumes: session, placing: item))
        return journalDue
    }

    /// The callout's spot is placed: its words are typed where the pen is now (Enter keeps them, Esc drops the
    /// callout), and the callout tool is in hand again afterwards.
    static func startCalloutWords(_ state: inout EditorState, _ session: inout InkSession) -> [EditorEffect] {
        guard let tip = session.current?.first else { return [] }
        let markup = TextMarkup(origin: session.pen, text: "", fontSize: state.textStyle.fontSize, color: state.textStyle.color, pointsAt: tip)
        let id = session.id
        session.id = MarkupID(state.freshID())
        session.current = nil
        state.interaction.activity = .typing(TextDraft(editing: nil, id: id, pageIndex: session.pageIndex, markup: markup, resumes: session))
        return []
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

    /// `s` in ink mode: the stamp tool, then each `s` the next standard stamp.
    static func stepStamp(_ state: inout EditorState, _ session: inout InkSession) -> [EditorEffect] {
        if session.tool == .stamp {
            let standard = ShapeMarkup.standardStamps
            let next = standard.firstIndex(of: state.inkStyle.stampName).map { standard[($0 + 1) % standard.count] } ?? standard[0]
            state.inkStyle.stampName = next
        }
        let effects = session.tool == .stamp ? [] : commitInk(&state, &session)
        session.tool = .stamp
        // The status line names the stamp; the message line keeps the tool's keys.
        state.interaction.activity = .inking(session)
        return effects
    }

    /// `:stamp WORDS`: the stamp tool with the reviewer's own words, in ink mode at the cursor.
    static func takeStamp(_ state: inout EditorState, words: String, _ env: EditorEnvironment) -> [EditorEffect] {
        let name = ShapeMarkup.stampName(forWords: words)
        guard !name.isEmpty else {
            state.message = "A stamp needs words: :stamp Reviewed by Legal (in ink mode s steps through the standard stamps)"
            return []
        }
        if let problem = ShapeMarkup.stampNameProblem(name) {
            state.message = "Not taken: the stamp's name \(problem)"
            return []
        }
        if let problem = env.measurer.undrawable(AnnotationSketch.words(ofStamp: name)) {
            state.message = "Not taken: \(problem)"
            return []
        }
        state.inkStyle.stampName = name
        state.selection = nil
        var session = InkSession(id: MarkupID(state.freshID()), pageIndex: state.pageIndex, pen: state.cursor)
        if case .inking(let current) = state.interaction.activity { session = current }
        session.tool = .stamp
        state.interaction.activity = .inking(session)
        return []
    }
}
