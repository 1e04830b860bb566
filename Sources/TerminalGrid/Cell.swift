/// One terminal cell: a character and how it looks. A wide character takes its cell and a `wideTail` after it.
public struct Cell: Sendable, Hashable {
    public var character: Character
    public var style: CellStyle

    public init(_ character: Character = " ", style: CellStyle = .plain) {
        self.character = character
        self.style = style
    }

    public static let blank = Cell()

    /// The right half of a wide character written into the cell before it: terminals draw nothing here.
    public static let wideTail = Cell("\u{0}")

    public var isWideTail: Bool { character == "\u{0}" }
}
