import RedlineCore
import TerminalGrid

/// The text view (`T`): the page area shows the page's words in cells, a character a cell, at their places on
/// the page. It is a viewport like the picture's, with cells the size of the page's characters and lines, so the
/// cursor, markup, clicks, search hits and selections map onto the page exactly as they do in the picture.
extension EditorState {
    /// The current page's text cell size while the text view is on; nil on a page without text (a scan), which
    /// shows its picture, and while the page's words are still to be read.
    public var textLayout: PageTextLayout? {
        guard view.showsText else { return nil }
        return navigation.textLayouts[pageIndex]
    }

    /// Whether the page area shows the text view rather than the picture.
    public var showsTextView: Bool { textLayout != nil }

    /// Why a page shows its picture while the text view is on.
    public enum TextViewFallback: Sendable { case noText, sideways, upsideDown, notDrawn }

    /// Why the current page shows its picture while the text view is on: nil when it shows as text, when the view
    /// is off, or while its words are still to be read. The message line and the status line both say it.
    public var textViewFallback: TextViewFallback? {
        // A page kept from poppler has its text unread, not absent: said as what it is.
        if view.showsText, navigation.notDrawn[pageIndex] != nil { return .notDrawn }
        guard view.showsText, let words = navigation.words[pageIndex], navigation.textLayouts[pageIndex] == nil else { return nil }
        switch TextDirection(words: words, rotation: document.pages[pageIndex].rotation) {
        case .sideways: return .sideways
        case .upsideDown: return .upsideDown
        case .across: return .noText
        }
    }

    /// Text cells are a thousand raster units wide, so whole cells stay whole far below a point.
    static let textCellUnits = 1000

    /// The cell size the viewport can hold exactly: its height a whole number of raster units.
    static func viewportCellSize(_ size: TextCellSize) -> TextCellSize {
        let height = max(1, (Double(textCellUnits) * size.height / size.width).rounded())
        return TextCellSize(width: size.width, height: height * size.width / Double(textCellUnits))
    }

    func textViewport(_ text: PageTextLayout) -> PageViewport {
        let size = text.cellSize
        let area = layout.pageArea
        let units = Self.textCellUnits
        let cellPixels = CellPixelSize(width: units, height: max(1, Int((Double(units) * size.height / size.width).rounded())))
        let scale = Double(units) / size.width
        var viewport = PageViewport(pageSize: pageSize, scale: scale, cellPixels: cellPixels, originPixel: (0, 0),
                                    columns: area.width, rows: area.height)
        // Scrolled by whole cells: a word's row and column are the same wherever the view stands. The extent is the
        // page's, or the text's where words were pushed past the page's edge.
        func origin(extent: Int, cells: Int, cell: Int, scrolledTo point: Double) -> Int {
            guard extent > cells else { return -((cells - extent) / 2) * cell }
            return min(max(0, Int(clamping: (point * scale / Double(cell)).rounded())), extent - cells) * cell
        }
        viewport.originPixel = (origin(extent: text.extent.columns, cells: area.width, cell: cellPixels.width, scrolledTo: scroll.x),
                                origin(extent: text.extent.rows, cells: area.height, cell: cellPixels.height, scrolledTo: scroll.y))
        viewport.textColumns = text.columns
        viewport.textRows = text.rows
        return viewport
    }
}

extension EditorReducer {
    /// `T`: the text view on or off. A page without text says so and keeps its picture; the view stays on for the
    /// pages that have text.
    static func toggleTextView(_ state: inout EditorState, _ env: EditorEnvironment) {
        state.view.showsText.toggle()
        state.view.beforeSmartZoom = nil
        layOutTextIfShown(&state)
        if state.view.showsText {
            sayIfTextViewHasNoText(&state)
        } else {
            state.message = nil
        }
        // The cursor stays at its place on the page, and in view.
        revealCursor(&state, env)
    }

    /// Lays the current page's words out for the text view, once, when the view is on and they are read.
    static func layOutTextIfShown(_ state: inout EditorState) {
        let page = state.pageIndex
        guard state.view.showsText, state.navigation.textLayouts[page] == nil, let words = state.navigation.words[page],
              TextDirection(words: words, rotation: state.document.pages[page].rotation) == .across,
              let size = TextCellSize(words: words) else { return }
        state.navigation.textLayouts[page] = PageTextLayout(words: words, cellSize: EditorState.viewportCellSize(size),
                                                            pageSize: state.document.pages[page].displaySize,
                                                            cellsOf: { CharacterWidth.of(VisibleText.of($0)) })
    }

    /// On a page shown as its picture while the text view is on: it has no text, or its text does not read across
    /// the screen (a turned page). Says which.
    static func sayIfTextViewHasNoText(_ state: inout EditorState) {
        switch state.textViewFallback {
        case .sideways?:
            state.message = "Page \(state.pageIndex + 1)'s text runs up or down the screen (a turned page): showing its picture"
        case .upsideDown?:
            state.message = "Page \(state.pageIndex + 1)'s text is upside down on screen (/Rotate 180): showing its picture"
        case .noText?:
            state.message = "Page \(state.pageIndex + 1) has no text to show (a scan without OCR?): showing its picture"
        case .notDrawn?:
            state.message = "Page \(state.pageIndex + 1) is not drawn or read: \(state.navigation.notDrawn[state.pageIndex] ?? "")"
        case nil:
            break
        }
    }

    /// The zoom keys change the picture's size; the text view's follows the terminal's font.
    static func refuseZoomInTextView(_ state: inout EditorState) -> Bool {
        guard state.showsTextView else { return false }
        state.message = "The text view shows the page's text at the terminal's own size: T for the picture, which zooms"
        return true
    }
}

extension EditorReducer {
    /// Scrolls the text view by whole rows and columns until the cursor's cell is in the page area: its rows follow
    /// the page's lines, so the cell is found through the viewport, not by the cursor's distance in points.
    static func revealCursorInText(_ state: inout EditorState, _ env: EditorEnvironment) {
        let area = state.layout.pageArea
        for _ in 0..<2 {
            let cell = state.viewport(cellPixels: env.cellPixels).cell(for: state.cursor)
            let view = view(state, env)
            let step = view.cell
            var scroll = view.scroll
            if cell.column < 0 { scroll.x += Double(cell.column) * step.width }
            if cell.column >= area.width { scroll.x += Double(cell.column - area.width + 1) * step.width }
            if cell.row < 0 { scroll.y += Double(cell.row) * step.height }
            if cell.row >= area.height { scroll.y += Double(cell.row - area.height + 1) * step.height }
            state.scroll = Point(x: max(0, scroll.x), y: max(0, scroll.y))
        }
    }

    /// While typing in the text view, the caret (after the typed text, a character a cell) is kept on screen: the
    /// view scrolls right by whole columns as the text grows past the page area's edge, as far as the text view
    /// reaches.
    static func revealCaretInText(_ state: inout EditorState, _ draft: TextDraft, _ env: EditorEnvironment) {
        let area = state.layout.pageArea
        let viewport = state.viewport(cellPixels: env.cellPixels)
        let caret = viewport.cell(for: draft.markup.origin).column + CharacterWidth.of(VisibleText.of(draft.markup.text))
        guard caret >= area.width else { return }
        let view = view(state, env)
        state.scroll.x = view.scroll.x + Double(caret - area.width + 1) * view.cell.width
    }
}
