/// One occurrence of a searched pattern: its page and its boxes in display space, one per line it runs over.
public struct SearchHit: Sendable, Hashable, Codable {
    /// From 0.
    public var pageIndex: Int
    public var boxes: [Rect]

    /// Where it starts: the box on its first line.
    public var box: Rect { boxes[0] }

    public init(pageIndex: Int, boxes: [Rect]) {
        precondition(!boxes.isEmpty, "a hit has a box")
        self.pageIndex = pageIndex
        self.boxes = boxes
    }
}

/// Searching a whole document the way vim and zathura do: smart case (a pattern with a capital letter matches
/// case exactly, one without ignores case), hits in page order and, on a page, in reading order.
public enum TextSearch {
    public static func isCaseSensitive(_ pattern: String) -> Bool {
        pattern.contains { $0.isUppercase }
    }

    /// The pattern as searched: runs of spaces, tabs and line breaks are one space, as words are on a page.
    public static func normalized(_ pattern: String) -> String {
        pattern.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    public static func hits(of pattern: String, in pages: Range<Int>, using searcher: some TextSearching) -> [SearchHit] {
        let pattern = normalized(pattern)
        guard !pattern.isEmpty else { return [] }
        let caseSensitive = isCaseSensitive(pattern)
        return pages.flatMap { page in
            searcher.find(pattern, onPage: page, caseSensitive: caseSensitive)
                .filter { !$0.isEmpty }
                .sorted { ($0[0].minY, $0[0].minX) < ($1[0].minY, $1[0].minX) }
                .map { SearchHit(pageIndex: page, boxes: $0) }
        }
    }
}
