import CPoppler
import RedlineCore

extension PopplerDocument: TextSearching {
    /// poppler gives each match in the page's displayed frame, from the crop box's lower left corner with y up;
    /// flipped here to display space (y down), so the boxes are the ones markup files and `pdftotext -cropbox
    /// -bbox` use.
    public func find(_ pattern: String, onPage index: Int, caseSensitive: Bool) -> [Rect] {
        guard index >= 0, index < pageCount, !pattern.isEmpty else { return [] }
        return withPage(index) { page in
            var width = 0.0, height = 0.0
            poppler_page_get_size(page, &width, &height)
            let options = caseSensitive ? POPPLER_FIND_CASE_SENSITIVE : POPPLER_FIND_DEFAULT
            guard let found = poppler_page_find_text_with_options(page, pattern, options) else { return [] }
            defer { g_list_free_full(found) { poppler_rectangle_free($0?.assumingMemoryBound(to: PopplerRectangle.self)) } }
            var boxes: [Rect] = []
            var node: UnsafeMutablePointer<GList>? = found
            while let current = node {
                if let data = current.pointee.data {
                    let rect = data.assumingMemoryBound(to: PopplerRectangle.self).pointee
                    let (left, right) = (min(rect.x1, rect.x2), max(rect.x1, rect.x2))
                    let (bottom, top) = (min(rect.y1, rect.y2), max(rect.y1, rect.y2))
                    boxes.append(Rect(x: left, y: height - top, width: right - left, height: top - bottom))
                }
                node = current.pointee.next
            }
            return boxes
        } ?? []
    }
}
