/// A page's words laid out in terminal cells for the text view: one cell per character at a size where body
/// text reads as it does in a terminal, each word at its place on the page. The cell size in points comes from
/// the page's own text (`TextCellSize`); each row's columns (`TextColumnMap`) and the rows themselves
/// (`TextRowMap`) are matched to the page through the words placed there, so the cursor, markup, search hits and
/// selections keep their page positions even where a word was pushed along or a line down.
public struct PageTextLayout: Sendable, Hashable {
    /// One word shown in cells: where it starts, how many cells it takes, and which of the page's words it is.
    public struct PlacedWord: Sendable, Hashable {
        public var column: Int
        public var row: Int
        public var cells: Int
        public var word: Int
    }

    public var cellSize: TextCellSize
    /// In rows, and left to right within each row.
    public var words: [PlacedWord]
    /// How the columns of each row meet the page: through the words placed on it.
    public var columns: TextColumnMap
    /// How the rows meet the page: each row with words spans its words' height.
    public var rows: TextRowMap
    /// The cells the layout reaches: the page's, or further where words were pushed past its edge or down.
    public var extent: (columns: Int, rows: Int)

    public static func == (lhs: PageTextLayout, rhs: PageTextLayout) -> Bool {
        lhs.cellSize == rhs.cellSize && lhs.words == rhs.words && lhs.extent == rhs.extent
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(cellSize); hasher.combine(words)
    }

    /// Lays `words` out in cells of `cellSize`: a line's row holds the middle of its words' box, unless a line
    /// above it in the same column of text already has that row (lines closer than a cell's height): then the
    /// next free one. A word's first column is its left edge. Words of a row are placed left to right: a word a space after the one before follows it after one blank
    /// cell, as text reads; one further away keeps its own column unless the words before it reach past it, so a
    /// word wider in cells than on paper pushes its neighbours along rather than overwriting them. `cellsOf` says how
    /// many cells a word's text takes in the terminal (two for a wide character).
    public init(words: [PageWord], cellSize: TextCellSize, pageSize: Size? = nil, cellsOf: (String) -> Int = { $0.count }) {
        self.cellSize = cellSize
        let rows = Self.rows(of: words, cellSize)
        let order = words.indices.sorted { first, second in
            rows[first] != rows[second] ? rows[first] < rows[second]
                : words[first].box.minX != words[second].box.minX ? words[first].box.minX < words[second].box.minX
                : first < second
        }
        var placed: [PlacedWord] = []
        placed.reserveCapacity(words.count)
        var free: (row: Int, column: Int, x: Double) = (Int.min, 0, 0)
        for index in order {
            let row = rows[index]
            let box = words[index].box
            var column = Int(clamping: (box.minX / cellSize.width).rounded())
            if row == free.row {
                // Words a space apart on the page are a blank apart on screen; a wider gap (a tab, a table's
                // columns) keeps the word at its own column.
                column = box.minX - free.x < 2 * cellSize.width ? free.column : max(column, free.column)
            }
            let cells = max(1, cellsOf(words[index].text))
            placed.append(PlacedWord(column: column, row: row, cells: cells, word: index))
            // A box far wider than its letters (poppler sometimes gives a number the width of the gap after it, up
            // to the next column of an index) ends, for this, where its letters would: the next column keeps its place.
            free = (row, column + cells + 1, min(box.maxX, box.minX + Double(cells) * cellSize.width * 2))
        }
        if let pageSize { Self.keepRowsOnThePaper(&placed, columns: Int((pageSize.width / cellSize.width).rounded(.down))) }
        self.words = placed
        columns = TextColumnMap(cellWidth: cellSize.width, placed: placed.map { ($0, words[$0.word].box) })
        self.rows = TextRowMap(cellHeight: cellSize.height, placed: placed.map { ($0.row, words[$0.word].box) })
        let size = pageSize ?? Size(width: 0, height: 0)
        extent = (max(Int((size.width / cellSize.width).rounded(.up)), (placed.map { $0.column + $0.cells }.max() ?? 0)),
                  max(Int((size.height / cellSize.height).rounded(.up)), (placed.map { $0.row + 1 }.max() ?? 0)))
    }

