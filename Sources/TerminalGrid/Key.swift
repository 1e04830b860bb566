/// A key as the editor sees it, whatever terminal sent it.
public enum Key: Sendable, Hashable {
    case character(Character)
    case up, down, left, right
    case shiftUp, shiftDown, shiftLeft, shiftRight
    case pageUp, pageDown, home, end
    case enter, escape, backspace, delete, tab, backTab
    /// Control plus a letter, lower case: Ctrl-R is `.control("r")`.
    case control(Character)
}
