import Dispatch
import Foundation
import TerminalGrid

/// What a long command is doing, on standard error when that is a terminal: nothing for a command that ends within
/// half a second; after that, one line (`redline: drawing the markup of page 3 (3 of 12)…`) rewritten in place as the
/// work moves on, and wiped before the command prints anything else. A pipe or a file never gets it.
/// `REDLINE_PROGRESS_AFTER` (seconds) changes the half second.
public final class TerminalProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var stage: String?
    private var shown = false
    private var finished = false
    private var lastDrawn: ContinuousClock.Instant?
    private let delay: Duration
    private let started = ContinuousClock.now
    private let timer: DispatchSourceTimer?

    /// Progress for this process's standard error (`environment` gives the delay).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let seconds = environment["REDLINE_PROGRESS_AFTER"].flatMap(Double.init).map { max(0, min($0, 3600)) } ?? 0.5
        delay = .milliseconds(Int(seconds * 1000))
        guard isatty(STDERR_FILENO) == 1 else {
            timer = nil
            return
        }
        // A stage that lasts long is shown when the half second is up, not only when the next one starts.
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        self.timer = timer
        timer.schedule(deadline: .now() + seconds, repeating: .milliseconds(250))
        timer.setEventHandler { [weak self] in self?.draw() }
        timer.resume()
    }

    deinit { timer?.cancel() }

    /// The work now under way, in a few words.
    public func say(_ text: String) {
        guard timer != nil else { return }
        let now = ContinuousClock.now
        // At most ten lines a second (a search says every page; over ssh each is a packet); the timer shows the last.
        let due = lock.withLock {
            stage = text
            return now - started >= delay && lastDrawn.map { now - $0 >= .milliseconds(100) } ?? true
        }
        if due { draw() }
    }

    /// The command is done: the line is wiped, so what it prints next starts at the margin.
    public func finish() {
        guard let timer else { return }
        timer.cancel()
        lock.withLock {
            finished = true
            if shown { Self.write("\r\u{1B}[K") }
            shown = false
        }
    }

    private func draw() {
        lock.withLock {
            guard !finished, let stage, ContinuousClock.now - started >= delay else { return }
            // Cut to the terminal's width: a wrapped line could not be rewritten in place.
            var size = winsize()
            let width = ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
            let text = VisibleText.line("redline: " + stage + "…", limit: max(10, width - 1))
            Self.write("\r\u{1B}[K" + text)
            shown = true
            lastDrawn = ContinuousClock.now
        }
    }

    private static func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = Foundation.write(STDERR_FILENO, &bytes, bytes.count)
    }
}
