/// A terminal as the editor's loop sees it: frames go out as cell grids, input comes in as values. ncurses
/// implements it for the real terminal; tests implement it with scripted input and recorded frames.
public protocol TerminalScreen: AnyObject {
    var size: (columns: Int, rows: Int) { get }
    /// How many colours cells may use (256, 16 777 216, …).
    var colors: Int { get }
    /// Shows the grid, writing only what changed since the last frame.
    func present(_ grid: CellGrid)
    /// Blocks until input may be ready (true), `wakeDescriptor` is readable or the timeout passed (false).
    /// -1 waits for ever. A signal (a resize, a hang-up) also ends the wait with true: the read reports it.
    func waitForInput(timeoutMilliseconds: Int32, wakeDescriptor: Int32) -> Bool
    /// The next input, waiting up to `timeoutMilliseconds` (0: only what is already there).
    func read(timeoutMilliseconds: Int32) -> TerminalInput?
    /// Forgets what is on screen, so the next frame redraws every cell.
    func invalidate()
    /// Writes a graphics protocol's escapes (images) straight to the terminal, after the frame: they change no
    /// cell, so what the screen knows of its cells stays true.
    func writeImages(_ escapes: String)
    /// Whether the last frame cleared the terminal first (the first frame, a resize, a redraw): images on it are
    /// gone then.
    var lastFrameWasFull: Bool { get }
    /// Draws rows again whatever the screen believes they show: an image reached into them.
    func redraw(rows: Range<Int>)
    /// Puts text on the clipboard of the terminal the user sits at (OSC 52), however far away it is.
    func copyToClipboard(_ text: String)
}
