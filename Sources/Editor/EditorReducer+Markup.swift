import RedlineCore

/// Changes to the markup itself: every one goes through `change`, which keeps undo and the crash journal.
extension EditorReducer {
    /// Applies a change to the markup as one operation (one undo step) and marks the journal due.
    static func change(_ state: inout EditorState, _ update: (inout MarkupLayer) -> Void) -> [EditorEffect] {
        changeEdits(&state) { update(&$0.markup) }
    }

    /// Applies a change to any of the edits, markup, annotations or bookmarks, as one operation of the
    /// reviewer's, stamped with the event's time and a fresh id.
    static func changeEdits(_ state: inout EditorState, _ update: (inout DocumentEdits) -> Void) -> [EditorEffect] {
        var next = state.edits
        update(&next)
        guard state.editing.commit(next, id: state.freshID(), time: state.now) != nil else { return [] }
        return journalDue
    }

    /// The crash journal must catch up: the runner writes it within its debounce interval.
    static let journalDue: [EditorEffect] = [.journalChanged]

    /// Moves a markup as part of a run (held arrow keys, a mouse drag): the run is one operation.
    static func moveInRun(_ state: inout EditorState, _ item: MarkupItem, to moved: MarkupItem, continuing: Bool) -> [EditorEffect] {
        if continuing {
            state.editing.continueRun(.replaceMarkup(before: item, after: moved), id: state.freshID(), time: state.now)
            return journalDue
        }
        return change(&state) { $0.replace(moved) }
    }

    static func nudgeSelection(_ state: inout EditorState, dx: Double, dy: Double,
                               _ env: EditorEnvironment) -> [EditorEffect] {
        guard let id = state.selection, let item = state.markup.item(id) else { return [] }
        let moved = item.translated(dx: dx, dy: dy).keptInside(pageSize: state.pageSize, measuredBy: env.measurer)
        guard moved != item else { return [] }
        // Holding an arrow key makes many nudges; together they are one step to undo.
        let continuing = state.nudgeRun == id
        state.nudgeRun = id
        return moveInRun(&state, item, to: moved, continuing: continuing)
    }

    static func deleteSelection(_ state: inout EditorState) -> [EditorEffect] {
        guard let id = state.selection else { return [] }
        state.selection = nil
        return change(&state) { $0.remove(id) }
    }

    static let fontSizeSteps: [Double] = [8, 9, 10, 11, 12, 14, 16, 18, 20, 24, 28, 32, 36, 40, 44, 48]

    static func steppedFontSize(_ size: Double, up: Bool) -> Double {
        let next = up ? fontSizeSteps.first { $0 > size + 1e-9 } : fontSizeSteps.last { $0 < size - 1e-9 }
        return next ?? (up ? TextMarkup.fontSizeRange.upperBound : TextMarkup.fontSizeRange.lowerBound)
    }

