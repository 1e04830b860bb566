import Foundation
import TestSupport
import Testing

/// A long truecolor session uses more colour pairs than ncurses' table holds (65,536 on a direct-colour
/// terminal; Debian's ncurses then refuses new pairs, which showed every later colour as the terminal's
/// default): every cell must still show the colours it was drawn with.
@Suite struct ColourPairTests {
    @Test func moreColourPairsThanTheTableHoldsStillShowTheirOwnColours() throws {
        let columns = 80, rows = 24, frames = 40
        #expect(columns * rows * frames > 65_536)
        let tmux = try TmuxSession(command: "'\(TestPaths.screenCheck)' \(frames)", columns: columns, rows: rows,
                                   environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"])
        try tmux.waitFor("DONE", seconds: 60)
        let screen = ScreenColours(capture: try tmux.screenWithColours(), columns: columns)
        var wrong: [String] = []
        for row in 0..<rows {
            for column in 0..<columns {
                // The last frame's colour for this cell: 0x100000 + 1 + the cells drawn before + its index, as RGB.
                let number = 0x100000 + 1 + frames * columns * rows + row * columns + column
                let expected = ScreenColours.RGB(number >> 16 & 0xFF, number >> 8 & 0xFF, number & 0xFF)
                let shown = screen[column, row].background
                if shown != expected { wrong.append("\(column),\(row): \(shown) not \(expected)") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) cells in other colours, first \(wrong.prefix(3))")
        try tmux.send("q")
        try tmux.waitFor("REDLINE-EXIT=0")
    }
}
