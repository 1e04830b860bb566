import CPoppler
import CPopplerLoader
import RedlineCore

extension PopplerDocument: TextSearching {
    public func refusal(page index: Int) -> String? { pageGate?(index) }

    /// poppler gives each match in the page's displayed frame, from the crop box's lower left corner with y up;
    /// flipped here to display space (y down), so the boxes are the ones markup files and `pdftotext -cropbox
    /// -bbox` use.
    public func find(_ pattern: String, onPage index: Int, caseSensitive: Bool) -> [[Rect]] {
        guard index >= 0, index < pageCount, !pattern.isEmpty else { return [] }
        return withPage(index) { page in
            var width = 0.0, height = 0.0
            redline_poppler_page_get_size(page, &width, &height)
            // A phrase may run on over a line break: poppler then gives a box on each line.
            let options = PopplerFindFlags(rawValue: POPPLER_FIND_MULTILINE.rawValue
                                           | (caseSensitive ? POPPLER_FIND_CASE_SENSITIVE.rawValue : 0))
            guard let found = redline_poppler_page_find_text_with_options(page, pattern, options) else { return [] }
            defer { g_list_free_full(found) { redline_poppler_rectangle_free($0?.assumingMemoryBound(to: PopplerRectangle.self)) } }
            var matches: [[Rect]] = []
            var current: [Rect] = []
            var node: UnsafeMutablePointer<GList>? = found
            while let element = node {
                if let data = element.pointee.data {
                    let pointer = data.assumingMemoryBound(to: PopplerRectangle.self)
                    let rect = pointer.pointee
                    let (left, right) = (min(rect.x1, rect.x2), max(rect.x1, rect.x2))
                    let (bottom, top) = (min(rect.y1, rect.y2), max(rect.y1, rect.y2))
                    current.append(Rect(x: left, y: height - top, width: right - left, height: top - bottom))
                    // The match goes on on the next line: its next box belongs to it.
                    if redline_poppler_rectangle_find_get_match_continued(pointer) == 0 {
                        matches.append(current)
                        current = []
                    }
                }
                node = element.pointee.next
            }
            if !current.isEmpty { matches.append(current) }
            return matches
        } ?? []
    }
}
