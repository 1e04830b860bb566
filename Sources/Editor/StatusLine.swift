import RedlineCore
import TerminalGrid

/// File, page, zoom, tool, selection and unsaved state, in one reversed line.
enum StatusLine {
    static func draw(_ grid: inout CellGrid, _ state: EditorState, _ env: EditorEnvironment, row: Int) {
        let style = Theme.status
        grid.fill(CellRect(column: 0, row: row, width: grid.columns, height: 1), with: Cell(" ", style: style))
        grid.write(" " + layout(fields(state, cellPixels: env.cellPixels), width: grid.columns - 1), column: 0, row: row, style: style)
    }

    /// The fields, most important first: where the user is, whether work is unsaved, what keys act on, the
    /// tool, then the rest; the file name, which the terminal's title usually shows anyway, last.
    static func fields(_ state: EditorState, cellPixels: CellPixelSize) -> [String] {
        var fields = ["page \(state.pageIndex + 1)/\(state.document.pageCount)"
            + (state.document.pageLabels.label(ofPage: state.pageIndex).map { " (" + VisibleText.line($0, limit: 40) + ")" } ?? "")
            + (state.bookmarks.bookmarks(onPage: state.pageIndex).isEmpty ? "" : " ★ bookmarked")]
        // The keys typed so far of a command still to come: a count, a first g.
        let pending = (state.interaction.pendingCount.map(String.init) ?? "") + (state.interaction.pendingG ? "g" : "")
            + (state.interaction.pendingMark.map { $0 == .set ? "m" : "'" } ?? "")
        if !pending.isEmpty { fields.append(pending + "…") }
        if let search = state.interaction.search.flatMap({ searchField($0, pageIndex: state.pageIndex) }) { fields.append(search) }
        // In a shared session the server keeps the changes: the shared field says what it does not have yet.
        if let sharing = state.sharing { fields.append(sharing.statusField) } else if state.isDirty { fields.append("[modified]") }
        if let id = state.selection, let item = state.markup.item(id) {
            fields.append("selected " + describe(item))
        }
        fields.append(tool(state))
        if state.showsTextView {
            fields.append("text view")
        } else if let fallback = state.textViewFallback {
            switch fallback {
            case .noText: fields.append("no text: picture")
            case .sideways, .upsideDown: fields.append("turned text: picture")
            case .notDrawn: fields.append("text view")
            }
        } else {
            fields.append("zoom \(Int((state.effectiveZoom(cellPixels: cellPixels) * 100).rounded()))%" + (state.view.fitsWidth ? " width" : ""))
        }
        if state.navigation.notDrawn[state.pageIndex] != nil { fields.append("not drawn") }
        if state.document.crowdedPages[state.pageIndex] != nil { fields.append("annotations not drawn") }
        if !state.document.repairs.isEmpty { fields.append("repaired") }
        if !state.document.bookmarkProblems.isEmpty { fields.append("bookmarks not read") }
        fields.append(state.fileName)
        return fields
    }

    /// As many fields as fit in `width`, in order; the first that does not fit is shortened when there is
    /// room for a useful part of it, and the rest left out.
    static func layout(_ fields: [String], width: Int) -> String {
        for separator in ["  │  ", " │ "] {
            let whole = fields.joined(separator: separator)
            if CharacterWidth.of(whole) <= width { return whole }
        }
        var line = ""
        for field in fields {
            let joined = line.isEmpty ? field : line + " │ " + field
            if CharacterWidth.of(joined) <= width {
                line = joined
                continue
            }
            let room = width - CharacterWidth.of(line.isEmpty ? "" : line + " │ ")
            if room >= 8 {
                let start = CharacterWidth.prefix(of: field, columns: room - 1)
                line = (line.isEmpty ? "" : line + " │ ") + (start.hasSuffix("…") ? start : start + "…")
            }
            break
        }
        return line
    }

