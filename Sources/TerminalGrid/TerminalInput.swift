
/// What reading the terminal can give.
public enum TerminalInput: Sendable, Equatable {
    case key(Key)
    case resized(columns: Int, rows: Int)
    case mouse(MouseEvent)
    /// Text the user pasted (bracketed paste), as it came: control characters and line breaks included.
    case paste(String)
    /// The terminal went away: the window was closed, the SSH connection dropped, SIGHUP or SIGTERM came.
    case hangup
    /// kitty said an image the editor placed is not in its store (evicted, or deleted by someone else): it must be
    /// sent again.
    case imageMissing(id: Int)
}
