import RedlineCore
/// The screen around the page: its size, the message line, the keys, and the save under way.
public struct ScreenChrome: Sendable {
    public var columns: Int
    public var rows: Int
    public var message: String?
    /// Which key starts which command, per context: the standard keys with config.toml's `[keys.…]` over them.
    public var keymaps = Keymaps.standard
    /// The order the bookmarks panel opens in.
    public var bookmarkOrder: BookmarkOrder = .custom
    /// A save is running (off the loop): its destination, and how far it has got.
    public var saving: SaveProgress?
    public var quitAfterSave = false
    /// `F`: the status line, the message line and the panels are hidden, the page fills the terminal.
    public var hidesInterface = false
    /// An `open_command` is configured: following a web link opens it.
    public var opensLinks = false
    /// The panel `F` hid, shown again by the next `F`.
    public var hiddenPanel: SidePanel?
    /// The colours a dark page is laid between (`recolor_dark`, `recolor_light` in config.toml).
    public var recolor = PageRecolor.standard

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}

/// How far a running save has got, as the saver reports it.
public struct SaveProgress: Sendable, Hashable {
    public var destination: String
    public var step: String

    public init(destination: String, step: String) {
        self.destination = destination
        self.step = step
    }
}
