import Editor
import Foundation
import RedlineCore
import TerminalFrontEnd
import TestSupport
import Testing

/// Where reports go: the events file and callback commands, off the loop, with failures said once.
@Suite struct InteractionListenersTests {
    static func report(_ component: InteractionComponentName, _ outcome: InteractionReport.Outcome) throws -> InteractionReport {
        let json = """
            {"component":"\(component.rawValue)","outcome":"\(outcome.rawValue)","via":"s","time":"2026-11-23T10:00:00Z","page":2,
             "space":"display","point":{"cells":{"x":1,"y":2},"display":{"x":3,"y":4},"pdf":{"x":3,"y":788}}}
            """
        return try JSONDecoder().decode(InteractionReport.self, from: Data(json.utf8))
    }

    final class Said: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    @Test func everyReportIsALineAndACallbackGetsActivationsWithTheDefaultSignals() throws {
        let folder = TemporaryFolder()
        let events = folder.file("events.jsonl")
        let told = folder.file("told")
        let callback = folder.file("callback")
        // Its own signal mask, then what it was given on stdin. Python, not a shell: dash blocks signals of its
        // own while it waits for a command.
        try "#!\(TestPaths.python)\nimport sys\nstatus = open('/proc/self/status').read()\n"
            .appending("blocked = [line for line in status.splitlines() if line.startswith('SigBlk')]\n")
            .appending("open('\(told)', 'a').write(blocked[0] + '\\n' + sys.stdin.read())\n")
            .write(toFile: callback, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: callback)
        // The editor's threads block signals, as ncurses and the hangup handling make them.
        var blocked = sigset_t()
        sigfillset(&blocked)
        var before = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &before)
        defer { pthread_sigmask(SIG_SETMASK, &before, nil) }
        let listeners = try InteractionListeners(eventsPath: events, callbacks: [.smartZoom: [callback]])
        listeners.report(try Self.report(.smartZoom, .activated))
        listeners.report(try Self.report(.smartZoom, .refused))
        listeners.report(try Self.report(.selectText, .activated))
        listeners.flush()
        let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3 && lines[0].contains("\"component\":\"smartZoom\"") && lines[1].contains("\"outcome\":\"refused\""))
        for _ in 0..<50 where !((try? String(contentsOfFile: told, encoding: .utf8)) ?? "").contains("component") {
            Thread.sleep(forTimeInterval: 0.1)
        }
        let callbackSaw = try String(contentsOfFile: told, encoding: .utf8)
        #expect(callbackSaw.contains("SigBlk:\t0000000000000000"), "no signal blocked in the child: \(callbackSaw)")
        #expect(callbackSaw.components(separatedBy: "\"component\":\"smartZoom\"").count == 2, "only the activation: \(callbackSaw)")
    }

    @Test func aCallbackThatCannotStartAndAFullDiskAreEachSaidOnce() throws {
        let said = Said()
        let missing = try InteractionListeners(eventsPath: nil, callbacks: [.smartZoom: ["redline-no-such-program"]])
        missing.failed = { said.add($0) }
        missing.report(try Self.report(.smartZoom, .activated))
        missing.report(try Self.report(.smartZoom, .activated))
        missing.flush()
        #expect(said.all == ["The callback command redline-no-such-program could not run: No such file or directory"], "\(said.all)")

        // A regular file that opens for writing and refuses every write, as a full disk does.
        let full = Said()
        #expect(throws: (any Error).self) { try InteractionListeners(eventsPath: "/dev/full", callbacks: [:]) }
        // /proc/version opens for writing as root only: elsewhere the open itself is refused, as tested above.
        guard let diskFull = try? InteractionListeners(eventsPath: "/proc/version", callbacks: [:]) else { return }
        diskFull.failed = { full.add($0) }
        diskFull.report(try Self.report(.fastScroll, .activated))
        diskFull.report(try Self.report(.fastScroll, .activated))
        diskFull.flush()
        #expect(full.all.count == 1 && full.all[0].hasPrefix("Could not write the events file: ") && !full.all[0].contains("NSCocoa"), "\(full.all)")
    }
}
