/// kitty's Unicode placeholders: a cell holding U+10EEEE shows a piece of an image with a virtual placement. The
/// foreground colour names the image; two combining marks name the piece's row and column. They are ordinary
/// cells, so tmux moves, clips and redraws them like text, and ncurses draws them like any other.
public enum KittyPlaceholders {
    public static let placeholder: Unicode.Scalar = "\u{10EEEE}"

    /// The first entries of kitty's row and column marks (rowcolumn-diacritics.txt): mark `i` stands for `i`.
    /// A tile is never more cells across or down than there are marks.
    public static let marks: [UInt32] = [
        0x0305, 0x030D, 0x030E, 0x0310, 0x0312, 0x033D, 0x033E, 0x033F, 0x0346, 0x034A, 0x034B, 0x034C, 0x0350, 0x0351,
        0x0352, 0x0357, 0x035B, 0x0363, 0x0364, 0x0365, 0x0366, 0x0367, 0x0368, 0x0369, 0x036A, 0x036B, 0x036C, 0x036D,
        0x036E, 0x036F, 0x0483, 0x0484, 0x0485, 0x0486, 0x0487, 0x0592, 0x0593, 0x0594, 0x0595, 0x0597, 0x0598, 0x0599,
        0x059C, 0x059D, 0x059E, 0x059F, 0x05A0, 0x05A1, 0x05A8, 0x05A9, 0x05AB, 0x05AC, 0x05AF, 0x05C4, 0x0610, 0x0611,
        0x0612, 0x0613, 0x0614, 0x0615, 0x0616, 0x0617, 0x0657, 0x0658,
    ]

    /// Image ids a placeholder can name in every colour depth: a palette index is the id itself.
    public static let largestImageID = 255

    /// The cell showing row `row`, column `column` of image `id`, for a terminal of `colors` colours.
    public static func cell(image id: Int, row: Int, column: Int, colors: Int) -> Cell {
        var scalars = String.UnicodeScalarView()
        scalars.append(placeholder)
        scalars.append(Unicode.Scalar(marks[row])!)
        scalars.append(Unicode.Scalar(marks[column])!)
        let foreground: TerminalColor = colors >= 0x1000000
            ? .rgb(red: UInt8(id >> 16 & 0xFF), green: UInt8(id >> 8 & 0xFF), blue: UInt8(id & 0xFF))
            : .indexed(UInt8(id & 0xFF))
        return Cell(Character(String(scalars)), style: CellStyle(foreground: foreground, background: .default))
    }
}
