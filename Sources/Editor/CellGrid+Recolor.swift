import RedlineCore
import TerminalGrid

extension CellGrid {
    /// Black becomes white and white black; light grey (the paper of an eight-colour terminal, and antialiasing near
    /// paper on sixteen) becomes black, dark grey light grey; the colours keep their hue.
    static let turnedANSI: [UInt8] = [15, 1, 2, 3, 4, 5, 6, 0, 7, 9, 10, 11, 12, 13, 14, 0]

    /// Each cell's colours as `PageRecolor` turns a page's (palette colours by their xterm values, into the configured
    /// dark and light): the text view's paper, and a page's cells in the symbols modes, where chafa picks symbols best
    /// from the page as printed. `keepingPalette`: for cells made for eight or sixteen colours, the ANSI colours stay
    /// ANSI colours, which such a terminal shows better than the RGB colours it would fold them back from.
    public mutating func recolor(in rect: CellRect, _ recolor: PageRecolor, keepingPalette: Bool = false) {
        func turned(_ color: TerminalColor) -> TerminalColor {
            let rgb: (red: UInt8, green: UInt8, blue: UInt8)
            switch color {
            case .default: return color
            // The sixteen ANSI colours stay ANSI colours, the greys turned over and the hues kept: on an eight- or
            // sixteen-colour terminal an RGB colour would be folded back onto them less well.
            case .indexed(let index) where keepingPalette && index < 16: return .indexed(Self.turnedANSI[Int(index)])
            case .indexed(let index): rgb = XtermPalette.rgb(index)
            case .rgb(let red, let green, let blue): rgb = (red, green, blue)
            }
            let result = recolor.apply(red: rgb.red, green: rgb.green, blue: rgb.blue)
            return .rgb(red: result.red, green: result.green, blue: result.blue)
        }
        for row in max(0, rect.row)..<min(rows, rect.maxRow) {
            for column in max(0, rect.column)..<min(columns, rect.maxColumn) {
                var cell = self[column, row]
                cell.style.foreground = turned(cell.style.foreground)
                cell.style.background = turned(cell.style.background)
                self[column, row] = cell
            }
        }
    }
}
