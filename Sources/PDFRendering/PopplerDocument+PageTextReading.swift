import CPoppler
import CPopplerLoader
import RedlineCore

/// Words from poppler's text of a page and the box of each of its characters; a line break in the text ends a
/// line, white space a word.
extension PopplerDocument: PageTextReading {
    public func words(onPage index: Int) -> [PageWord] {
        guard index >= 0, index < pageCount else { return [] }
        return withPage(index) { page in
            guard let cText = redline_poppler_page_get_text(page) else { return [] }
            defer { g_free(cText) }
            var rects: UnsafeMutablePointer<PopplerRectangle>?
            var count: guint = 0
            guard redline_poppler_page_get_text_layout(page, &rects, &count) != 0, let rects else { return [] }
            defer { g_free(rects) }
            let scalars = Array(String(cString: cText).unicodeScalars)
            var words: [PageWord] = []
            var line = 0
            var text = ""
            var box: Rect?
            var firstOffset = 0
            let colors = Self.textColors(page)
            func endWord() {
                if let found = box, !text.isEmpty {
                    words.append(PageWord(text: text, box: found, line: line, block: 0, color: colors.color(at: firstOffset)))
                }
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
                // Poppler's text can run two places together with no space between ("64einfach" in an index: a page
                // number of one column and a word of the other; a contents line's last leader dot and the page number
                // of the chapter line five lines above it). A character far to the right of the word so far on its
                // height, or beside it (not above or below it) on another line, starts a new word, as pdftotext's own
                // words do. (Text running down, on turned pages, keeps each character above or below the last.)
                if let word = box {
                    let size = max(word.height, character.height)
                    let across = max(character.minX - word.maxX, word.minX - character.maxX)
                    let upOrDown = abs(character.center.y - word.center.y)
                    if (character.minX - word.maxX > size * 0.8 && upOrDown < size * 0.5) || (across > 0 && upOrDown > size * 0.75) {
                        endWord()
                    }
                }
                if text.isEmpty { firstOffset = offset }
                text.unicodeScalars.append(scalar)
                box = box.map { $0.union(character) } ?? character
            }
            endWord()
            TextBlocks.assign(&words)
            return words
        } ?? []
    }

    /// The page's text colours by character offset: poppler's attribute runs, each a range of the page's text.
    /// Black and greys are left out, as the text view shows them in its own ink.
    struct TextColors {
        var runs: [(range: ClosedRange<Int>, color: RGBColor)] = []

        func color(at offset: Int) -> RGBColor? {
            // Runs come in text order: a binary search finds the one holding the offset.
            var low = 0, high = runs.count - 1
            while low <= high {
                let middle = (low + high) / 2
                if runs[middle].range.upperBound < offset { low = middle + 1 }
                else if runs[middle].range.lowerBound > offset { high = middle - 1 }
                else { return runs[middle].color }
            }
            return nil
        }
    }

    static func textColors(_ page: OpaquePointer) -> TextColors {
        var colors = TextColors()
        guard let list = redline_poppler_page_get_text_attributes(page) else { return colors }
        defer { redline_poppler_page_free_text_attributes(list) }
        var node: UnsafeMutablePointer<GList>? = list
        while let current = node {
            if let attributes = current.pointee.data?.assumingMemoryBound(to: PopplerTextAttributes.self).pointee,
               attributes.start_index >= 0, attributes.end_index >= attributes.start_index {
                let color = RGBColor(red: UInt8(attributes.color.red >> 8), green: UInt8(attributes.color.green >> 8),
                                     blue: UInt8(attributes.color.blue >> 8))
                let spread = Int(max(color.red, color.green, color.blue)) - Int(min(color.red, color.green, color.blue))
                if spread >= 40 {
                    colors.runs.append((Int(attributes.start_index)...Int(attributes.end_index), color))
                }
            }
            node = current.pointee.next
        }
        colors.runs.sort { $0.range.lowerBound < $1.range.lowerBound }
        return colors
    }

    /// A page holds at most this many words: a hostile page's millions are cut here.
    static let largestWordCount = 200_000
}
