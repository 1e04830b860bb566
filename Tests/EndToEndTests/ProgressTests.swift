import Foundation
import Testing
import TestSupport

/// A long command says what it is doing on standard error when that is a terminal (run here under `script`, which
/// gives it one), wipes the line before printing its result, and says nothing on a pipe or before its delay.
@Suite struct ProgressTests {
    static let markup = #"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 40, "y": 60, "text": "Progress", "size": 14}]}"#

    /// `command` run with a terminal for its output and errors (both come back together, as a terminal shows them).
    func inTerminal(_ command: [String], after delay: String) throws -> ProcessResult {
        let line = command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        var environment = ProcessInfo.processInfo.environment
        environment["REDLINE_PROGRESS_AFTER"] = delay
        return try ProcessRunner.run("script", ["-qec", line, "/dev/null"], environment: environment)
    }

    @Test func applyAndSearchSayWhatTheyDoOnATerminalAndWipeIt() throws {
        let folder = TemporaryFolder()
        let markup = folder.file("markup.json"), output = folder.file("out.pdf")
        try Self.markup.write(toFile: markup, atomically: true, encoding: .utf8)
        let applied = try inTerminal([TestPaths.redline, "apply", TestPaths.sample, "--markup", markup, "--output", output], after: "0")
        #expect(applied.status == 0, "\(applied.stdout)")
        // The first stage is shown at once (later ones at most ten times a second: a quick save shows few).
        #expect(applied.stdout.hasPrefix("\r\u{1B}[Kredline: reading \(TestPaths.sample)…"), "\(applied.stdout.debugDescription)")
        // The result comes after the line was wiped, at the margin.
        #expect(applied.stdout.contains("\r\u{1B}[K\(output): appended to the original"), "\(applied.stdout.debugDescription)")
        let searched = try inTerminal([TestPaths.redline, "search", TestPaths.sample, "the"], after: "0")
        #expect(searched.stdout.contains("redline: searching page 1 of "), "\(searched.stdout.debugDescription)")

        // Before its delay a command says nothing of its progress; on a pipe it never does.
        let quick = try inTerminal([TestPaths.redline, "apply", TestPaths.sample, "--markup", markup, "--output", output], after: "3600")
        #expect(quick.status == 0 && !quick.stdout.contains("…") && !quick.stdout.contains("\u{1B}[K"), "\(quick.stdout.debugDescription)")
        var environment = ProcessInfo.processInfo.environment
        environment["REDLINE_PROGRESS_AFTER"] = "0"
        let piped = try ProcessRunner.run(TestPaths.redline, ["apply", TestPaths.sample, "--markup", markup, "--output", output],
                                          environment: environment)
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderr.debugDescription)")
    }
}
