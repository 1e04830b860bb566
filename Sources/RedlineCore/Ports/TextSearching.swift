/// Finds text on a document's pages. The poppler adapter implements it; the core and the front ends search
/// through it and never name the library.
public protocol TextSearching: AnyObject, Sendable {
    /// Where `pattern` occurs on a page: for each occurrence its boxes, one per line it runs over, in display
    /// space: points, y down, origin at the top left of the page as shown (after /Rotate and the crop box), the
    /// space markup files use.
    func find(_ pattern: String, onPage index: Int, caseSensitive: Bool) -> [[Rect]]
    /// Why a page is not searched (kept from the reader as too costly), or nil when it is.
    func refusal(page index: Int) -> String?
}

extension TextSearching {
    /// Why a page is not searched (kept from the reader as too costly), or nil when it is.
    public func refusal(page index: Int) -> String? { nil }
}
