import TerminalGrid

/// The `?` overlay: every key, centred over the page area, in as many columns as fit side by side.
/// When even that is taller than the area, `j`/`k` scroll it.
enum HelpOverlay {
    struct Piece {
        var text: String
        var column: Int
        var bold: Bool
    }

    /// `fillingArea`: the box covers the whole area (over a side panel, whose cut-off rows beside the box
    /// would read as part of the help).
    static func draw(_ grid: inout CellGrid, in area: CellRect, scroll: Int, keymaps: Keymaps, fillingArea: Bool = false) {
        let (rows, contentWidth) = layout(height: max(1, area.height - 4), width: max(1, area.width - 4), keymaps: keymaps)
        let width = fillingArea ? area.width : min(area.width, contentWidth + 4)
        let visible = max(1, area.height - 4)
        let height = min(area.height, rows.count + 4)
        let box = CellRect(column: area.column + (area.width - width) / 2, row: area.row + (area.height - height) / 2,
                           width: width, height: height)
        let style = Theme.help
        let bold = Theme.helpTitle
        grid.fill(box, with: Cell(" ", style: style))
        let first = min(max(0, scroll), max(0, rows.count - visible))
        let scrollKeys = keymaps.hint([.helpDown, .helpUp], "scroll", in: .help) ?? "scroll"
        let more = rows.count > visible ? "   (\(first + 1)–\(min(rows.count, first + visible)) of \(rows.count): \(scrollKeys))" : ""
        grid.write("Redline keys" + more, column: box.column + 2, row: box.row + 1, style: bold, limit: width - 3, marksCut: true)
        for (offset, row) in rows.dropFirst(first).prefix(visible).enumerated() {
            for piece in row {
                grid.write(piece.text, column: box.column + 2 + piece.column, row: box.row + 3 + offset,
                           style: piece.bold ? bold : style, limit: max(0, box.maxColumn - 1 - (box.column + 2 + piece.column)), marksCut: true)
            }
        }
    }

    /// How many rows the overlay holds at this size: the reducer bounds scrolling with it.
    static func rowCount(area: CellRect, keymaps: Keymaps) -> Int {
        layout(height: max(1, area.height - 4), width: max(1, area.width - 4), keymaps: keymaps).rows.count
    }

    /// Sections side by side in columns when they fit the width, else one column to scroll.
    private static func layout(height: Int, width: Int, keymaps: Keymaps) -> (rows: [[Piece]], width: Int) {
        let blocks = KeyBindings.sections(keymaps).map { section in
            [section.title] + section.keys.map { "  " + $0.keys.padding(toLength: 24) + $0.action }
        }
        for columnCount in stride(from: blocks.count, through: 1, by: -1) {
            let columns = arrange(blocks, into: columnCount)
            let widths = columns.map { column in column.joined().map(\.count).max() ?? 0 }
            let total = widths.reduce(0, +) + 3 * (columns.count - 1)
            let tallest = columns.map { $0.joined().count + $0.count - 1 }.max() ?? 0
            guard columnCount == 1 || (total <= width && tallest <= height) else { continue }
            var rows: [[Piece]] = Array(repeating: [], count: tallest)
            var left = 0
            for (index, column) in columns.enumerated() {
                var row = 0
                for block in column {
                    for (lineIndex, line) in block.enumerated() {
                        rows[row].append(Piece(text: line, column: left, bold: lineIndex == 0))
                        row += 1
                    }
                    row += 1
                }
                left += widths[index] + 3
            }
            return (rows, total)
        }
        return ([], 0)
    }

    /// Sections in order, split into `count` columns of about equal height.
    private static func arrange(_ blocks: [[String]], into count: Int) -> [[[String]]] {
        let total = blocks.reduce(0) { $0 + $1.count + 1 }
        let target = (total + count - 1) / count
        var columns: [[[String]]] = [[]]
        var used = 0
        for block in blocks {
            if used > 0, used + block.count > target, columns.count < count {
                columns.append([])
                used = 0
            }
            columns[columns.count - 1].append(block)
            used += block.count + 1
        }
        return columns
    }
}

extension String {
    func padding(toLength length: Int) -> String {
        count >= length ? self + " " : self + String(repeating: " ", count: length - count)
    }
}
