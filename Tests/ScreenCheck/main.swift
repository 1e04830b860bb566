import Foundation
import NcursesTerminal
import TerminalGrid

/// Draws frame after frame through the real `NcursesScreen`, every cell in a colour no earlier cell had, until
/// more colour pairs were used than the terminal's table holds; then draws one more frame in colours not
/// used before, with DONE in the top-left corner, and waits for a key. A test compares the colours the terminal shows.
///
///     redline-screen-check FRAMES
let frames = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 40 : 40
let screen = try NcursesScreen()
let (columns, rows) = screen.size

/// Colour number `n`, as RGB 0x100000 + n: every number a different colour, none of them below 8, which
/// direct-colour terminfo entries send as palette colours.
func colour(_ number: Int) -> TerminalColor {
    let value = 0x100000 + number
    return .rgb(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
}

func frame(startingAt first: Int, text: String = "") -> CellGrid {
    var grid = CellGrid(columns: columns, rows: rows)
    let characters = Array(text)
    for row in 0..<rows {
        for column in 0..<columns {
            let index = row * columns + column
            let character = row == 0 && column < characters.count ? characters[column] : "x"
            grid[column, row] = Cell(character, style: CellStyle(foreground: .rgb(red: 255, green: 255, blue: 255),
                                                               background: colour(first + index)))
        }
    }
    return grid
}

for number in 0..<frames {
    screen.present(frame(startingAt: 1 + number * columns * rows))
}
screen.present(frame(startingAt: 1 + frames * columns * rows, text: "DONE"))
while screen.read(timeoutMilliseconds: -1) == nil {}
screen.stop()
