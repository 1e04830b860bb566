import Foundation
import RedlineCore
import TerminalGrid

/// Searching the document's text, as in vim and zathura: `/` forward, `?` backward, `n` the same way again, `N`
/// the other. The runner searches the pages off the loop and sends them back in batches; the first hit is shown
/// as soon as it is found, and counting goes on until Esc stops it.
extension EditorReducer {
    static func openSearchLine(_ state: inout EditorState, forward: Bool) {
        state.interaction.overlays.append(.searchLine(SearchPrompt(forward: forward, text: "")))
    }

    static func searchLineKey(_ state: inout EditorState, _ prompt: SearchPrompt, _ key: Key,
                              _ env: EditorEnvironment) -> [EditorEffect] {
        if prompt.text.isEmpty, state.keymaps.command(for: key, in: .typing) == .deleteBack {
            state.interaction.closeTopOverlay()
            return []
        }
        switch TextInput.edit(prompt.text, key, keymaps: state.keymaps) {
        case .cancelled:
            state.interaction.closeTopOverlay()
        case .committed(let pattern):
            state.interaction.closeTopOverlay()
            // An empty pattern searches again for the last one, as in vim.
            let typed = TextSearch.normalized(pattern)
            guard let pattern = typed.isEmpty ? state.interaction.search?.pattern : typed else {
                state.message = "No earlier search to repeat"
                return []
            }
            return startSearch(&state, pattern: pattern, forward: prompt.forward, env)
        case .editing(let next):
            state.interaction.replaceTopOverlay(with: .searchLine(SearchPrompt(forward: prompt.forward, text: next)))
        }
        return []
    }

    static func startSearch(_ state: inout EditorState, pattern: String, forward: Bool,
                            _ env: EditorEnvironment) -> [EditorEffect] {
        var effects: [EditorEffect] = []
        if let running = state.interaction.search, running.progress == .counting { effects.append(.stopSearch(running.id)) }
        var search = SearchSession(id: state.freshID(), pattern: pattern, forward: forward, startPage: state.pageIndex,
                                   pageCount: state.document.pageCount)
        search.pendingMove = forward
        state.interaction.search = search
        state.message = nil
        effects.append(.search(SearchRequest(id: search.id, pattern: pattern, startPage: search.startPage, forward: forward)))
        return effects
    }

    /// `n` (`again`) and `N`: the next hit the search's way, or the other.
    static func searchAgain(_ state: inout EditorState, sameWay: Bool, _ env: EditorEnvironment) {
        guard var search = state.interaction.search else {
            let keys = [EditorCommand.searchForward, .searchBackward].compactMap { state.keymaps.keys(for: $0, in: .page).first?.name }
            state.message = "No search yet" + (keys.isEmpty ? "" : " (\(keys.joined(separator: " or ")) searches)")
            return
        }
        search.shown = true
        search.pendingMove = sameWay ? search.forward : !search.forward
        // Moved away from the hit (paging, a jump): the next hit is counted from the page in view, as in vim.
        if let current = search.current, current.pageIndex != state.pageIndex { search.current = nil; search.origin = state.pageIndex }
        state.interaction.search = search
        makePendingMove(&state, env)
    }

    /// A batch of searched pages from the runner: recorded, and a move waiting for them made.
    static func searchProgressed(_ state: inout EditorState, id: UUID, pages: [SearchedPage], finished: Bool,
                                 _ env: EditorEnvironment) {
        guard var search = state.interaction.search, search.id == id, search.progress == .counting else { return }
        search.record(pages)
        if finished { search.progress = .finished }
        state.interaction.search = search
        makePendingMove(&state, env)
        if finished, search.hitCount == 0 {
            state.interaction.search = nil
            state.message = "Not found: \(quoted(search.pattern))" + (search.leftOutSummary.map { " (\($0))" } ?? "")
        } else if finished, let leftOut = search.leftOutSummary {
            // The hits are all those of the pages read: the ones not read are said, once the count is whole.
            state.message = "All \(search.hitCount) hit\(search.hitCount == 1 ? "" : "s") found; " + leftOut
        }
    }

    /// Esc while counting: the pages searched so far are what `n` and `N` know.
    static func stopSearch(_ state: inout EditorState) -> [EditorEffect] {
        guard var search = state.interaction.search, search.progress == .counting else { return [] }
        search.progress = .stopped
        search.pendingMove = nil
        state.interaction.search = search
        state.message = search.hitCount == 0
            ? "Search stopped after \(search.searchedCount) of \(search.pageCount) pages: nothing found there"
            : "Search stopped after \(search.searchedCount) of \(search.pageCount) pages"
        if search.hitCount == 0 { state.interaction.search = nil }
        return [.stopSearch(search.id)]
    }

    private static func makePendingMove(_ state: inout EditorState, _ env: EditorEnvironment) {
        guard var search = state.interaction.search, let forward = search.pendingMove else { return }
        switch search.move(forward: forward, from: search.current) {
        case .waiting:
            return
        case .none:
            search.pendingMove = nil
            state.interaction.search = search
            if search.progress != .counting, search.hitCount == 0 {
                state.message = "Not found: \(quoted(search.pattern))" + (search.leftOutSummary.map { " (\($0))" } ?? "")
            } else if search.progress == .stopped {
                state.message = "No further hit in the \(search.searchedCount) pages searched before the search was stopped"
            }
        case .hit(let ref, let wrapped):
            let first = search.current == nil
            search.pendingMove = nil
            search.current = ref
            state.interaction.search = search
            guard let hit = search.hit(ref) else { return }
            show(&state, hit, env)
            if wrapped, !first {
                state.message = forward ? "Search went past the end: on from the start" : "Search went past the start: on from the end"
            }
        }
    }

    /// A hit's page, scrolled so the whole hit is in view (the middle of the page area when it must scroll),
    /// with the cursor at its start: markup typed next goes beside it.
    static func show(_ state: inout EditorState, _ hit: SearchHit, _ env: EditorEnvironment) {
        state.view.jumps.record(state.view.place)
        goToPage(&state, hit.pageIndex, env)
        reveal(&state, hit.boxes.dropFirst().reduce(hit.box) { $0.union($1) }, env)
        let size = state.pageSize
        // The text view's rows are the page's lines, each holding the middle of its words: the cursor goes into the
        // hit's row there, on its first letter.
        let y = state.view.showsText ? hit.box.center.y : hit.box.minY
        state.cursor = Point(x: min(max(0, hit.box.minX), size.width), y: min(max(0, y), size.height))
    }

    /// Scrolls so `rect` is in view: not at all when it is, else with it in the middle of the page area (its
    /// start when it is larger than the area).
    static func reveal(_ state: inout EditorState, _ rect: Rect, _ env: EditorEnvironment) {
        let view = view(state, env)
        var scroll = view.scroll
        func axis(_ start: Double, _ length: Double, _ visible: Double, _ current: Double) -> Double {
            if start >= current, start + length <= current + visible { return current }
            return length >= visible ? start : start + length / 2 - visible / 2
        }
        scroll.x = axis(rect.minX, rect.width, view.visible.width, scroll.x)
        scroll.y = axis(rect.minY, rect.height, view.visible.height, scroll.y)
        state.scroll = Point(x: min(max(0, scroll.x), view.limit.x), y: min(max(0, scroll.y), view.limit.y))
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// The `/` or `?` line being typed.
public struct SearchPrompt: Sendable, Equatable {
    public var forward: Bool
    public var text: String

    public init(forward: Bool, text: String) {
        self.forward = forward
        self.text = text
    }
}
