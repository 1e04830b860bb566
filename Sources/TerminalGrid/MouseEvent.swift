/// A mouse report, in screen cells.
public struct MouseEvent: Sendable, Hashable {
    public enum Action: Sendable, Hashable {
        case press, drag, release, scrollUp, scrollDown
    }

    public var action: Action
    public var column: Int
    public var row: Int

    public init(_ action: Action, column: Int, row: Int) {
        self.action = action
        self.column = column
        self.row = row
    }
}
