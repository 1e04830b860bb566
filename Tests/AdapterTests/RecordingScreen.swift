import Foundation
import TerminalGrid

/// A terminal for the editor's loop without a terminal: input comes from a script, frames are recorded.
/// A script can wait until a frame shows some text (the loop goes on taking messages from work off the loop
/// meanwhile) and run an action at a point of its own.
final class RecordingScreen: TerminalScreen {
    enum Step {
        case keys([Key])
        case waitForFrame(containing: String)
        /// Waits for a frame (its lines) that passes a check; `label` names it if none comes.
        case waitForFrameWhere(String, ([String]) -> Bool)
        case run(() -> Void)
        /// Waits, the loop taking messages meanwhile, until a condition holds: an event awaited, never a time.
        case waitUntil(String, () -> Bool)
        /// Waits until a frame is drawn after this step is reached: the keys before it are on screen.
        case nextFrame
        case frameAfter(Int)
        /// What the terminal sends other than keys (a kitty reply), worked out from the frames so far.
        case input((RecordingScreen) -> [TerminalInput])
    }

    let size: (columns: Int, rows: Int)
    let colors = 256
    private(set) var frames: [[String]] = []
    private var script: [Step]
    private var pendingKeys: [TerminalInput] = []
    private let deadline = Date().addingTimeInterval(30)
    private(set) var timedOut: String?

    init(columns: Int = 100, rows: Int = 30, script: [Step]) {
        size = (columns, rows)
        self.script = script
    }

    /// The frames as cells, and the image escapes written after each (one entry a frame, empty when none).
    private(set) var grids: [CellGrid] = []
    private(set) var images: [String] = []
    private(set) var lastFrameWasFull = true
    private var invalidated = false

    func present(_ grid: CellGrid) {
        lastFrameWasFull = grids.isEmpty || invalidated
        invalidated = false
        frames.append(grid.lines)
        grids.append(grid)
        images.append("")
    }

    func writeImages(_ escapes: String) {
        images[images.count - 1] += escapes
    }

    func invalidate() { invalidated = true }

    /// Rows asked to be drawn again, frame by frame.
    private(set) var redrawnRows: [Range<Int>] = []
    func redraw(rows: Range<Int>) { redrawnRows.append(rows) }

    private(set) var copied: [String] = []
    func copyToClipboard(_ text: String) { copied.append(text) }

    func waitForInput(timeoutMilliseconds: Int32, wakeDescriptor: Int32) -> Bool {
        while pendingKeys.isEmpty, let step = script.first {
            switch step {
            case .keys(let keys):
                pendingKeys = keys.map(TerminalInput.key)
                script.removeFirst()
            case .input(let make):
                script.removeFirst()
                pendingKeys = make(self)
            case .run(let action):
                script.removeFirst()
                action()
            case .nextFrame:
                script[0] = .frameAfter(frames.count)
                return true
            case .frameAfter(let count):
                if frames.count > count {
                    script.removeFirst()
                    continue
                }
                guard Date() < deadline else {
                    timedOut = "a frame after frame \(count)"
                    script = [.keys([.character(":"), .character("q"), .character("!"), .enter])]
                    continue
                }
                var descriptor = pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&descriptor, 1, min(timeoutMilliseconds < 0 ? 100 : timeoutMilliseconds, 100))
                return false
            case .waitForFrame, .waitForFrameWhere, .waitUntil:
                let (text, passes): (String, ([String]) -> Bool) = switch step {
                case .waitForFrame(let text): (text, { lines in lines.contains { $0.contains(text) } })
                case .waitForFrameWhere(let label, let check): (label, check)
                case .waitUntil(let label, let condition): (label, { _ in condition() })
                default: ("", { _ in true })
                }
                if let last = frames.last, passes(last) {
                    script.removeFirst()
                    continue
                }
                guard Date() < deadline else {
                    timedOut = text + " (last frame ends: " + (frames.last?.suffix(2).joined(separator: " / ") ?? "") + ")"
                    script = [.keys([.character(":"), .character("q"), .character("!"), .enter])]
                    continue
                }
                // Nothing to type yet: sleep until the loop's inbox wakes, as the real terminal would.
                var descriptor = pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&descriptor, 1, min(timeoutMilliseconds < 0 ? 100 : timeoutMilliseconds, 100))
                return false
            }
        }
        return true
    }

    func read(timeoutMilliseconds: Int32) -> TerminalInput? {
        if !pendingKeys.isEmpty { return pendingKeys.removeFirst() }
        // The script is over without quitting: the terminal went away.
        return script.isEmpty && frames.count > 0 ? .hangup : nil
    }
}
