import RedlineCore

/// Smart zoom, as PDF viewers on tablets have it: the text block under the cursor (a paragraph, a column's run
/// of lines, from poppler's layout of the words) fills the page area's width; the same again goes back to the
/// zoom and place before. `s`, or a double click on the block.
extension EditorReducer {
    static let largestSmartZoom = 8.0
    /// The longest a double click may take, as desktops default.
    static let doubleClickMilliseconds: Int64 = 400

    /// The text block a smart zoom at a point fills the width with: the block of the word nearest the point.
    static func smartZoomTarget(_ state: EditorState, at point: Point) -> Rect? {
        guard let words = state.navigation.words[state.pageIndex], let nearest = nearestWord(to: point, in: words),
              let block = TextBlocks.boxes(words)[words[nearest].block], block.width > 1 else { return nil }
        return block
    }

    static func smartZoom(_ state: inout EditorState, at point: Point, _ env: EditorEnvironment, location: InteractionLocation? = nil) {
        if refuseZoomInTextView(&state) { return }
        if let back = state.view.beforeSmartZoom, back.pageIndex == state.pageIndex {
            // Going back is a smart zoom too: to the part of the page that was in view.
            let scale = state.fitScale(cellPixels: env.cellPixels) * back.zoom
            let area = state.layout.pageArea
            let shown = Rect(x: back.scroll.x, y: back.scroll.y,
                             width: min(state.pageSize.width, Double(area.width * env.cellPixels.width) / scale),
                             height: min(state.pageSize.height, Double(area.height * env.cellPixels.height) / scale))
            guard permits(&state, .smartZoom, context(.smartZoom, state, targetRect: shown), env, at: location) else { return }
            state.view.beforeSmartZoom = nil
            state.zoom = back.zoom
            state.view.fitsWidth = back.fitsWidth
            state.scroll = back.scroll
            let view = view(state, env)
            state.scroll = Point(x: min(back.scroll.x, view.limit.x), y: min(back.scroll.y, view.limit.y))
            return
        }
        guard let words = state.navigation.words[state.pageIndex] else {
            state.message = "The page's text is still being read"
            return
        }
        guard !words.isEmpty, let block = smartZoomTarget(state, at: point) else {
            state.message = "No text here to zoom to"
            return
        }
        guard permits(&state, .smartZoom, context(.smartZoom, state, targetRect: block), env, at: location) else { return }
        let before = SmartZoomReturn(pageIndex: state.pageIndex, zoom: state.effectiveZoom(cellPixels: env.cellPixels),
                                     fitsWidth: state.view.fitsWidth, scroll: view(state, env).scroll)
        // The block and a small margin fill the width: the zoom that makes the page's width this many times
        // the block's, relative to the fit that shows the whole page.
        let margin = 6.0
        let fitScale = state.fitScale(cellPixels: env.cellPixels)
        let areaWidth = Double(state.layout.pageArea.width * env.cellPixels.width)
        let zoom = min(largestSmartZoom, max(1, areaWidth / (fitScale * (block.width + 2 * margin))))
        state.zoom = zoom
        state.view.fitsWidth = false
        state.view.beforeSmartZoom = before
        let view = view(state, env)
        let top = block.height < view.visible.height ? block.minY - (view.visible.height - block.height) / 4 : block.minY - margin
        state.scroll = Point(x: min(max(0, block.minX - margin), view.limit.x), y: min(max(0, top), view.limit.y))
        let size = state.pageSize
        state.cursor = Point(x: min(max(0, point.x), size.width), y: min(max(0, point.y), size.height))
        revealCursor(&state, env)
        state.message = "Smart zoom \(Int((zoom * 100).rounded()))%: the same again goes back"
    }
}
