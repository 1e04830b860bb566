/// Words of the page's text being selected (`v`, or a drag over the text): from the word it started at to the
/// word it reaches now, in reading order. Indexes into the page's words.
public struct TextSelection: Sendable, Hashable {
    public var pageIndex: Int
    public var anchor: Int
    public var head: Int

    public init(pageIndex: Int, anchor: Int, head: Int) {
        self.pageIndex = pageIndex
        self.anchor = anchor
        self.head = head
    }

    public var range: ClosedRange<Int> { min(anchor, head)...max(anchor, head) }
}
