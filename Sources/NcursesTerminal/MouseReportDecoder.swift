import TerminalGrid

/// Decodes the terminal's mouse reports into editor events. Redline asks for SGR reports (mode 1006:
/// `ESC [ < b ; x ; y M`, or `m` on release), which carry any column, whatever the terminfo entry says;
/// the older X10 form (`ESC [ M` and three bytes, capped at column 223) is decoded too, for terminals
/// that ignore 1006. ncurses only recognises the prefix; the rest is read and decoded here, so that no
/// part of a report ever arrives as keys.
public struct MouseReportDecoder: Sendable {
    private var buttonDown = false
    /// Set when the terminal reports pixels (mode 1016): the cell size that turns them into cells.
    public var pixelCell: TerminalReplies.PixelSize?

    public init(pixelCell: TerminalReplies.PixelSize? = nil) {
        self.pixelCell = pixelCell
    }

    /// What follows `ESC [ <`, up to and including the final `M` or `m`.
    public mutating func decodeSGR(_ body: String) -> MouseEvent? {
        guard let final = body.last, final == "M" || final == "m" else { return nil }
        let fields = body.dropLast().split(separator: ";", omittingEmptySubsequences: false)
        guard fields.count == 3, let code = Int(fields[0]), let x = Int(fields[1]), let y = Int(fields[2]),
              (0...4095).contains(code), x >= 1, y >= 1 else { return nil }
        guard let cell = pixelCell else { return event(code: code, released: final == "m", column: x - 1, row: y - 1) }
        // Pixels count from 1 too; the pixel's middle says where in its cell the pointer is.
        let pixelX = x - 1, pixelY = y - 1
        var decoded = event(code: code, released: final == "m", column: pixelX / cell.width, row: pixelY / cell.height)
        decoded?.withinCell = MouseEvent.CellFraction(x: (Double(pixelX % cell.width) + 0.5) / Double(cell.width),
                                                      y: (Double(pixelY % cell.height) + 0.5) / Double(cell.height))
        return decoded
    }

    /// The three bytes after `ESC [ M`: button, column and row, each offset by 32.
    public mutating func decodeX10(_ bytes: [UInt32]) -> MouseEvent? {
        guard bytes.count == 3, bytes.allSatisfy({ $0 >= 32 }) else { return nil }
        let code = Int(bytes[0]) - 32
        // X10 says "released" without saying which button.
        let released = code & 3 == 3 && code & 64 == 0
        return event(code: released ? 0 : code, released: released, column: Int(bytes[1]) - 33, row: Int(bytes[2]) - 33)
    }

    private mutating func event(code: Int, released: Bool, column: Int, row: Int) -> MouseEvent? {
        guard column >= 0, row >= 0 else { return nil }
        // Bits 4, 8 and 16 are Shift, Meta and Control: the editor does not tell them apart.
        let button = code & ~(4 | 8 | 16)
        switch button {
        case 64: return MouseEvent(.scrollUp, column: column, row: row)
        case 65: return MouseEvent(.scrollDown, column: column, row: row)
        case 0 where released:
            buttonDown = false
            return MouseEvent(.release, column: column, row: row)
        case 0:
            buttonDown = true
            return MouseEvent(.press, column: column, row: row)
        case 32 where buttonDown:
            return MouseEvent(.drag, column: column, row: row)
        default:
            return nil
        }
    }
}
