/// One terminal cell: a single-width character and how it looks.
public struct Cell: Sendable, Hashable {
    public var character: Character
    public var style: CellStyle

    public init(_ character: Character = " ", style: CellStyle = .plain) {
        self.character = character
        self.style = style
    }

    public static let blank = Cell()
}
