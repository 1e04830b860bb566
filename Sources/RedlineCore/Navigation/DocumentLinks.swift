/// A place in the document a link or an outline entry leads to: a page, and where on it when the file says
/// (display space: points from the page's top left as shown).
public struct Destination: Sendable, Hashable, Codable {
    /// From 0.
    public var pageIndex: Int
    /// The page's point to bring to the top left of the view; nil coordinates keep the view's.
    public var left: Double?
    public var top: Double?

    public init(pageIndex: Int, left: Double? = nil, top: Double? = nil) {
        self.pageIndex = pageIndex
        self.left = left
        self.top = top
    }
}

/// What following a link does.
public enum LinkTarget: Sendable, Hashable {
    /// A place in this document (a destination, a named destination, a GoTo action).
    case destination(Destination)
    /// A web address or another URI: shown and copied, opened only by a command the user configured.
    case uri(String)
    /// A viewer action by name (`NextPage`, `PrevPage`, `FirstPage`, `LastPage`).
    case named(String)
    /// Something Redline never does by itself (another file, launching a program): described only.
    case unsupported(String)
}

/// A link on a page: its area in display space and where it leads.
public struct PageLink: Sendable, Hashable {
    public var rect: Rect
    public var target: LinkTarget

    public init(rect: Rect, target: LinkTarget) {
        self.rect = rect
        self.target = target
    }
}

/// One entry of the document's outline (its table of contents), with the entries under it.
public struct OutlineEntry: Sendable, Hashable {
    public var title: String
    public var destination: Destination?
    public var children: [OutlineEntry]
    /// Whether the file shows it unfolded.
    public var isOpen: Bool

    public init(title: String, destination: Destination?, children: [OutlineEntry] = [], isOpen: Bool = false) {
        self.title = title
        self.destination = destination
        self.children = children
        self.isOpen = isOpen
    }

    /// Outlines are trees from untrusted files: no reading goes deeper or further than this.
    public static let largestDepth = 32
    public static let largestCount = 50_000
}