    /// A row pushed past the paper's right edge (the terminal's letters are wider than the page's) is drawn back onto
    /// it: its words move left into the gaps before them, down to one blank between words and none before the first,
    /// keeping their order. Only a row that cannot fit even so still reaches past the edge, as little as it can.
    static func keepRowsOnThePaper(_ placed: inout [PlacedWord], columns: Int) {
        guard columns > 0 else { return }
        var start = 0
        while start < placed.count {
            var end = start
            while end < placed.count, placed[end].row == placed[start].row { end += 1 }
            if placed[end - 1].column + placed[end - 1].cells > columns {
                var limit = columns
                for index in (start..<end).reversed() {
                    placed[index].column = min(placed[index].column, limit - placed[index].cells)
                    limit = placed[index].column - 1
                }
                var free = 0
                for index in start..<end {
                    placed[index].column = max(placed[index].column, free)
                    free = placed[index].column + placed[index].cells + 1
                }
            }
            start = end
        }
    }

    /// Each word's row: its line's. A line is a run of poppler's line whose words stay at one height (poppler puts
    /// an index's page numbers, or a proof's end mark, in the line of words far above or below them). Lines are
    /// taken from the top; a line whose row is held by one at another height (the line above it, closer than a
    /// cell) moves to the row below. Lines at the same height, as in two columns of text, share their row.
    static func rows(of words: [PageWord], _ cellSize: TextCellSize) -> [Int] {
        var lineOfWord: [Int] = []
        var lines: [Rect] = []
        for (index, word) in words.enumerated() {
            if index > 0, words[index - 1].line == word.line, let current = lines.last,
               abs(words[index - 1].box.center.y - word.box.center.y) <= min(words[index - 1].box.height, word.box.height) / 2 {
                lines[lines.count - 1] = current.union(word.box)
            } else {
                lines.append(word.box)
            }
            lineOfWord.append(lines.count - 1)
        }
        let order = lines.indices.sorted { lines[$0].center.y != lines[$1].center.y ? lines[$0].center.y < lines[$1].center.y : $0 < $1 }
        var rowOfLine = [Int](repeating: 0, count: lines.count)
        var held: [Int: [Rect]] = [:]
        for line in order {
            let box = lines[line]
            var row = Int(clamping: (box.center.y / cellSize.height).rounded(.down))
            while let others = held[row], others.contains(where: { abs($0.center.y - box.center.y) > min($0.height, box.height) / 2 }) {
                row += 1
            }
            rowOfLine[line] = row
            held[row, default: []].append(box)
        }
        return lineOfWord.map { rowOfLine[$0] }
    }
}

/// Where a column of the text view is on the page, row by row. A row's words are its anchors: a word's first
/// column is its box's left edge, the column after its last its right edge, and between anchors the columns
/// are spread evenly. So a character on screen is at its own place on the page even where a word was pushed
/// along, and the cell after a word is just after it on the page: markup typed there lands beside the word.
/// Rows without words, and the columns before a row's first word and after its last, go a cell's width a column.
public struct TextColumnMap: Sendable, Hashable {
    /// A column (of the whole page's cells, not the screen's) and the page's x there.
    struct Anchor: Sendable, Hashable {
        var column: Double
        var x: Double
    }

    let cellWidth: Double
    let rows: [Int: [Anchor]]
    /// The least distance between the x of two anchors.
    static let leastStep = 0.01

    init(cellWidth: Double, placed: [(PageTextLayout.PlacedWord, Rect)]) {
        self.cellWidth = cellWidth
        var rows: [Int: [Anchor]] = [:]
        for (word, box) in placed {
            var anchors = rows[word.row] ?? []
            // x only grows along a row, even where the page's boxes overlap or touch: two columns never share an x.
            let left = max(box.minX, (anchors.last?.x ?? -.infinity) + Self.leastStep)
            anchors.append(Anchor(column: Double(word.column), x: left))
            anchors.append(Anchor(column: Double(word.column + word.cells), x: max(box.maxX, left + Self.leastStep * Double(word.cells))))
            rows[word.row] = anchors
        }
        // Left of a row's first word, its columns run evenly from the page's left edge: column 0 is x 0, so the
        // page's first column is on the page, never left of it.
        for (row, anchors) in rows {
            if let first = anchors.first, first.column > 0, first.x > Self.leastStep {
                rows[row] = [Anchor(column: 0, x: 0)] + anchors
            }
        }
        self.rows = rows
    }

    /// Word boxes from poppler's layout and from its search differ by fractions of a point: within this of a word's
    /// edge, a point is on the edge.
    static let edgeTolerance = 0.25

    /// The column, with its fraction, that shows page x `x` on page row `row`.
    public func column(forX x: Double, row: Int) -> Double {
        guard let anchors = rows[row] else { return x / cellWidth }
        if let edge = nearestAnchor(to: x, in: anchors), abs(edge.x - x) <= Self.edgeTolerance { return edge.column }
        return Self.interpolate(x, in: anchors, from: \.x, to: \.column, beyondPerUnit: 1 / cellWidth)
    }

