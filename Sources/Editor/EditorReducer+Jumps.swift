import RedlineCore

/// The jump list, as in vim: a jump (`gg`, `G`, `:N`, a page by count; later a link, a search hit, an outline
/// entry) remembers where the view was; Ctrl-O goes back through those places and Ctrl-F forward again.
extension EditorReducer {
    /// Goes to a page as a jump: the place left is remembered first.
    static func jump(_ state: inout EditorState, toPage index: Int, _ env: EditorEnvironment) {
        let target = min(max(0, index), state.document.pageCount - 1)
        guard target != state.pageIndex else { return }
        state.view.jumps.record(state.view.place)
        goToPage(&state, target, env)
    }

    static func jumpBack(_ state: inout EditorState, _ env: EditorEnvironment) {
        guard let place = state.view.jumps.back(from: state.view.place) else {
            state.message = "No earlier place to go back to"
            return
        }
        show(&state, place, env)
    }

    static func jumpForward(_ state: inout EditorState, _ env: EditorEnvironment) {
        guard let place = state.view.jumps.forward() else {
            state.message = "No later place to go forward to"
            return
        }
        show(&state, place, env)
    }

    /// The page and the part of it the place had; the cursor keeps its place on screen.
    static func show(_ state: inout EditorState, _ place: JumpList.Place, _ env: EditorEnvironment) {
        goToPage(&state, place.pageIndex, env)
        let before = view(state, env).scroll
        state.scroll = place.scroll
        let after = view(state, env)
        let size = state.pageSize
        state.cursor = Point(x: min(max(0, state.cursor.x + after.scroll.x - before.x), size.width),
                             y: min(max(0, state.cursor.y + after.scroll.y - before.y), size.height))
    }
}
