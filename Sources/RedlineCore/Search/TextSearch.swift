/// One occurrence of a searched pattern: its page and its box in display space.
public struct SearchHit: Sendable, Hashable, Codable {
    /// From 0.
    public var pageIndex: Int
    public var box: Rect

    public init(pageIndex: Int, box: Rect) {
        self.pageIndex = pageIndex
        self.box = box
    }
}

/// Searching a whole document the way vim and zathura do: smart case (a pattern with a capital letter matches
/// case exactly, one without ignores case), hits in page order and, on a page, in reading order.
public enum TextSearch {
    public static func isCaseSensitive(_ pattern: String) -> Bool {
        pattern.contains { $0.isUppercase }
    }

    public static func hits(of pattern: String, in pages: Range<Int>, using searcher: some TextSearching) -> [SearchHit] {
        guard !pattern.isEmpty else { return [] }
        let caseSensitive = isCaseSensitive(pattern)
        return pages.flatMap { page in
            searcher.find(pattern, onPage: page, caseSensitive: caseSensitive)
                .sorted { ($0.minY, $0.minX) < ($1.minY, $1.minX) }
                .map { SearchHit(pageIndex: page, box: $0) }
        }
    }
}
