import RedlineCore

/// Which page is shown, how large, which part of it, and where the cursor is.
public struct Viewport: Sendable, Hashable {
    public var pageIndex: Int
    /// 1 fits the page into the page area; above zooms in.
    public var zoom: Double = 1
    /// The page's width fills the page area, on every page whatever its size (`W`, as zathura's and mupdf's fit
    /// width); a zoom key leaves it for the zoom it showed.
    public var fitsWidth = false
    /// The page area shows the page's words in cells instead of its picture (`T`), on every page that has text.
    public var showsText = false
    /// The page shown dark: its lightness turned over, its hues kept (`I`).
    public var recolors = false
    /// The display-space point at the top-left of the page area when the page is larger than the area.
    public var scroll: Point = .zero
    /// Where new markup goes, in the current page's display space.
    public var cursor = Point(x: 72, y: 72)
    /// Where jumps left from, for Ctrl-O and Ctrl-F.
    public var jumps = JumpList()
    /// The view a smart zoom left: the same again goes back to it.
    public var beforeSmartZoom: SmartZoomReturn?
    /// Places marked with `m` and a letter, gone back to with `'` and the letter; kept with the reading place.
    public var marks: [Character: JumpList.Place] = [:]

    public init(pageIndex: Int) {
        self.pageIndex = pageIndex
    }
}

/// The zoom and place to go back to after a smart zoom.
public struct SmartZoomReturn: Sendable, Hashable {
    public var pageIndex: Int
    public var zoom: Double
    public var fitsWidth: Bool
    public var scroll: Point
}
