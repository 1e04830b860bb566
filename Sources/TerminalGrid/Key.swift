/// A key as the editor sees it, whatever terminal sent it.
public enum Key: Sendable, Hashable {
    case character(Character)
    case up, down, left, right
    case shiftUp, shiftDown, shiftLeft, shiftRight
    case pageUp, pageDown, home, end
    case enter, escape, backspace, delete, tab, backTab
    /// Control plus a letter, lower case: Ctrl-R is `.control("r")`.
    case control(Character)
    /// The mouse's actions, as keymaps bind them: a press of the left button (what it acts on is where the
    /// pointer is), and the wheel. Drags and releases continue what the press started.
    case click, wheelUp, wheelDown
    /// A function key, F1 to F12.
    case function(Int)
}
