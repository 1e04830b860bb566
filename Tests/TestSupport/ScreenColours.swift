import Foundation

/// A terminal screen as a user sees it: each cell's character and the RGB colours it shows, decoded from
/// `tmux capture-pane -e` (SGR sequences in 16, 256 and 24-bit colour, reverse video). Independent of
/// Redline's own colour code, so a test can judge what reaches the terminal.
public struct ScreenColours: Sendable {
    public struct RGB: Sendable, Hashable, CustomStringConvertible {
        public var red: Int, green: Int, blue: Int
        public init(_ red: Int, _ green: Int, _ blue: Int) { (self.red, self.green, self.blue) = (red, green, blue) }

        /// WCAG 2 relative luminance.
        public var luminance: Double {
            func channel(_ value: Int) -> Double {
                let c = Double(value) / 255
                return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)
        }

        /// WCAG 2 contrast ratio, 1 to 21.
        public func contrast(with other: RGB) -> Double {
            let (a, b) = (luminance, other.luminance)
            return (max(a, b) + 0.05) / (min(a, b) + 0.05)
        }

        public var saturation: Int { max(red, green, blue) - min(red, green, blue) }
        public var description: String { "rgb(\(red),\(green),\(blue))" }
    }

    public struct Cell: Sendable {
        public var character: Character
        public var foreground: RGB
        public var background: RGB
        public var bold: Bool
        /// Not in the capture: tmux leaves out cells that an erase (EL) cleared at a line's end, whatever their
        /// background, so their colour here is a guess.
        public var guessed = false
    }

    /// What tmux shows for the default colours in its screenshots, and what these tests assume of a theme.
    public static let defaultForeground = RGB(229, 229, 229)
    public static let defaultBackground = RGB(0, 0, 0)

    public let rows: [[Cell]]

    public subscript(column: Int, row: Int) -> Cell { rows[row][column] }

    public init(capture: String, columns: Int) {
        var foreground: RGB? = nil, background: RGB? = nil, reverse = false, bold = false
        var decoded: [[Cell]] = []
        for line in capture.split(separator: "\n", omittingEmptySubsequences: false) {
            var cells: [Cell] = []
            var scalars = Array(line.unicodeScalars)[...]
            while let scalar = scalars.first {
                scalars = scalars.dropFirst()
                if scalar == "\u{1B}" {
                    guard scalars.first == "[" else { scalars = scalars.dropFirst(); continue }
                    var parameters = ""
                    scalars = scalars.dropFirst()
                    while let next = scalars.first, !(0x40...0x7E).contains(next.value) {
                        parameters.unicodeScalars.append(next)
                        scalars = scalars.dropFirst()
                    }
                    let final = scalars.first
                    scalars = scalars.dropFirst()
                    guard final == "m" else { continue }
                    Self.apply(parameters, &foreground, &background, &reverse, &bold)
                    continue
                }
                var fg = foreground ?? Self.defaultForeground, bg = background ?? Self.defaultBackground
                if reverse { swap(&fg, &bg) }
                cells.append(Cell(character: Character(scalar), foreground: fg, background: bg, bold: bold))
            }
            let blank = Cell(character: " ", foreground: Self.defaultForeground,
                             background: reverse ? Self.defaultForeground : (background ?? Self.defaultBackground), bold: false,
                             guessed: true)
            while cells.count < columns { cells.append(blank) }
            decoded.append(Array(cells.prefix(columns)))
        }
        rows = decoded
    }

    private static func apply(_ text: String, _ foreground: inout RGB?, _ background: inout RGB?, _ reverse: inout Bool,
                              _ bold: inout Bool) {
        // Parameters are `;`-separated; a colour's own sub-parameters may use `:` (and an empty colour space).
        let groups = text.isEmpty ? [""] : text.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        var index = 0
        func number(_ s: Substring) -> Int { Int(s) ?? 0 }
        while index < groups.count {
            let group = groups[index]
            if group.contains(":") {
                let parts = group.split(separator: ":", omittingEmptySubsequences: false)
                let target = number(parts[0])
                var color: RGB?
                if parts.count >= 3, number(parts[1]) == 5 { color = palette(number(parts[2])) }
                if parts.count >= 5, number(parts[1]) == 2 {
                    let rgb = parts.suffix(3).map(number)
                    color = RGB(rgb[0], rgb[1], rgb[2])
                }
                if target == 38 { foreground = color } else if target == 48 { background = color }
                index += 1
                continue
            }
            let code = Int(group) ?? 0
            switch code {
            case 0: foreground = nil; background = nil; reverse = false; bold = false
            case 1: bold = true
            case 22: bold = false
            case 7: reverse = true
            case 27: reverse = false
            case 30...37: foreground = palette(code - 30)
            case 90...97: foreground = palette(code - 90 + 8)
            case 39: foreground = nil
            case 40...47: background = palette(code - 40)
            case 100...107: background = palette(code - 100 + 8)
            case 49: background = nil
            case 38, 48:
                var color: RGB?
                if index + 2 < groups.count, groups[index + 1] == "5" {
                    color = palette(Int(groups[index + 2]) ?? 0)
                    index += 2
                } else if index + 4 < groups.count, groups[index + 1] == "2" {
                    color = RGB(Int(groups[index + 2]) ?? 0, Int(groups[index + 3]) ?? 0, Int(groups[index + 4]) ?? 0)
                    index += 4
                }
                if code == 38 { foreground = color } else { background = color }
            default: break
            }
            index += 1
        }
    }

    /// xterm's colours for palette numbers, as tmux's screenshots draw them.
    public static func palette(_ index: Int) -> RGB {
        let first16 = [RGB(0, 0, 0), RGB(205, 0, 0), RGB(0, 205, 0), RGB(205, 205, 0), RGB(0, 0, 238), RGB(205, 0, 205),
                       RGB(0, 205, 205), RGB(229, 229, 229), RGB(127, 127, 127), RGB(255, 0, 0), RGB(0, 255, 0),
                       RGB(255, 255, 0), RGB(92, 92, 255), RGB(255, 0, 255), RGB(0, 255, 255), RGB(255, 255, 255)]
        if index < 16 { return first16[max(0, index)] }
        if index < 232 {
            let levels = [0, 95, 135, 175, 215, 255], cube = index - 16
            return RGB(levels[cube / 36], levels[cube / 6 % 6], levels[cube % 6])
        }
        let grey = 8 + (index - 232) * 10
        return RGB(grey, grey, grey)
    }

    /// The colour a cell shows most of: its background, or for a drawn block its darker colour (the ink).
    public func ink(_ column: Int, _ row: Int) -> RGB {
        let cell = self[column, row]
        guard cell.character != " " else { return cell.background }
        return cell.foreground.luminance < cell.background.luminance ? cell.foreground : cell.background
    }

    /// Text Redline writes itself: letters and digits (page pictures are made of block and line symbols only).
    public func textCells(rows range: Range<Int>? = nil) -> [(column: Int, row: Int, cell: Cell)] {
        var found: [(Int, Int, Cell)] = []
        for (row, cells) in rows.enumerated() where range?.contains(row) ?? true {
            for (column, cell) in cells.enumerated() where cell.character.isLetter || cell.character.isNumber {
                found.append((column, row, cell))
            }
        }
        return found
    }
}
