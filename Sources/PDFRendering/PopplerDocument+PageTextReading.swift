import CPoppler
import RedlineCore

/// Words from poppler's text of a page and the box of each of its characters; a line break in the text ends a
/// line, white space a word.
extension PopplerDocument: PageTextReading {
    public func words(onPage index: Int) -> [PageWord] {
        guard index >= 0, index < pageCount else { return [] }
        return withPage(index) { page in
            guard let cText = poppler_page_get_text(page) else { return [] }
            defer { g_free(cText) }
            var rects: UnsafeMutablePointer<PopplerRectangle>?
            var count: guint = 0
            guard poppler_page_get_text_layout(page, &rects, &count) != 0, let rects else { return [] }
            defer { g_free(rects) }
            let scalars = Array(String(cString: cText).unicodeScalars)
            var words: [PageWord] = []
            var line = 0
            var text = ""
            var box: Rect?
            func endWord() {
                if let found = box, !text.isEmpty { words.append(PageWord(text: text, box: found, line: line, block: 0)) }
                text = ""
                box = nil
            }
            for (offset, scalar) in scalars.enumerated() where offset < Int(count) && words.count < Self.largestWordCount {
                if scalar == "\n" {
                    endWord()
                    line += 1
                    continue
                }
                if scalar.properties.isWhitespace {
                    endWord()
                    continue
                }
                let rect = rects[offset]
                let (left, right) = (min(rect.x1, rect.x2), max(rect.x1, rect.x2))
                let (top, bottom) = (min(rect.y1, rect.y2), max(rect.y1, rect.y2))
                guard [left, right, top, bottom].allSatisfy(\.isFinite) else { continue }
                let character = Rect(x: left, y: top, width: right - left, height: bottom - top)
                text.unicodeScalars.append(scalar)
                box = box.map { $0.union(character) } ?? character
            }
            endWord()
            TextBlocks.assign(&words)
            return words
        } ?? []
    }

    /// A page holds at most this many words: a hostile page's millions are cut here.
    static let largestWordCount = 200_000
}
