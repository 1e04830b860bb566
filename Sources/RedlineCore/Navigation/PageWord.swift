/// A word of a page's text as poppler lays it out: its text, its box in display space, and the line and the
/// block (a paragraph or a column's run of lines) it belongs to, numbered in reading order.
public struct PageWord: Sendable, Hashable {
    public var text: String
    public var box: Rect
    public var line: Int
    public var block: Int
    /// The colour the word is printed in, when it is not black or grey (the text view shows it).
    public var color: RGBColor?

    public init(text: String, box: Rect, line: Int, block: Int, color: RGBColor? = nil) {
        self.text = text
        self.box = box
        self.line = line
        self.block = block
        self.color = color
    }
}

/// Reads the words of a page. The poppler adapter implements it.
public protocol PageTextReading: AnyObject, Sendable {
    /// The page's words in reading order.
    func words(onPage index: Int) -> [PageWord]
}

public enum TextBlocks {
    /// Lines (each the words of one line) grouped into blocks: a line joins the block above when it starts
    /// within 1.6 line heights below it and overlaps it sideways; otherwise it starts a new block. Numbers the
    /// words' `block` in place.
    public static func assign(_ words: inout [PageWord]) {
        var block = -1
        var previous: Rect?
        var index = 0
        while index < words.count {
            let line = words[index].line
            var end = index
            while end < words.count, words[end].line == line { end += 1 }
            let box = words[index..<end].dropFirst().reduce(words[index].box) { $0.union($1.box) }
            if let above = previous, box.minY >= above.minY, box.minY - above.maxY < 1.6 * max(1, box.height),
               box.minX < above.maxX, above.minX < box.maxX {
                previous = above.union(box)
            } else {
                block += 1
                previous = box
            }
            for word in index..<end { words[word].block = block }
            index = end
        }
    }

    /// Each block's box, by block number.
    public static func boxes(_ words: [PageWord]) -> [Int: Rect] {
        var boxes: [Int: Rect] = [:]
        for word in words { boxes[word.block] = boxes[word.block].map { $0.union(word.box) } ?? word.box }
        return boxes
    }
}