    /// "hit 3 of 41" once every page is searched; while counting, how far it got.
    static func searchField(_ search: SearchSession, pageIndex: Int) -> String? {
        // Away from the hit, its number would say where the user is not.
        var search = search
        if search.current?.pageIndex != pageIndex { search.current = nil }
        let hits = search.hitCount == 1 ? "1 hit" : "\(search.hitCount) hits"
        switch search.progress {
        case .finished:
            guard let current = search.current else { return hits }
            return "hit \(search.ordinal(of: current)) of \(search.hitCount)"
        case .counting:
            let counting = "counting \(search.searchedCount)/\(search.pageCount) pages (Esc stops)"
            // Which hit this is is known once every page before it is searched.
            if let current = search.current, (0..<current.pageIndex).allSatisfy(search.isSearched) {
                return "hit \(search.ordinal(of: current)) of \(search.hitCount)+, " + counting
            }
            return "\(hits) so far, " + counting
        case .stopped:
            let found = "\(hits) in \(search.searchedCount) of \(search.pageCount) pages"
            guard let current = search.current else { return found }
            return "hit \(search.ordinal(of: current)) of " + found
        }
    }

    /// The current tool and what it would make.
    static func tool(_ state: EditorState) -> String {
        guard case .inking(let session) = state.interaction.activity else {
            return "text \(PDFNumber.format(state.textStyle.fontSize))pt \(state.textStyle.color.name)"
        }
        let pen = session.isPenDown ? "down" : "up"
        switch session.tool {
        case .pen: return "ink pen \(PDFNumber.format(state.inkStyle.penWidth))pt \(state.inkStyle.penColor.name), pen \(pen)"
        case .highlighter:
            return "ink highlighter \(PDFNumber.format(state.inkStyle.highlighterWidth))pt \(state.inkStyle.highlighterColor.name), pen \(pen)"
        // How far beyond the ink's edge it reaches: + and - change it, as they change the pen's width.
        case .eraser: return "ink eraser (whole strokes) \(PDFNumber.format(state.inkStyle.eraserRadius))pt, pen \(pen)"
        case .partialEraser: return "ink eraser (part of strokes) \(PDFNumber.format(state.inkStyle.eraserRadius))pt, pen \(pen)"
        case .stamp:
            let style = state.inkStyle
            return "stamp \(AnnotationSketch.words(ofStamp: style.stampName)) \(style.shapeColor.name), pen \(pen)"
        case .note: return "note \(state.inkStyle.noteColor.name)"
        case .callout:
            let placed = session.current == nil ? "pen \(pen)" : "spot placed"
            return "callout \(PDFNumber.format(state.textStyle.fontSize))pt \(state.textStyle.color.name), \(placed)"
        case .rectangle, .ellipse, .line, .arrow, .polygon, .polyline:
            let style = state.inkStyle
            let filled = session.tool.shapeKind?.canBeFilled == true && style.shapeFilled ? " filled" : ""
            let count = session.current?.count ?? 0
            let corners = session.tool.shapeKind?.takesCorners == true ? ", \(count) corner\(count == 1 ? "" : "s")" : ", pen \(pen)"
            return "shape \(session.tool.rawValue)\(filled) \(PDFNumber.format(style.shapeWidth))pt \(style.shapeColor.name)\(corners)"
        }
    }

    static func describe(_ item: MarkupItem) -> String {
        guard let comment = item.comment, item.takesComment else { return describeContent(item) }
        let shown = comment.count > 24 ? String(comment.prefix(23)) + "…" : comment
        return describeContent(item) + " \"" + VisibleText.line(shown) + "\""
    }

