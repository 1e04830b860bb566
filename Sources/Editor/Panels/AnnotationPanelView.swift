import RedlineCore
import TerminalGrid

/// Draws the annotation list, or one thread in full, into the panel beside the page.
enum AnnotationPanelView {
    static func draw(_ grid: inout CellGrid, _ state: EditorState, _ panel: AnnotationPanel, in area: CellRect) {
        let rows = state.annotationRows(panel)
        var header = panel.scope == .page
            ? "Annotations · page \(state.pageIndex + 1) · \(rows.count)"
            : "Annotations · all pages · \(rows.count)"
        if !panel.filter.isEmpty { header += " · " + panel.filter.query }
        let body = SidePanelFrame.draw(&grid, title: header, in: area)
        if panel.showsThread, let id = panel.selected, let thread = state.thread(containing: id) {
            drawThread(&grid, thread, scroll: panel.threadScroll, in: body)
        } else {
            drawList(&grid, rows, state.annotationEntries(panel), panel.list, filtered: !panel.filter.isEmpty, in: body)
        }
    }

    /// Two lines per annotation (what, who and when; then the first line of its text and its state), one
    /// per state change, from the entry the shared list shows first.
    private static func drawList(_ grid: inout CellGrid, _ rows: [AnnotationListRow], _ entries: ListEntries<AnnotationID>,
                                 _ list: PanelList<AnnotationID>, filtered: Bool, in area: CellRect) {
        guard !rows.isEmpty else {
            grid.write(filtered ? "Nothing matches the filter. f: change it" : "Nothing here. A: whole document", column: area.column, row: area.row,
                       style: Theme.panelDim, limit: area.width)
            return
        }
        let first = list.shownTop(entries, height: area.height)
        var row = area.row
        for listRow in rows[first...] where row < area.maxRow {
            let isSelected = listRow.annotation.id == list.selected
            for line in lines(for: listRow, width: area.width) where row < area.maxRow {
                let style = isSelected ? Theme.selectedRow : line.dim ? Theme.panelDim : Theme.panel
                if isSelected { grid.fill(CellRect(column: area.column - 1, row: row, width: area.width + 1, height: 1), with: Cell(" ", style: style)) }
                grid.write(line.text, column: area.column, row: row, style: style, limit: area.width, marksCut: true)
                row += 1
            }
        }
    }

    private struct Line {
        var text: String
        var dim = false
    }

    private static func lines(for row: AnnotationListRow, width: Int) -> [Line] {
        let annotation = row.annotation
        let indent = row.depth == 0 ? "" : "  ↳ "
        let when = annotation.lastChanged?.shortDisplay ?? "no date"
        let who = annotation.author ?? "unknown"
        if let state = annotation.state, annotation.isStateChange {
            return [Line(text: indent + "◆ \(state.value) — \(who) · \(when)", dim: true)]
        }
        let kind = row.depth == 0 ? "p\(annotation.pageIndex + 1) \(row.kind)" : "Reply"
        var detail = row.firstLine.isEmpty ? "(no text)" : "“\(row.firstLine)”"
        if let summary = row.stateSummary { detail += "  [\(summary)]" }
        return [Line(text: indent + "\(kind) · \(who) · \(when)"),
                Line(text: String(repeating: " ", count: indent.count + 2) + detail, dim: row.firstLine.isEmpty)]
    }

    /// The whole conversation, full texts wrapped to the panel, scrolled no further than its last screen.
    private static func drawThread(_ grid: inout CellGrid, _ thread: AnnotationThread, scroll: Int, in area: CellRect) {
        let lines = threadLines(thread, width: area.width)
        let shown = lines.dropFirst(min(scroll, max(0, lines.count - area.height)))
        for (offset, line) in shown.prefix(area.height).enumerated() {
            grid.write(line.text, column: area.column, row: area.row + offset,
                       style: line.dim ? Theme.panelDim : Theme.panel, limit: area.width, marksCut: true)
        }
    }

