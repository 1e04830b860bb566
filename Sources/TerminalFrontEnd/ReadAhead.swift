import Editor
import RedlineCore

/// Which pages to make ahead of need, and what of them: the next page, then the previous one, each as it would
/// show when turned to (its top, nothing selected). A page that will show as text needs its words, not a picture:
/// its scene is the text view's, whose cells are a thousand raster units wide.
public enum ReadAhead {
    public struct Neighbour: Sendable {
        public let page: Int
        /// The scene to make a picture of, or nil when the page will show as text.
        public let pictureScene: PageScene?
        /// Its links or words are still to be read.
        public let needsText: Bool
    }

    public static func neighbours(of state: EditorState, environment: EditorEnvironment) -> [Neighbour] {
        [1, -1].compactMap { offset in
            let page = state.pageIndex + offset
            guard page >= 0, page < state.document.pageCount else { return nil }
            var neighbour = state
            neighbour.pageIndex = page
            // A page turned to shows its top (PageDown, PageUp, j and k at an edge of a page that fits).
            neighbour.scroll.y = 0
            neighbour.selection = nil
            neighbour.interaction.textSelection = nil
            return Neighbour(page: page,
                             pictureScene: neighbour.showsTextView ? nil : neighbour.scene(environment: environment),
                             needsText: state.navigation.needsWords(onPage: page) || state.navigation.needsLinks(onPage: page))
        }
    }
}