    private static func describeContent(_ item: MarkupItem) -> String {
        switch item.content {
        case .text(let text):
            let shown = text.text.count > 24 ? String(text.text.prefix(23)) + "…" : text.text
            return "\"\(shown)\" \(PDFNumber.format(text.fontSize))pt \(text.color.name)\(text.pointsAt == nil ? "" : " callout")"
        case .textMarks(let marks):
            let lines = marks.rects.count == 1 ? "1 line" : "\(marks.rects.count) lines"
            return "\(marks.kind.rawValue) \(lines) \(marks.color.name)"
        case .shape(let shape):
            let filled = shape.filled ? " filled" : ""
            if let words = shape.stampWords { return "stamp \(VisibleText.line(words, limit: 30)) \(shape.color.name)" }
            if shape.kind == .note { return "note \(shape.color.name)" }
            let corners = shape.kind.takesCorners ? " \(shape.points.count) corners" : ""
            return "\(shape.kind.rawValue)\(corners)\(filled) \(PDFNumber.format(shape.width))pt \(shape.color.name)"
        case .ink(let ink):
            let kind = ink.isHighlighter ? "highlight" : "ink"
            let strokes = ink.strokes.count == 1 ? "1 stroke" : "\(ink.strokes.count) strokes"
            return "\(kind) \(strokes) \(PDFNumber.format(ink.width))pt \(ink.color.name)"
        }
    }
}

/// The bottom line: what has the keyboard says what it shows: the command being typed, a question, text
/// being typed, the keys of the panel or the tool, or the latest message.
enum MessageLine {
    static func draw(_ grid: inout CellGrid, _ state: EditorState, row: Int) {
        var style = Theme.message
        let text: String
        switch state.focus {
        case .overlay(.commandLine(let line)): text = prompt(":", line, hint: nil, width: grid.columns)
        case .overlay(.searchLine(let search)): text = prompt(search.forward ? "/" : "?", search.text, hint: nil, width: grid.columns)
        case .overlay(.question(let question)):
            text = question.question(state.keymaps, width: grid.columns)
            style = Theme.question
        case .overlay(.help):
            text = state.keymaps.hints([([.helpDown, .helpUp], "scroll"), ([.helpPageDown, .helpPageUp], "a screen"),
                                        ([.closeHelp], "closes")], in: .help)
        case .typing(let draft):
            text = state.message ?? prompt("Text: ", draft.markup.text, hint: typingHint(state.keymaps, "commits"), width: grid.columns)
        case .inking(let session):
            text = state.message ?? inkHint(state.keymaps, session.tool)
        case .commenting(let draft):
            text = state.message ?? prompt("Comment: ", draft.text, hint: typingHint(state.keymaps, "keeps it (:wa saves it in the file)"),
                                           width: grid.columns)
        case .page:
            // A running save stays in view after other messages have gone: the keys go on working meanwhile.
            text = state.message ?? state.chrome.saving.map { "Saving \($0.destination)… \($0.step)" }
                ?? (state.keymaps.hint([.help], "shows the keys", in: .page) ?? "")
        case .panel(.annotations(let panel)): text = AnnotationPanelView.messageLine(state, panel, width: grid.columns)
        case .panel(.bookmarks(let panel)): text = BookmarkPanelView.messageLine(state, panel, width: grid.columns)
        case .panel(.outline): text = OutlinePanelView.messageLine(state, width: grid.columns)
        case .selectingText(let selection):
            let count = selection.range.count
            text = state.message ?? "Selected \(count == 1 ? "1 word" : "\(count) words"): " + state.keymaps.hints([
                ([.selectWordForward, .selectWordBackward], "words"), ([.selectLineDown, .selectLineUp], "lines"), ([.copyText], "copy"),
                ([.highlightText], "highlight"), ([.underlineText], "underline"), ([.strikeOutText], "strike out"), ([.squigglyText], "squiggly"),
                ([.deselectText], "deselects")], in: .selection)
        case .overlay(.linkHints(let typed)):
            text = "Follow: " + typed + "▏   " + (state.keymaps.hint([.cancelInput], "cancels", in: .typing) ?? "")
        }
        grid.write(text, column: 0, row: row, style: style, marksCut: true)
    }

