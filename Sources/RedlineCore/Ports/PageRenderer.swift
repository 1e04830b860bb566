/// Draws a document's pages into pixels. The poppler adapter implements it; the core and the front ends
/// ask for pages through it and never name the library.
public protocol PageRenderer: AnyObject, Sendable {
    var pageCount: Int { get }
    /// The page as the user sees it (after /Rotate and the crop box), in points.
    func displaySize(ofPage index: Int) -> Size
    /// The page at `scale` pixels per point, on white.
    func render(page index: Int, scale: Double) -> PageRaster
    /// The page with annotations of the file moved or deleted as `annotationEdits` says.
    func render(page index: Int, scale: Double, annotationEdits: AnnotationEdits) -> PageRaster
}

extension PageRenderer {
    /// A renderer that cannot make the edits draws the page as the file has it.
    public func render(page index: Int, scale: Double, annotationEdits: AnnotationEdits) -> PageRaster {
        render(page: index, scale: scale)
    }
}
