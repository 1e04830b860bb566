import RedlineCore
import TerminalGrid

/// Bookmarks: `b` toggles the current page's, `B` opens the panel. Changes go through `changeEdits`, so
/// undo and the crash journal cover them.
extension EditorReducer {
    static func toggleBookmark(_ state: inout EditorState, _ env: EditorEnvironment) -> [EditorEffect] {
        let page = state.pageIndex
        let current = state.bookmarks
        let original = state.document.bookmarks
        var bookmarked = false
        let newID = state.freshID().uuidString
        let effects = changeEdits(&state) { edits in
            var list = current
            bookmarked = list.toggle(page: page, newID: newID)
            edits.bookmarks = list == original ? nil : list
        }
        state.message = bookmarked ? "Bookmarked page \(page + 1)" : "Bookmark on page \(page + 1) removed"
        return effects
    }

    static func openBookmarkPanel(_ state: inout EditorState) {
        var panel = BookmarkPanel(order: state.bookmarkOrder)
        let shown = state.bookmarks.sorted(panel.order)
        panel.selected = (shown.first { $0.pageIndex == state.pageIndex } ?? shown.first)?.id
        panel.list.keepValid(state.bookmarkEntries(panel), height: state.panelListHeight)
        state.interaction.panel = .bookmarks(panel)
        if shown.isEmpty { state.message = "No bookmarks yet: b bookmarks the current page" }
    }

    static func bookmarkPanelKey(_ state: inout EditorState, _ panel: BookmarkPanel, _ key: Key,
                                 _ env: EditorEnvironment) -> [EditorEffect] {
        state.message = nil
        var panel = panel
        if let name = panel.renaming {
            return renameKey(&state, &panel, name, key)
        }
        let entries = state.bookmarkEntries(panel)
        let height = state.panelListHeight
        let index = panel.selected.flatMap { id in entries.firstIndex { $0.id == id } }
        var effects: [EditorEffect] = []
        let command = state.keymaps.command(for: key, in: .bookmarks)
        switch command {
        case .closePanel?:
            state.interaction.panel = nil
            return []
        case .commandLine?, .help?, .toggleInterface?:
            return panelWideCommand(&state, command, env)
        case _ where ListMotion(command) != nil:
            panel.list.move(ListMotion(command) ?? .next, over: entries, height: height)
        case .selectClicked?:
            guard let clicked = clickedEntry(state, panel.list, entries) else { return [] }
            panel.selected = clicked
        case .goToBookmark?:
            guard let id = panel.selected, let bookmark = state.bookmarks.bookmark(id) else { break }
            guard let page = bookmark.pageIndex else {
                state.message = "\(bookmark.title) does not lead to a page"
                break
            }
            state.interaction.panel = nil
            goToPage(&state, page, env)
            return []
        case .renameBookmark?:
            guard let id = panel.selected, let bookmark = state.bookmarks.bookmark(id) else { break }
            panel.renaming = bookmark.name ?? ""
        case .deleteBookmark?:
            guard let id = panel.selected, let index else { break }
            effects = changeBookmarks(&state) { $0.remove(id) }
            panel.list.keepValid(state.bookmarkEntries(panel), height: height, formerIndex: index)
            state.message = "Bookmark deleted"
        case .toggleOrder?:
            panel.order = panel.order == .custom ? .page : .custom
            state.bookmarkOrder = panel.order
            state.message = panel.order == .custom ? "Your own order (K/J move)" : "Page order"
        case .moveBookmarkUp?, .moveBookmarkDown?:
            guard let id = panel.selected else { break }
            guard panel.order == .custom else {
                state.message = "Bookmarks move in your own order: o switches to it"
                break
            }
            effects = changeBookmarks(&state) { $0.move(id, by: command == .moveBookmarkUp ? -1 : 1) }
        case .toggleBookmark?:
            effects = toggleBookmark(&state, env)
            panel.selected = state.bookmarks.bookmarks(onPage: state.pageIndex).first?.id ?? panel.selected
        case .undo?:
            effects = undo(&state)
        case .redo?:
            effects = redo(&state)
        default:
            break
        }
        if state.bookmarks.bookmark(panel.selected ?? "") == nil {
            panel.selected = state.bookmarks.sorted(panel.order).first?.id
        }
        panel.list.keepValid(state.bookmarkEntries(panel), height: height)
        if state.interaction.bookmarkPanel != nil { state.interaction.panel = .bookmarks(panel) }
        return effects
    }

    private static func renameKey(_ state: inout EditorState, _ panel: inout BookmarkPanel, _ name: String,
                                  _ key: Key) -> [EditorEffect] {
        var effects: [EditorEffect] = []
        switch TextInput.edit(name, key, keymaps: state.keymaps) {
        case .cancelled:
            panel.renaming = nil
        case .committed:
            panel.renaming = nil
            if let id = panel.selected, let bookmark = state.bookmarks.bookmark(id) {
                let trimmed = name.trimmingCharacters(in: .whitespaces)
                // Renaming replaces the bookmark with one of the same identifier.
                effects = changeBookmarks(&state) { $0.put(bookmark.renamed(trimmed.isEmpty ? nil : trimmed)) }
                state.message = trimmed.isEmpty ? "Name removed" : "Renamed \(trimmed)"
            }
        case .editing(let next):
            panel.renaming = next
        }
        state.interaction.panel = .bookmarks(panel)
        return effects
    }

    private static func changeBookmarks(_ state: inout EditorState, _ update: (inout BookmarkList) -> Void) -> [EditorEffect] {
        let current = state.bookmarks
        let original = state.document.bookmarks
        return changeEdits(&state) { edits in
            var list = current
            update(&list)
            // Back to what the providers hold: nothing to save.
            if list != current { edits.bookmarks = list == original ? nil : list }
        }
    }
}
