import RedlineCore
import TerminalGrid

/// Links, as zathura's hint mode has them: `f` puts a short label on every link in view and typing one follows
/// it; a click on a link follows it too. A place in the document is a jump (Ctrl-O comes back); a web address is
/// shown and copied to the clipboard, and opened only through the `open_command` the user configured.
extension EditorReducer {
    /// The letters labels are made of: the home row, easy to type without looking.
    static let hintAlphabet = Array("asdfghjkl")

    /// The links on the current page that are in view, in reading order, with their labels.
    public static func hintedLinks(_ state: EditorState, _ env: EditorEnvironment) -> [(label: String, link: PageLink)] {
        let view = view(state, env)
        let visible = Rect(origin: view.scroll, size: view.visible)
        let links = (state.navigation.links[state.pageIndex] ?? []).filter { $0.rect.intersects(visible) }
            .enumerated().sorted { ($0.element.rect.minY, $0.element.rect.minX, $0.offset) < ($1.element.rect.minY, $1.element.rect.minX, $1.offset) }
            .map(\.element)
        var length = 1, capacity = hintAlphabet.count
        while capacity < links.count {
            length += 1
            capacity *= hintAlphabet.count
        }
        return links.enumerated().map { index, link in
            var label = "", rest = index
            for _ in 0..<length {
                label = String(hintAlphabet[rest % hintAlphabet.count]) + label
                rest /= hintAlphabet.count
            }
            return (label, link)
        }
    }

    static func startLinkHints(_ state: inout EditorState, _ env: EditorEnvironment) {
        guard state.navigation.links[state.pageIndex] != nil else {
            state.message = "The page's links are still being read"
            return
        }
        guard !hintedLinks(state, env).isEmpty else {
            state.message = "No links in view on this page"
            return
        }
        state.interaction.overlays.append(.linkHints(typed: ""))
    }

    static func linkHintKey(_ state: inout EditorState, _ typed: String, _ key: Key, _ env: EditorEnvironment) -> [EditorEffect] {
        switch state.keymaps.command(for: key, in: .typing) {
        case .cancelInput?:
            state.interaction.closeTopOverlay()
            return []
        case .deleteBack?:
            state.interaction.replaceTopOverlay(with: .linkHints(typed: String(typed.dropLast())))
            return []
        default:
            break
        }
        guard case .character(let character) = key else { return [] }
        let next = typed + String(character).lowercased()
        let hinted = hintedLinks(state, env)
        if let chosen = hinted.first(where: { $0.label == next }) {
            state.interaction.closeTopOverlay()
            return follow(&state, chosen.link, env)
        }
        guard hinted.contains(where: { $0.label.hasPrefix(next) }) else {
            state.interaction.closeTopOverlay()
            state.message = "No link is labelled \(VisibleText.line(next, limit: 20))"
            return []
        }
        state.interaction.replaceTopOverlay(with: .linkHints(typed: next))
        return []
    }

    /// The link under the clicked cell: one under the cell's middle first, else one the cell overlaps (a cell
    /// at fit-page zoom is taller than a line of text), the last in the file (topmost) among them.
    static func link(at spot: PointerSpot, _ state: EditorState) -> PageLink? {
        link(at: spot.point, cell: spot.cell, state)
    }

    static func link(at point: Point, cell: Rect, _ state: EditorState) -> PageLink? {
        let links = state.navigation.links[state.pageIndex] ?? []
        return links.last { $0.rect.contains(point) } ?? links.last { $0.rect.intersects(cell) }
    }

    /// Follows a link, through openLinkAnnotation: at the pointer for a click, at the link's middle for a label.
    static func follow(_ state: inout EditorState, _ link: PageLink, _ env: EditorEnvironment,
                       at location: InteractionLocation? = nil) -> [EditorEffect] {
        let location = location ?? (state.interaction.input == .pointer ? currentLocation(state) : InteractionLocation(link.rect.center, in: .display))
        guard permits(&state, .openLinkAnnotation, context(.openLinkAnnotation, state, link: link), env, at: location) else { return [] }
        switch link.target {
        case .destination(let destination):
            go(&state, to: destination, env)
            return []
        case .uri(let uri):
            let shown = VisibleText.line(uri, limit: 300)
            if state.chrome.opensLinks, isWebAddress(uri) {
                state.message = "Opening \(shown) (copied)"
                return [.copyToClipboard(VisibleText.forClipboard(uri, multiline: false)), .openURI(uri)]
            }
            state.message = isWebAddress(uri) ? "Link: \(shown) (copied; open_command in config.toml opens links)"
                : "Link: \(shown) (copied; only http, https and mailto addresses are opened)"
            return [.copyToClipboard(VisibleText.forClipboard(uri, multiline: false))]
        case .named(let name):
            switch name {
            case "NextPage": goToPage(&state, state.pageIndex + 1, env)
            case "PrevPage": goToPage(&state, state.pageIndex - 1, env)
            case "FirstPage": jump(&state, toPage: 0, env)
            case "LastPage": jump(&state, toPage: state.document.pageCount - 1, env)
            default: state.message = "The link asks the viewer for \(VisibleText.line(name, limit: 40)), which Redline does not do"
            }
            return []
        case .unsupported(let what):
            state.message = "The link leads to \(VisibleText.line(what, limit: 120)): Redline does not follow it"
            return []
        }
    }

    /// Only these are handed to the open command: a `file:` address, a bare path or a script scheme in a
    /// document could start programs through an opener such as xdg-open. No control character, no space, and no
    /// leading dash an opener could take for an option.
    static func isWebAddress(_ uri: String) -> Bool {
        let lower = uri.lowercased()
        guard ["http://", "https://", "mailto:"].contains(where: { lower.hasPrefix($0) }), uri.count <= 4096 else { return false }
        return !uri.unicodeScalars.contains { $0.value < 0x21 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) }
    }

    /// A destination's page, scrolled so its point is at the top left of the view where the page is larger than
    /// it, with the cursor there; a jump, so Ctrl-O comes back.
    static func go(_ state: inout EditorState, to destination: Destination, _ env: EditorEnvironment) {
        guard destination.pageIndex >= 0, destination.pageIndex < state.document.pageCount else {
            state.message = "The link leads to page \(destination.pageIndex + 1), which the document does not have"
            return
        }
        state.view.jumps.record(state.view.place)
        goToPage(&state, destination.pageIndex, env)
        let size = state.pageSize
        let top = destination.top.map { min(max(0, $0), size.height) }
        let left = destination.left.map { min(max(0, $0), size.width) }
        let view = view(state, env)
        state.scroll = Point(x: min(left ?? view.scroll.x, view.limit.x), y: min(top ?? 0, view.limit.y))
        state.cursor = Point(x: left ?? state.cursor.x, y: top ?? state.cursor.y)
        revealCursor(&state, env)
    }
}
