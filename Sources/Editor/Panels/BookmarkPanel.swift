import RedlineCore

/// The bookmarks panel (`B`): the selected bookmark, the order shown, and a name being typed.
public struct BookmarkPanel: Sendable, Equatable {
    public var order: BookmarkOrder
    public var list = PanelList<String>()
    public var selected: String? {
        get { list.selected }
        set { list.selected = newValue }
    }
    /// The new name while renaming (`R`).
    public var renaming: String?

    public init(order: BookmarkOrder, selected: String? = nil) {
        self.order = order
        list.selected = selected
    }
}

extension EditorState {
    /// The bookmarks as the panel lists them, one row each.
    func bookmarkEntries(_ panel: BookmarkPanel) -> [(id: String, rows: Int)] {
        bookmarks.sorted(panel.order).map { ($0.id, 1) }
    }
}
