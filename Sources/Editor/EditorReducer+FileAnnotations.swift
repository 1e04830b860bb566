import RedlineCore

/// The annotations a file already has, edited on the page: Tab reaches them after the session's markup, the arrow
/// keys move the selected one (its replies and popup along), `x` deletes it with its thread. Every change is one
/// undo step and goes to the crash journal; the file's own refusals (read-only, locked, permissions) are said.
extension EditorReducer {
    /// The file's annotations on the page shown that Tab stops at, in reading order: markup annotations that
    /// start a thread (a reply goes with what it answers; links, form fields and popups are not markup), shown,
    /// and with an area on the page (an empty /Rect draws nothing to select).
    static func selectableAnnotations(_ state: EditorState) -> [Annotation] {
        state.editing.selectableAnnotations(onPage: state.pageIndex) { selectableAnnotationsNow(state) }
    }

    private static func selectableAnnotationsNow(_ state: EditorState) -> [Annotation] {
        // In the order of where the file has them (or where they were made, for annotations added here: a copy kept
        // in a conflict): a move does not make Tab skip the one it passed.
        let made = state.edits.annotations.added.lazy.filter { !$0.isReply }.map { ($0.id, $0.rect) }
        let placed = Dictionary(state.document.annotations.map { ($0.id, $0.rect) } + made, uniquingKeysWith: { first, _ in first })
        let page = Rect(x: 0, y: 0, width: state.pageSize.width, height: state.pageSize.height)
        // In a shared session the server's copy of the session's markup is the markup's to select.
        let markupNames = state.sharing == nil ? [] : markupNames(state)
        return state.annotations.filter {
            $0.pageIndex == state.pageIndex && placed[$0.id] != nil && !markupNames.contains($0.id) && $0.subtype.isMarkup && !$0.isReply
                && $0.flags & Annotation.noViewFlag == 0 && $0.flags & Annotation.hiddenFlag == 0
                && $0.rect.width > 0 && $0.rect.height > 0 && $0.rect.intersects(page)
        }.sorted {
            let (a, b) = (placed[$0.id] ?? $0.rect, placed[$1.id] ?? $1.rect)
            return (a.minY, a.minX, $0.order) < (b.minY, b.minX, $1.order)
        }
    }

    static func selectAnnotation(_ state: inout EditorState, _ annotation: Annotation) {
        state.selection = nil
        state.interaction.selectedAnnotation = annotation.id
        state.message = describe(annotation)
    }

    /// What the message line says of a selected annotation: what it is, whose, its text, and what stops a change.
    static func describe(_ annotation: Annotation) -> String {
        var parts = [annotation.subtype.label]
        if let author = annotation.author, !author.isEmpty { parts.append("by \(author)") }
        if let contents = annotation.contents?.split(whereSeparator: \.isNewline).first, !contents.isEmpty {
            parts.append("\"\(contents.count > 40 ? contents.prefix(39) + "…" : contents)\"")
        }
        if annotation.isReadOnly { parts.append("read-only") } else if annotation.isLocked { parts.append("locked") }
        return parts.joined(separator: " · ")
    }

    /// Moves the selected annotation of the file; a held arrow key's nudges are one undo step.
    static func nudgeAnnotation(_ state: inout EditorState, _ annotation: Annotation, dx: Double, dy: Double) -> [EditorEffect] {
        // Kept on the page: at most as far as its box can go.
        let size = state.pageSize, box = annotation.rect
        let asked = (dx, dy)
        let dx = min(max(dx, -box.minX), max(0, size.width - box.maxX))
        let dy = min(max(dy, -box.minY), max(0, size.height - box.maxY))
        let atEdge = dx != asked.0 || dy != asked.1
        guard dx != 0 || dy != 0 else {
            state.message = describe(annotation) + " · " + movedSoFar(state.edits.annotations.moved[annotation.id]) + " · at the page's edge"
            return []
        }
        var edits = state.edits.annotations
        do {
            try editing(state).move(annotation.id, dx: dx, dy: dy, at: state.now, current: state.annotations, edits: &edits)
        } catch {
            state.message = "Not moved: \(error)"
            return []
        }
        state.message = describe(annotation) + " · " + movedSoFar(edits.moved[annotation.id]) + (atEdge ? " · at the page's edge" : "")
        let continuing = state.interaction.annotationNudgeRun == annotation.id
        state.interaction.annotationNudgeRun = annotation.id
        if continuing {
            let change = DocumentChange.moveAnnotation(id: annotation.id, before: state.edits.annotations.moved[annotation.id],
                                                       after: edits.moved[annotation.id])
            state.editing.continueRun(change, id: state.freshID(), time: state.now)
            return journalDue
        }
        return changeEdits(&state) { $0.annotations = edits }
    }

    /// How far from where the file has it, as the user reads a page: "3 pt right, 10 pt down".
    static func movedSoFar(_ move: AnnotationEdits.Move?) -> String {
        guard let move else { return "back where it was" }
        func amount(_ value: Double, _ positive: String, _ negative: String) -> String? {
            let rounded = (value * 10).rounded() / 10
            guard rounded != 0 else { return nil }
            let number = rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", abs(rounded))
            return "\(number.hasPrefix("-") ? String(number.dropFirst()) : number) pt \(rounded > 0 ? positive : negative)"
        }
        let parts = [amount(move.dx, "right", "left"), amount(move.dy, "down", "up")].compactMap { $0 }
        return parts.isEmpty ? "back where it was" : "moved " + parts.joined(separator: ", ")
    }