    /// "Text: what is typed▏   hint": when it is longer than the line, the hint goes first, then the start of
    /// the text, so the end being typed stays in view.
    static func prompt(_ label: String, _ typed: String, hint: String?, width: Int) -> String {
        let whole = label + typed + "▏" + (hint.map { "   " + $0 } ?? "")
        if CharacterWidth.of(whole) <= width { return whole }
        let room = width - CharacterWidth.of(label) - 2
        guard room > 0, CharacterWidth.of(typed) > room else { return label + typed + "▏" }
        return label + "…" + CharacterWidth.suffix(of: typed, columns: room - 1) + "▏"
    }

    /// A prompt whose note must show (why Enter was refused): the typed words give way to it, their end kept.
    static func prompt(_ label: String, _ typed: String, keeping note: String, width: Int) -> String {
        let whole = label + typed + "▏   " + note
        if CharacterWidth.of(whole) <= width { return whole }
        let room = width - CharacterWidth.of(label) - CharacterWidth.of(note) - 5
        guard room > 8 else { return CharacterWidth.prefix(of: note, columns: width) }
        return label + "…" + CharacterWidth.suffix(of: typed, columns: room - 1) + "▏   " + note
    }

    /// Ink mode's keys for the tool in hand: a shape tool's say how its corners are placed.
    static func inkHint(_ keymaps: Keymaps, _ tool: InkTool) -> String {
        let shapes: ([EditorCommand], String) = ([.rectangle, .ellipse, .line, .arrow, .polygon, .polyline, .stamp, .note, .callout], "shapes")
        let moves = [EditorCommand.penUp, .penDown, .penLeft, .penRight]
        if tool == .callout {
            return "Callout: " + keymaps.hints([([.penDownUp], "at the spot, again where its words go"), (moves, "move"),
                                                ([.widerInk, .narrowerInk], "size"), ([.nextInkColour], "colour"), ([.leaveInk], "leaves")], in: .ink)
        }
        guard let kind = tool.shapeKind else {
            // Space lifts the pen as Enter does: Enter's hint gave way to the shapes'.
            return "Ink: " + keymaps.hints([([.penDownUp], "pen down/up"), (moves, "draw"), ([.pen], "pen"), ([.highlighter], "highlighter"),
                                            ([.eraser, .partialEraser], "erasers"), shapes, ([.leaveInk], "leaves")], in: .ink)
        }
        if kind == .note {
            return "Note: " + keymaps.hints([([.penDownUp], "places it, then type its words"), (moves, "move"), ([.nextInkColour], "colour"),
                                             ([.pen], "pen"), ([.leaveInk], "leaves")], in: .ink)
        }
        if kind == .stamp {
            return "Stamp: " + keymaps.hints([([.penDownUp], "places it (twice: your own box)"), (moves, "move"), ([.stamp], "next")], in: .ink)
                + " · :stamp WORDS your own · " + keymaps.hints([([.nextInkColour], "colour"), ([.leaveInk], "leaves")], in: .ink)
        }
        let fill: [([EditorCommand], String)] = kind.canBeFilled ? [([.toggleFill], "fill")] : []
        let parts: [([EditorCommand], String)] = kind.takesCorners
            ? [([.penDownUp], "adds a corner"), (moves, "move"), ([.endStroke], kind == .polygon ? "closes" : "ends"), ([.undo], "undo")]
                + fill + [shapes, ([.leaveInk], "leaves")]
            : [([.penDownUp], kind == .rectangle || kind == .ellipse ? "at each corner" : "at each end"), (moves, "move")]
                + fill + [shapes, ([.pen], "pen"), ([.leaveInk], "leaves")]
        return "\(kind.rawValue.capitalized): " + keymaps.hints(parts, in: .ink)
    }

    /// "Enter commits · Esc cancels · Backspace deletes", from the `typing` keymap.
    static func typingHint(_ keymaps: Keymaps, _ commit: String) -> String {
        keymaps.hints([([.commitInput], commit), ([.cancelInput], "cancels"), ([.deleteBack], "deletes")], in: .typing)
    }
}
