import Editor
import Foundation
import RedlineKit
import TerminalGrid

/// Where activations and refusals go besides the screen: `--events FILE` gets every one as a JSON line, and a
/// component's callback command (config.toml) gets each activation as a JSON line on its standard input. All
/// of it on a queue of its own: the editor's loop never waits for a disk or a command.
public final class InteractionListeners: @unchecked Sendable {
    private let queue = DispatchQueue(label: "redline.interaction-listeners")
    private let events: FileHandle?
    private let callbacks: [InteractionComponentName: [String]]
    /// Where a failure is said: set by the session before the first report.
    public var failed: (@Sendable (String) -> Void)?
    /// Said once: a full disk would otherwise say it for every click.
    private var toldFailure = false
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Opens (creating, appending to) the events file; throws a message naming it when it cannot.
    public init(eventsPath: String?, callbacks: [InteractionComponentName: [String]]) throws {
        self.callbacks = callbacks
        guard let eventsPath else {
            events = nil
            return
        }
        // A FIFO would hold the editor on a blank screen until something reads it: anything but a regular file is
        // refused before it is opened, and the open itself does not wait (a FIFO put there meanwhile fails at once).
        var existing = stat()
        if stat(eventsPath, &existing) == 0, existing.st_mode & S_IFMT != S_IFREG {
            throw EditorLauncher.LaunchError(description: "\(eventsPath): --events needs a regular file", exitCode: 1)
        }
        let descriptor = open(eventsPath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0o644)
        guard descriptor >= 0 else {
            throw EditorLauncher.LaunchError(description: "\(eventsPath): cannot be opened for the events (\(String(cString: strerror(errno))))",
                                             exitCode: 1)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw EditorLauncher.LaunchError(description: "\(eventsPath): --events needs a regular file", exitCode: 1)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        events = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    public var isListening: Bool { events != nil || !callbacks.isEmpty }

    public func report(_ report: InteractionReport) {
        guard var line = try? encoder.encode(report) else { return }
        line.append(0x0A)
        let payload = line
        let command = report.outcome == .activated ? callbacks[report.component] : nil
        queue.async { [self] in
            if let events { write(payload, to: events) }
            if let command { run(command, input: payload) }
        }
    }

    /// Waits for what is queued: the events of the last keys are on disk when the editor quits.
    public func flush() {
        queue.sync {}
    }

    private func write(_ line: Data, to handle: FileHandle) {
        do {
            try DescriptorWriter.writeAll(line, to: handle.fileDescriptor)
        } catch {
            sayOnce("Could not write the events file: \(error)")
        }
    }

    /// Runs the command with the line on its standard input; never waited for.
    private func run(_ command: [String], input: Data) {
        do {
            try DetachedCommand.start(command, input: input)
        } catch {
            sayOnce("The callback command \(VisibleText.line(command[0], limit: 80)) could not run: \(error)")
        }
    }

    private func sayOnce(_ message: String) {
        guard !toldFailure else { return }
        toldFailure = true
        failed?(message)
    }
}