    static func stepFontSize(_ state: inout EditorState, up: Bool, _ env: EditorEnvironment) -> [EditorEffect] {
        guard let id = state.selection, let item = state.markup.item(id) else {
            state.textStyle.fontSize = steppedFontSize(state.textStyle.fontSize, up: up)
            state.message = "New text: \(PDFNumber.format(state.textStyle.fontSize)) pt"
            return []
        }
        if case .textMarks = item.content {} else {
            guard permits(&state, .transformAnnotation, on: item, env, at: middle(of: item, env)) else { return [] }
        }
        switch item.content {
        case .text(var text):
            let size = steppedFontSize(text.fontSize, up: up)
            guard size != text.fontSize else {
                state.message = "Font size is already \(PDFNumber.format(size)) pt (8 to 48)"
                return []
            }
            text.fontSize = size
            guard item.with(.text(text)).fits(pageSize: state.pageSize, measuredBy: env.measurer) else {
                state.message = "At \(PDFNumber.format(size)) pt the text would be wider than the page"
                return []
            }
            state.textStyle.fontSize = size
            let resized = item.with(.text(text)).keptInside(pageSize: state.pageSize, measuredBy: env.measurer)
            return change(&state) { $0.replace(resized) }
        case .textMarks:
            state.message = "A \(StatusLine.describe(item).split(separator: " ").first ?? "mark") follows its words: its size does not change"
            return []
        case .ink(var ink):
            let width = InkStyle.step(ink.width, up: up, highlighter: ink.isHighlighter)
            guard width != ink.width else {
                state.message = "Width is already \(PDFNumber.format(width)) pt (\(PDFNumber.format(ink.widthRange.lowerBound)) to \(PDFNumber.format(ink.widthRange.upperBound)))"
                return []
            }
            ink.width = width
            let resized = item.with(.ink(ink)).keptInside(pageSize: state.pageSize, measuredBy: env.measurer)
            return change(&state) { $0.replace(resized) }
        case .shape(var shape) where shape.kind == .note:
            // A note's icon grows and shrinks by 4 points a step, from its top-left corner, within what readers draw.
            guard let box = shape.box else { return [] }
            let side = min(max(box.width + (up ? 4 : -4), ShapeMarkup.noteSides.lowerBound), ShapeMarkup.noteSides.upperBound)
            guard side != box.width else {
                state.message = "The note is already as \(up ? "large" : "small") as it goes (\(PDFNumber.format(side)) pt)"
                return []
            }
            shape.points = [Point(x: box.minX, y: box.minY), Point(x: box.minX + side, y: box.minY + side)]
            let resized = item.with(.shape(shape.keptInside(state.pageSize)))
            return change(&state) { $0.replace(resized) }
        case .shape(var shape) where shape.kind == .stamp:
            // A stamp grows and shrinks whole, from its top-left corner, its words with it.
            guard let box = shape.box else { return [] }
            let factor = up ? 1.25 : 0.8
            let width = min(max(box.width * factor, 40), state.pageSize.width), height = width * box.height / box.width
            guard abs(width - box.width) > 0.01, height <= state.pageSize.height else {
                state.message = "The stamp is already as \(up ? "large" : "small") as it goes"
                return []
            }
            shape.points = [Point(x: box.minX, y: box.minY), Point(x: box.minX + width, y: box.minY + height)]
            let resized = item.with(.shape(shape.keptInside(state.pageSize)))
            return change(&state) { $0.replace(resized) }
        case .shape(var shape):
            // A rectangle's or an ellipse's line grows inwards, within its box; a line's grows about its middle.
            let width = InkStyle.step(shape.width, up: up, highlighter: false)
            guard width != shape.width else {
                state.message = "Line width is already \(PDFNumber.format(width)) pt (\(PDFNumber.format(ShapeMarkup.widths.lowerBound)) to \(PDFNumber.format(ShapeMarkup.widths.upperBound)))"
                return []
            }
            shape.width = width
            state.inkStyle.shapeWidth = width
            let resized = item.with(.shape(shape)).keptInside(pageSize: state.pageSize, measuredBy: env.measurer)
            return change(&state) { $0.replace(resized) }
        }
    }

    static func cycleColor(_ state: inout EditorState) -> [EditorEffect] {
        guard let id = state.selection, let item = state.markup.item(id) else {
            state.textStyle.color = state.textStyle.color.next(in: state.palettes.text)
            state.message = "New text: \(state.textStyle.color.name)"
            return []
        }
        switch item.content {
        case .text(var text):
            text.color = text.color.next(in: state.palettes.text)
            state.textStyle.color = text.color
            return change(&state) { $0.replace(item.with(.text(text))) }
        case .ink(var ink):
            ink.color = ink.color.next(in: state.palettes.palette(forHighlighter: ink.isHighlighter))
            return change(&state) { $0.replace(item.with(.ink(ink))) }
        case .textMarks(var marks):
            marks.color = marks.color.next(in: state.palettes.palette(forHighlighter: marks.kind == .highlight))
            state.tools.textMarksColor[marks.kind] = marks.color
            return change(&state) { $0.replace(item.with(.textMarks(marks))) }
        case .shape(var shape):
            shape.color = shape.color.next(in: state.palettes.text)
            state.inkStyle.shapeColor = shape.color
            return change(&state) { $0.replace(item.with(.shape(shape))) }
        }
    }