    /// The page x at a column (with its fraction) of page row `row`.
    public func x(forColumn column: Double, row: Int) -> Double {
        guard let anchors = rows[row] else { return column * cellWidth }
        return Self.interpolate(column, in: anchors, from: \.column, to: \.x, beyondPerUnit: cellWidth)
    }

    /// Along a row's anchors (both their columns and their x only grow), from one measure to the other: between
    /// the two anchors around `value` in proportion, and beyond the first or last at `beyondPerUnit`.
    private static func interpolate(_ value: Double, in anchors: [Anchor], from source: KeyPath<Anchor, Double>,
                                    to target: KeyPath<Anchor, Double>, beyondPerUnit: Double) -> Double {
        let first = anchors[0], last = anchors[anchors.count - 1]
        if value <= first[keyPath: source] { return first[keyPath: target] - (first[keyPath: source] - value) * beyondPerUnit }
        if value >= last[keyPath: source] { return last[keyPath: target] + (value - last[keyPath: source]) * beyondPerUnit }
        var low = 0, high = anchors.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if anchors[middle][keyPath: source] <= value { low = middle } else { high = middle }
        }
        let (a, b) = (anchors[low], anchors[high])
        let span = b[keyPath: source] - a[keyPath: source]
        return span > 0 ? a[keyPath: target] + (value - a[keyPath: source]) / span * (b[keyPath: target] - a[keyPath: target])
            : a[keyPath: target]
    }

    private func nearestAnchor(to x: Double, in anchors: [Anchor]) -> Anchor? {
        var low = 0, high = anchors.count
        while low < high {
            let middle = (low + high) / 2
            if anchors[middle].x < x { low = middle + 1 } else { high = middle }
        }
        // The anchor at or after x, or the one before: whichever is nearer; on a tie (a word's end and the next
        // one's start at one x) the later, the start of what follows.
        // Compared in place: this runs for every point of every stroke the text view draws.
        let after = low < anchors.count ? anchors[low] : nil
        let before = low > 0 ? anchors[low - 1] : nil
        guard let after else { return before }
        guard let before else { return after }
        return abs(before.x - x) < abs(after.x - x) ? before : after
    }
}

/// Where the rows of the text view are on the page: a row holding words spans from its words' top to their foot,
/// so a point on a line is in that line's row and the top of a row is the top of its line (text typed there sits on
/// the line); rows without words, above, below and between, go a cell's height a row from their neighbours.
public struct TextRowMap: Sendable, Hashable {
    let cellHeight: Double
    /// The rows holding words, in order, with the top and foot of their words.
    let bands: [(row: Int, top: Double, bottom: Double)]

    public static func == (lhs: TextRowMap, rhs: TextRowMap) -> Bool {
        lhs.cellHeight == rhs.cellHeight && lhs.bands.map(\.row) == rhs.bands.map(\.row)
            && lhs.bands.map(\.top) == rhs.bands.map(\.top) && lhs.bands.map(\.bottom) == rhs.bands.map(\.bottom)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(cellHeight); hasher.combine(bands.map(\.row))
    }

    init(cellHeight: Double, placed: [(Int, Rect)]) {
        self.cellHeight = cellHeight
        var spans: [Int: (Double, Double)] = [:]
        for (row, box) in placed {
            spans[row] = spans[row].map { (min($0.0, box.minY), max($0.1, box.maxY)) } ?? (box.minY, box.maxY)
        }
        var bands: [(row: Int, top: Double, bottom: Double)] = []
        for row in spans.keys.sorted() {
            var (top, bottom) = spans[row]!
            // Each band starts below the one before: the rows stay in order on the page.
            if let previous = bands.last { top = max(top, previous.bottom); bottom = max(bottom, top + 0.01) }
            bands.append((row, top, bottom))
        }
        self.bands = bands
    }

    /// The row, with its fraction, that holds page y `y`.
    public func row(forY y: Double) -> Double {
        guard let first = bands.first, let last = bands.last else { return y / cellHeight }
        if y < first.top { return Double(first.row) - (first.top - y) / cellHeight }
        if y >= last.bottom { return Double(last.row + 1) + (y - last.bottom) / cellHeight }
        let index = bandIndex(containingOrAfter: y)
        let band = bands[index]
        if y >= band.top { return Double(band.row) + (y - band.top) / (band.bottom - band.top) }
        // Between two bands: the rows between them share the gap evenly.
        let above = bands[index - 1]
        return Double(above.row + 1) + (y - above.bottom) / (band.top - above.bottom) * Double(band.row - above.row - 1)
    }

