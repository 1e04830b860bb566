import Foundation
import TestSupport
import Testing

/// The collaboration server as its users meet it: `redline serve` and `redline collab` from a fresh home, and the
/// protocol through a second client written in Python from docs/collaboration-protocol.md (Tests/Collab): rights,
/// versions, hostile frames, 500 connections and a flood, TLS, 20 clients converging through dropped connections,
/// a kill -9 mid-burst.
@Suite(.serialized) struct CollaborationServerTests {
    static var server: String {
        URL(fileURLWithPath: TestPaths.redline).deletingLastPathComponent().appendingPathComponent("redline-server").path
    }

    @Test func theServerAndBothClientsAgreeOnEveryRule() throws {
        let suite = TestPaths.packageRoot.appendingPathComponent("Tests/Collab/server_suite.py").path
        let result = try ProcessRunner.run(TestPaths.python, [
            suite, Self.server, "--clients", "20", "--changes", "100",
            "--redline", TestPaths.redline, "--fixture", TestPaths.fixture("pdfcpu_text_annotations.pdf"),
        ], timeLimit: 900)
        let failures = result.stdout.split(separator: "\n").filter { $0.hasPrefix("FAIL") }
        #expect(result.status == 0, "\(failures.joined(separator: "\n"))\n\(result.stderr.suffix(3000))")
        #expect(failures.isEmpty)
        for line in ["crowd: 500 connections", "tls: wss://", "interoperation with redline collab", "newcomer: redline serve",
                     "convergence: 20 clients",
                     "nothing acknowledged lost", "failures: 0"] {
            #expect(result.stdout.contains(line), "\(line) missing from:\n\(result.stdout)")
        }
    }

    /// The server process loads no terminal, PDF or picture library: it needs none and trusts none.
    @Test func theServerLinksNoTerminalOrRenderingLibrary() throws {
        let linked = try ProcessRunner.run("/usr/bin/ldd", [Self.server]).stdout
        #expect(linked.contains("libsqlite3"))
        for library in ["ncurses", "poppler", "qpdf", "chafa", "cairo", "glib"] {
            #expect(!linked.contains(library), "redline-server links \(library)")
        }
    }
}
