import Foundation
import Glibc
import NcursesTerminal
import TerminalGrid
import TestSupport
import Testing

/// The probe on a pseudo-terminal, with a scripted terminal on the other side: what it asks, what it reads, and
/// that a terminal answering nothing costs only the wait.
@Suite(.serialized) struct TerminalProbeTests {
    /// A pseudo-terminal whose far side answers the probe's last question (DA1) with `answer`, or never.
    final class ScriptedTerminal: @unchecked Sendable {
        let controller: Int32
        let device: Int32
        private(set) var asked: [UInt8] = []
        private let done = DispatchSemaphore(value: 0)

        init(answer: String?) throws {
            // posix_openpt and its friends are not in Swift's Glibc module: /dev/ptmx and the two ioctls they use.
            controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
            var unlock: Int32 = 0, number: UInt32 = 0
            let setLock: UInt = 0x4004_5431, getNumber: UInt = 0x8004_5430  // TIOCSPTLCK, TIOCGPTN
            guard controller >= 0, ioctl(controller, setLock, &unlock) == 0, ioctl(controller, getNumber, &number) == 0 else {
                throw POSIXError(.ENODEV)
            }
            device = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
            guard device >= 0 else { throw POSIXError(.ENODEV) }
            Thread.detachNewThread { [self] in
                var buffer = [UInt8](repeating: 0, count: 4096)
                // Reads the questions until the last one, then answers (or stays silent).
                while !String(decoding: asked, as: UTF8.self).hasSuffix("\u{1B}[c") {
                    let count = read(controller, &buffer, buffer.count)
                    guard count > 0 else { break }
                    asked += buffer[0..<count]
                }
                if let answer { _ = Array(answer.utf8).withUnsafeBytes { write(controller, $0.baseAddress, $0.count) } }
                done.signal()
            }
        }

        func finish() {
            _ = done.wait(timeout: .now() + 2)
            close(device)
            close(controller)
        }
    }

    @Test(arguments: ["kitty", "ghostty", "wezterm", "foot", "xterm", "tmux"])
    func theProbeReadsEachTerminalsAnswers(terminal: String) throws {
        let scripted = try ScriptedTerminal(answer: ScriptedTerminalAnswers.answers[terminal])
        let finding = TerminalProbe.run(input: scripted.device, output: scripted.device, environment: ["TERM": "xterm-256color"],
                                        timeoutMilliseconds: 2000)
        scripted.finish()
        var expected = TerminalReplies()
        expected.absorb(Array(ScriptedTerminalAnswers.answers[terminal]!.utf8))
        #expect(finding.replies == expected)
        #expect(finding.replies.isComplete, "the probe stopped at DA1, before its time ran out")
        let asked = String(decoding: scripted.asked, as: UTF8.self)
        #expect(asked.hasPrefix("\u{1B}_Gi=31,"), "kitty's question first")
        #expect(asked.contains("a=q,t=s,f=24;"), "and the shared-memory one")
        #expect(!FileManager.default.fileExists(atPath: "/dev/shm/redline-probe-\(getpid())"), "the shared memory is removed")
    }

    @Test func insideTmuxWithPassthroughTheKittyQuestionsAreWrapped() throws {
        let scripted = try ScriptedTerminal(answer: ScriptedTerminalAnswers.answers["tmux"])
        let finding = TerminalProbe.run(input: scripted.device, output: scripted.device,
                                        environment: ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"],
                                        timeoutMilliseconds: 2000, tmuxPassthrough: "on")
        scripted.finish()
        #expect(String(decoding: scripted.asked, as: UTF8.self).hasPrefix("\u{1B}Ptmux;\u{1B}\u{1B}_G"))
        #expect(finding.report.contains("allow-passthrough on\n"))
        let without = try ScriptedTerminal(answer: ScriptedTerminalAnswers.answers["tmux"])
        let off = TerminalProbe.run(input: without.device, output: without.device,
                                    environment: ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"],
                                    timeoutMilliseconds: 2000, tmuxPassthrough: "off")
        without.finish()
        #expect(String(decoding: without.asked, as: UTF8.self).hasPrefix("\u{1B}_Gi=31"), "not wrapped: tmux drops it")
        #expect(off.report.contains("allow-passthrough off: images cannot reach the terminal around tmux"))
    }

    @Test func aTerminalThatAnswersNothingCostsOnlyTheWait() throws {
        let scripted = try ScriptedTerminal(answer: nil)
        let finding = TerminalProbe.run(input: scripted.device, output: scripted.device, environment: ["TERM": "vt100"],
                                        timeoutMilliseconds: 100)
        scripted.finish()
        #expect(!finding.replies.isComplete)
        #expect(finding.milliseconds >= 100 && finding.milliseconds < 1000, "\(finding.milliseconds) ms")
        #expect(finding.report.contains("nothing within"))
        #expect(finding.report.contains("kitty graphics  no answer"))
    }
}
