/// Draws a document's pages into pixels. The poppler adapter implements it; the core and the front ends
/// ask for pages through it and never name the library.
public protocol PageRenderer: AnyObject, Sendable {
    var pageCount: Int { get }
    /// The page as the user sees it (after /Rotate and the crop box), in points.
    func displaySize(ofPage index: Int) -> Size
    /// The page at `scale` pixels per point, on white.
    func render(page index: Int, scale: Double) -> PageRaster
}
