/// Where a reader left a document, to open it there again (zathura's and Okular's "reopen where you left off"):
/// the page, how it was shown, and the marks set in it (`m a`, `' a`). Points are in the page's display space.
public struct ReadingPlace: Sendable, Hashable, Codable {
    public struct Mark: Sendable, Hashable, Codable {
        public var pageIndex: Int
        public var scrollX: Double
        public var scrollY: Double

        public init(pageIndex: Int, scrollX: Double, scrollY: Double) {
            self.pageIndex = pageIndex
            self.scrollX = scrollX
            self.scrollY = scrollY
        }
    }

    public var pageIndex: Int
    public var zoom: Double
    public var fitsWidth: Bool
    public var showsText: Bool
    public var scrollX: Double
    public var scrollY: Double
    /// By the mark's letter.
    public var marks: [String: Mark]

    public init(pageIndex: Int, zoom: Double = 1, fitsWidth: Bool = false, showsText: Bool = false, scrollX: Double = 0,
                scrollY: Double = 0, marks: [String: Mark] = [:]) {
        self.pageIndex = pageIndex
        self.zoom = zoom
        self.fitsWidth = fitsWidth
        self.showsText = showsText
        self.scrollX = scrollX
        self.scrollY = scrollY
        self.marks = marks
    }
}
