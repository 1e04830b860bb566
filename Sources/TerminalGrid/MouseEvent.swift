/// A mouse report, in screen cells.
public struct MouseEvent: Sendable, Hashable {
    public enum Action: Sendable, Hashable {
        case press, drag, release, scrollUp, scrollDown
    }

    public var action: Action
    public var column: Int
    public var row: Int
    /// Where in its cell the pointer is, from 0 to 1 across and down, when the terminal reports pixels (mode 1016).
    public var withinCell: CellFraction?

    public struct CellFraction: Sendable, Hashable {
        public var x: Double
        public var y: Double

        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    public init(_ action: Action, column: Int, row: Int, withinCell: CellFraction? = nil) {
        self.action = action
        self.column = column
        self.row = row
        self.withinCell = withinCell
    }
}