    /// The page y at a row, with its fraction.
    public func y(forRow row: Double) -> Double {
        guard let first = bands.first, let last = bands.last else { return row * cellHeight }
        if row < Double(first.row) { return first.top - (Double(first.row) - row) * cellHeight }
        if row >= Double(last.row + 1) { return last.bottom + (row - Double(last.row + 1)) * cellHeight }
        var low = 0, high = bands.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if Double(bands[middle].row) <= row { low = middle } else { high = middle - 1 }
        }
        let band = bands[low]
        if row < Double(band.row + 1) { return band.top + (row - Double(band.row)) * (band.bottom - band.top) }
        let below = bands[low + 1]
        let between = Double(below.row - band.row - 1)
        return band.bottom + (row - Double(band.row + 1)) / between * (below.top - band.bottom)
    }

    private func bandIndex(containingOrAfter y: Double) -> Int {
        var low = 0, high = bands.count - 1
        while low < high {
            let middle = (low + high) / 2
            if bands[middle].bottom <= y { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// Which way a page's text runs on screen. The text view lays out text that reads across, left to right; on a
/// turned page whose text runs down the screen, or upside down, it shows the picture instead.
public enum TextDirection: Sendable, Equatable {
    case across
    case sideways
    case upsideDown

    /// From the words' boxes (a word taller than wide runs down the screen) and, on a page turned upside down
    /// (/Rotate 180), from the order of its lines' words (right to left on screen). Text written right to left on
    /// an upright page is across: its words are placed where they are.
    public init(words: [PageWord], rotation: PageRotation) {
        let long = words.filter { $0.text.count >= 3 }
        let tall = long.filter { $0.box.height > $0.box.width }.count
        if !long.isEmpty, tall * 2 > long.count {
            self = .sideways
            return
        }
        guard rotation == .half else {
            self = .across
            return
        }
        var leftward = 0, rightward = 0
        for (word, next) in zip(words, words.dropFirst()) where word.line == next.line {
            if next.box.minX < word.box.minX { leftward += 1 } else { rightward += 1 }
        }
        self = leftward > rightward ? .upsideDown : .across
    }
}

/// How many points a text-view cell spans: the page's typical advance per character (spaces between words
/// counted), and its typical distance from one line to the next.
public struct TextCellSize: Sendable, Hashable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// From a page's words, or nil when the page has no text to lay out. Per line of eight characters or more,
    /// its width over its cells (characters and the blanks between words); the median of those is the width,
    /// so lines of body text fill about their own width on screen (a line of narrow letters pushes its words a
    /// little to the right, which `TextColumnMap` accounts for). The height is the median step between the
    /// tops of consecutive lines of a block, else of the lines' heights.
    public init?(words: [PageWord]) {
        var advances: [Double] = []
        var steps: [Double] = []
        var heights: [Double] = []
        var previousLine: (block: Int, top: Double)?
        var index = 0
        while index < words.count {
            var end = index
            while end < words.count, words[end].line == words[index].line { end += 1 }
            let line = words[index..<end]
            let box = line.dropFirst().reduce(line.first!.box) { $0.union($1.box) }
            let cells = line.reduce(0) { $0 + $1.text.count } + line.count - 1
            if cells >= 8, box.width > 0 { advances.append(box.width / Double(cells)) }
            if box.height > 0 { heights.append(box.height) }
            if let previous = previousLine, previous.block == words[index].block, box.minY > previous.top {
                steps.append(box.minY - previous.top)
            }
            previousLine = (words[index].block, box.minY)
            index = end
        }
        if advances.isEmpty {
            // Only short lines (a title page, a form): each word's own advance per character.
            advances = words.filter { $0.box.width > 0 }.map { $0.box.width / Double(max(1, $0.text.count)) }
        }
        guard let width = Self.median(advances), width > 0.1 else { return nil }
        let lineHeight = Self.median(heights) ?? width * 2
        // A step far above the lines' height is a gap between paragraphs, not the line spacing.
        let pitch = Self.median(steps.filter { $0 < lineHeight * 2.5 }) ?? lineHeight * 1.2
        self.init(width: width, height: max(pitch, lineHeight, 0.1))
    }

    static func median(_ values: [Double]) -> Double? { quantile(values, 0.5) }

    static func quantile(_ values: [Double], _ fraction: Double) -> Double? {
        let finite = values.filter(\.isFinite).sorted()
        return finite.isEmpty ? nil : finite[min(finite.count - 1, Int(Double(finite.count) * fraction))]
    }
}
