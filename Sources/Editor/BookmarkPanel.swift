import RedlineCore

/// The bookmarks panel (`B`): the selected bookmark, the order shown, and a name being typed.
public struct BookmarkPanel: Sendable, Equatable {
    public var order: BookmarkOrder
    public var selected: String?
    /// The new name while renaming (`R`).
    public var renaming: String?

    public init(order: BookmarkOrder, selected: String? = nil) {
        self.order = order
        self.selected = selected
    }
}
