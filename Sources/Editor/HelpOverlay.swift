import TerminalGrid

/// The `?` overlay: every key, centred over the page area.
enum HelpOverlay {
    static func draw(_ grid: inout CellGrid, in area: CellRect) {
        var lines: [String] = ["Redline keys", ""]
        for section in KeyBindings.sections {
            lines.append(section.title)
            for binding in section.keys {
                lines.append("  " + binding.keys.padding(toLength: 24) + binding.action)
            }
            lines.append("")
        }
        let width = min(area.width, (lines.map(\.count).max() ?? 0) + 4)
        let height = min(area.height, lines.count + 2)
        let box = CellRect(column: area.column + (area.width - width) / 2, row: area.row + (area.height - height) / 2,
                           width: width, height: height)
        let style = CellStyle(foreground: .black, background: .white)
        grid.fill(box, with: Cell(" ", style: style))
        for (index, line) in lines.prefix(height - 2).enumerated() {
            let lineStyle = index == 0 ? CellStyle(foreground: .black, background: .white, bold: true) : style
            grid.write(line, column: box.column + 2, row: box.row + 1 + index, style: lineStyle, limit: width - 3)
        }
    }
}

extension String {
    func padding(toLength length: Int) -> String {
        count >= length ? self + " " : self + String(repeating: " ", count: length - count)
    }
}
