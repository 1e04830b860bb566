import RedlineCore
import TerminalGrid

/// The outline panel (`o`): the table of contents as a tree beside the page. Enter goes to an entry's place and
/// keeps the panel, so a reader can walk the chapters; the entry the current page is in is marked.
extension EditorReducer {
    static func openOutlinePanel(_ state: inout EditorState, _ env: EditorEnvironment) {
        guard let outline = state.navigation.outline else {
            state.message = "The outline is still being read"
            return
        }
        guard !outline.isEmpty else {
            state.message = "This document has no outline"
            return
        }
        var panel = OutlinePanel(outline: outline)
        if let kept = state.navigation.unfoldedOutline { panel.unfolded = kept }
        panel.list.selected = panel.currentRow(outline, pageIndex: state.pageIndex) ?? [0]
        panel.list.keepValid(outlineEntries(panel, outline), height: state.panelListHeight)
        state.interaction.panel = .outline(panel)
    }

    static func outlineEntries(_ panel: OutlinePanel, _ outline: [OutlineEntry]) -> [(id: [Int], rows: Int)] {
        panel.rows(outline).map { ($0.path, 1) }
    }

    static func outlinePanelKey(_ state: inout EditorState, _ panel: OutlinePanel, _ key: Key,
                                _ env: EditorEnvironment) -> [EditorEffect] {
        state.message = nil
        var panel = panel
        let outline = state.navigation.outline ?? []
        let height = state.panelListHeight
        let command = state.keymaps.command(for: key, in: .outline)
        let selected = panel.list.selected.flatMap { OutlineEntry.at($0, in: outline) }
        switch command {
        case .closePanel?:
            state.interaction.panel = nil
            return []
        case .commandLine?, .help?, .toggleInterface?:
            return panelWideCommand(&state, command, env)
        case .jumpBack?, .jumpForward?:
            _ = pageCommand(&state, command!, env)
        case _ where ListMotion(command) != nil:
            panel.list.move(ListMotion(command) ?? .next, over: outlineEntries(panel, outline), height: height)
        case .selectClicked?:
            guard let clicked = clickedEntry(state, panel.list, outlineEntries(panel, outline)) else { return [] }
            // A click on the entry already selected goes there, as Enter does.
            if clicked == panel.list.selected, let entry = selected { goToEntry(&state, entry, env) }
            panel.list.selected = clicked
        case .goToEntry?:
            if let entry = selected { goToEntry(&state, entry, env) }
        case .unfoldEntry?, .foldEntry?, .toggleFold?:
            guard let path = panel.list.selected, let entry = selected else { break }
            let isUnfolded = panel.unfolded.contains(path)
            let unfold = command == .unfoldEntry || (command == .toggleFold && !isUnfolded)
            if entry.children.isEmpty || (!unfold && !isUnfolded) {
                // Nothing to fold here: Left goes to the parent, as in a file tree.
                if command == .foldEntry, path.count > 1 { panel.list.selected = Array(path.dropLast()) }
            } else if unfold {
                panel.unfolded.insert(path)
            } else {
                panel.unfolded.remove(path)
            }
        default:
            break
        }
        panel.list.keepValid(outlineEntries(panel, outline), height: height)
        state.navigation.unfoldedOutline = panel.unfolded
        if state.interaction.outlinePanel != nil { state.interaction.panel = .outline(panel) }
        return []
    }

    private static func goToEntry(_ state: inout EditorState, _ entry: OutlineEntry, _ env: EditorEnvironment) {
        guard let destination = entry.destination else {
            state.message = "\(VisibleText.line(entry.title, limit: 60)) does not lead to a page"
            return
        }
        go(&state, to: destination, env)
    }
}