    /// How far the thread view can scroll: its lines past one panel's height.
    static func threadScrollLimit(_ state: EditorState, _ panel: AnnotationPanel) -> Int {
        guard let area = state.layout.panel ?? ScreenLayout(columns: state.columns, rows: state.rows, withPanel: true).panel,
              let id = panel.selected, let thread = state.thread(containing: id) else { return 0 }
        let width = max(1, area.width - 3)
        return max(0, threadLines(thread, width: width).count - state.panelListHeight)
    }

    private static func threadLines(_ thread: AnnotationThread, width: Int) -> [Line] {
        var lines: [Line] = []
        func add(_ annotation: Annotation, title: String) {
            lines.append(Line(text: title + " · " + (annotation.author ?? "unknown") + " · " + (annotation.lastChanged?.shortDisplay ?? "no date")))
            for text in TextWrapping.lines(annotation.contents ?? "(no text)", width: max(1, width - 2)) {
                lines.append(Line(text: "  " + text))
            }
            for change in thread.changes(on: annotation.id) {
                lines.append(Line(text: "  ◆ \(change.state?.value ?? "") set by \(change.author ?? "unknown") · \(change.lastChanged?.shortDisplay ?? "no date")",
                                  dim: true))
            }
            lines.append(Line(text: ""))
        }
        add(thread.root, title: "p\(thread.root.pageIndex + 1) \(thread.root.subtype.label)")
        for reply in thread.replies { add(reply, title: "Reply") }
        return lines
    }

    /// The bottom line while the panel is open: what is being typed, the state choices, or the keys.
    static func messageLine(_ state: EditorState, _ panel: AnnotationPanel, width: Int) -> String {
        switch panel.input {
        case .reply(_, let text): return MessageLine.prompt("Reply: ", text, hint: MessageLine.typingHint(state.keymaps, "sends"), width: width)
        case .edit(let id, let text):
            let label = state.annotations.first { $0.id == id }?.isReply ?? true ? "Edit reply: " : "Edit text: "
            // A refused Enter says why beside the words, which stay to be shortened.
            if let refusal = state.message { return MessageLine.prompt(label, text, keeping: refusal, width: width) }
            return MessageLine.prompt(label, text, hint: MessageLine.typingHint(state.keymaps, "saves"), width: width)
        case .choosingState: return EditorReducer.stateChoiceHelp(state.keymaps)
        case .filtering(let text):
            if let refusal = state.message { return MessageLine.prompt("Filter: ", text, keeping: refusal, width: width) }
            return MessageLine.prompt("Filter: ", text, hint: "author: kind: state: page: unanswered · "
                                      + MessageLine.typingHint(state.keymaps, "applies"), width: width)
        case .summaryPath(let text):
            if let refusal = state.message { return MessageLine.prompt("Summary to: ", text, keeping: refusal, width: width) }
            return MessageLine.prompt("Summary to: ", text, hint: "every page, the list's filter · .md .csv .html · "
                                      + MessageLine.typingHint(state.keymaps, "writes"), width: width)
        case nil:
            if let message = state.message { return message }
            let keys = state.keymaps
            if !state.reviewer.threadActionsEnabled {
                return keys.hints([([.listDown, .listUp], "move"), ([.toggleScope], "page/all"), ([.toggleLinks], "links"),
                                   ([.deleteAnnotation], "delete"), ([.closePanel], "closes")], in: .annotations)
            }
            return panel.showsThread
                ? keys.hints([([.listDown, .listUp], "scroll"), ([.reply], "reply"), ([.setState], "state"), ([.toggleMarked], "mark"),
                              ([.showThread, .closePanel], "back to the list")], in: .annotations)
                : keys.hints([([.listDown, .listUp], "move"), ([.showThread], "thread"), ([.reply], "reply"), ([.setState], "state"),
                              ([.toggleMarked], "mark"), ([.editReply], "edit"), ([.deleteAnnotation], "delete"),
                              ([.toggleScope], "page/all"), ([.filterList], "filter"), ([.writeSummary], "summary"),
                              ([.closePanel], "closes")], in: .annotations)
        }
    }
}
