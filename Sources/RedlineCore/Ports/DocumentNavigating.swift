/// Reads a document's links and outline. The poppler adapter implements it.
public protocol DocumentNavigating: AnyObject, Sendable {
    /// The links on a page, in the file's order, their areas in display space.
    func links(onPage index: Int) -> [PageLink]
    /// The outline's top-level entries; empty when the document has none.
    func outline() -> [OutlineEntry]
}