    /// `c`: the next colour of the palette its kind uses (text colours for a text box, highlighter colours for a
    /// highlight, ink colours for the rest), drawn anew as the save will draw it.
    static func recolourAnnotation(_ state: inout EditorState, _ annotation: Annotation) -> [EditorEffect] {
        let palette = annotation.subtype == .freeText ? state.palettes.text
            : state.palettes.palette(forHighlighter: annotation.subtype == .highlight)
        let current = MarkupColor.custom(annotation.drawing.color ?? RGBColor(red: 0, green: 0, blue: 0))
        let named = palette.first { $0.rgb == current.rgb } ?? current
        let next = named.next(in: palette)
        return restyleAnnotation(&state, annotation, color: next.rgb, fontSize: nil, saying: next.name)
    }

    /// `+` and `-` on a text box of the file: its font size, by the steps markup text takes, as long as its words
    /// stay on the page.
    static func stepAnnotationFontSize(_ state: inout EditorState, _ annotation: Annotation, up: Bool,
                                       _ env: EditorEnvironment) -> [EditorEffect] {
        let size = annotation.drawing.fontSize ?? 12
        let next = steppedFontSize(size, up: up)
        guard annotation.subtype != .freeText || next != size else {
            state.message = "Font size is already \(PDFNumber.format(size)) pt (8 to 48)"
            return []
        }
        if annotation.subtype == .freeText, let problem = wouldLeaveThePage(annotation, text: nil, fontSize: next, state, env) {
            state.message = "Not changed: " + problem
            return []
        }
        let warning = mayNotFit(annotation, text: annotation.contents ?? "", fontSize: next, env) ? mayNotFitWarning : ""
        return restyleAnnotation(&state, annotation, color: nil, fontSize: next, saying: "\(PDFNumber.format(next)) pt" + warning)
    }

    /// Why a text box of the file with these words or this size would not fit where it stands: it would reach past
    /// the page's right or bottom edge. Nil when it fits (or is no text box).
    static func wouldLeaveThePage(_ annotation: Annotation, text: String?, fontSize: Double?, _ state: EditorState,
                                  _ env: EditorEnvironment) -> String? {
        guard annotation.subtype == .freeText else { return nil }
        var next = annotation
        if let text { next.contents = text.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let fontSize { next.drawing.fontSize = fontSize }
        guard let item = MarkupAnnotations.item(for: next) else { return nil }
        let bounds = item.bounds(measuredBy: env.measurer)
        guard bounds.maxX > state.pageSize.width || bounds.maxY > state.pageSize.height else { return nil }
        return "at \(PDFNumber.format(next.drawing.fontSize ?? 12)) pt the words would reach past the page's edge (move the box first)"
    }

    /// Why new words of a text box Redline draws again would print as empty boxes (characters its font lacks); nil
    /// when they draw, or when readers draw the box from its keys in fonts of their own.
    static func undrawableWords(_ annotation: Annotation, text: String, _ env: EditorEnvironment) -> String? {
        var next = annotation
        next.contents = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard annotation.subtype == .freeText, MarkupAnnotations.item(for: next) != nil else { return nil }
        return env.measurer.undrawable(next.contents ?? "")
    }

    /// True when a text box readers draw in its own /Rect (one the painter does not fit to its words: filled,
    /// centred, several lines) will not hold these words at this size: the save grows its box down to hold them all.
    static func mayNotFit(_ annotation: Annotation, text: String, fontSize: Double?, _ env: EditorEnvironment) -> Bool {
        var next = annotation
        next.contents = text
        if let fontSize { next.drawing.fontSize = fontSize }
        guard annotation.subtype == .freeText, MarkupAnnotations.item(for: next) == nil, annotation.rect.width > 0 else { return false }
        // The page's own height bounds the growth; any height beyond the box's own tells the same.
        let page = Size(width: .greatestFiniteMagnitude, height: .greatestFiniteMagnitude)
        return MarkupAnnotations.grownToHoldItsWords(next, pageSize: page, measuredBy: env.measurer).rect != annotation.rect
    }

    static let mayNotFitWarning = " · its box grows down to hold every line (readers wrap the words inside it)"

    private static func restyleAnnotation(_ state: inout EditorState, _ annotation: Annotation, color: RGBColor?, fontSize: Double?,
                                          saying: String) -> [EditorEffect] {
        guard let original = state.document.annotations.first(where: { $0.id == annotation.id })
            ?? state.edits.annotations.added.first(where: { $0.id == annotation.id }) else { return [] }
        var edits = state.edits.annotations
        do {
            try editing(state).restyle(annotation.id, color: color, fontSize: fontSize, original: original, at: state.now,
                                       current: state.annotations, edits: &edits)
        } catch {
            state.message = "Not changed: \(error)"
            return []
        }
        state.interaction.endNudgeRuns()
        state.message = describe(annotation) + " · " + saying
        return changeEdits(&state) { $0.annotations = edits }
    }

    static func deleteSelectedAnnotation(_ state: inout EditorState, _ annotation: Annotation) -> [EditorEffect] {
        var edits = state.edits.annotations
        let gone: Set<AnnotationID>
        do {
            gone = try editing(state).delete(annotation.id, current: state.annotations, edits: &edits)
        } catch {
            state.message = "Not deleted: \(error)"
            return []
        }
        state.interaction.tabResumesAt = selectableAnnotations(state).firstIndex { $0.id == annotation.id }.map { (state.pageIndex, $0) }
        state.interaction.selectedAnnotation = nil
        state.message = "Deleted the \(annotation.subtype.label.lowercased())"
            + (gone.count > 1 ? " with \(gone.count - 1) repl\(gone.count == 2 ? "y" : "ies")" : "") + " (u undoes)"
        return changeEdits(&state) { $0.annotations = edits }
    }

    private static func editing(_ state: EditorState) -> ThreadEditing {
        ThreadEditing(author: state.reviewer.author, path: state.fileName, allowsChanges: state.document.allowsAnnotationChanges)
    }
}