    static func undo(_ state: inout EditorState) -> [EditorEffect] {
        if let last = state.editing.history.undoable.last, !sharedStillCurrent(state, last) {
            _ = state.editing.history.popUndo()
            return report(&state, .overtaken, verb: "undo")
        }
        return report(&state, state.editing.undo(id: state.freshID(), time: state.now), verb: "undo")
    }

    static func redo(_ state: inout EditorState) -> [EditorEffect] {
        if let last = state.editing.history.redoable.last, !sharedStillCurrent(state, last) {
            _ = state.editing.history.popRedo()
            return report(&state, .overtaken, verb: "redo")
        }
        return report(&state, state.editing.redo(id: state.freshID(), time: state.now), verb: "redo")
    }

    /// In a shared session: the server's annotations `operation` changes are at the versions its history knows.
    private static func sharedStillCurrent(_ state: EditorState, _ operation: DocumentOperation) -> Bool {
        guard let replica = state.sharing?.replica else { return true }
        return state.editing.stillCurrent(operation) { name in
            replica.entries[name.rawValue].flatMap { $0.deleted ? nil : $0.version }
        }
    }

    /// What an operation changed, in a few words: "the move of the square", "markup", "the text box's new look".
    static func describe(_ changes: [DocumentChange], annotations: [Annotation]) -> String {
        func name(_ id: AnnotationID) -> String {
            "the " + (annotations.first { $0.id == id }?.subtype.label.lowercased() ?? "annotation")
        }
        func kind(_ change: DocumentChange) -> String {
            switch change {
            case .insertMarkup, .removeMarkup, .replaceMarkup: "markup"
            // One that answers nothing is the copy an undone deletion the server had shares again.
            case .insertAnnotation(let annotation, _) where annotation.inReplyTo == nil,
                 .removeAnnotation(let annotation, _) where annotation.inReplyTo == nil:
                "the deletion of the " + (annotation.subtype.label.lowercased())
            case .insertAnnotation, .removeAnnotation, .replaceAnnotation: "a reply or review"
            case .changeContents(let id, _, _): "the new words of " + name(id)
            case .moveAnnotation(let id, _, _): "the move of " + name(id)
            case .restyleAnnotation(let id, let before, let after):
                (before?.fontSize != after?.fontSize ? "the new size of " : "the new colour of ") + name(id)
            case .deleteAnnotation(let id, _): "the deletion of " + name(id)
            case .putBookmark: "a bookmark"
            }
        }
        var seen: [String] = []
        for kind in changes.map(kind) where !seen.contains(kind) { seen.append(kind) }
        return seen.isEmpty ? "nothing" : seen.joined(separator: ", ")
    }

    private static func report(_ state: inout EditorState, _ outcome: DocumentEditing.UndoOutcome, verb: String) -> [EditorEffect] {
        state.interaction.endNudgeRuns()
        switch outcome {
        case .nothing:
            state.message = "Nothing to \(verb)"
            return []
        case .overtaken:
            // In a shared session the later change may be the user's own answer to a conflict, or another session's.
            let since = state.sharing == nil ? "someone else changed it since" : "it changed since (elsewhere, or by your answer to a conflict)"
            state.message = "Not \(verb == "undo" ? "undone" : "redone"): \(since); \(state.keymaps.keys(for: verb == "undo" ? .undo : .redo, in: .page).first?.name ?? verb) again goes on to what came before"
            return []
        case .done(let changes):
            if state.sharing != nil {
                let now = state.now
                for name in changes.compactMap(\.annotationName) {
                    state.sharing?.changedBackAt[name] = now
                    state.sharing?.changedAt[name] = now
                }
            }
            if let id = state.selection, state.markup.item(id)?.pageIndex != state.pageIndex { state.selection = nil }
            state.message = (verb == "undo" ? "Undone: " : "Redone: ") + describe(changes, annotations: state.annotations)
            return journalDue
        }
    }
}
