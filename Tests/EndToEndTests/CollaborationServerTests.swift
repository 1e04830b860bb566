import Foundation
import TestSupport
import Testing

/// The collaboration server as its users meet it: `redline serve` and `redline collab` from a fresh home, and the
/// protocol through a second client written in Python from docs/collaboration-protocol.md (Tests/Collab): rights,
/// organisations' JWTs,
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
        for line in ["crowd: 500 connections", "tls: wss://", "jwt: an organisation's tokens", "interoperation with redline collab: share, watch, pull, get, 600 annotations", "newcomer: redline serve",
                     "pipelined: changes answered in the order sent",
                     "joining: the welcome's head is the set's, answers come after the set",
                     "shared PDFs: streamed in parts, four at once in bounded memory, failed uploads keep the old one",
                     "storm: 25 joiners of a 30 MB document share one read of it",
                     "shutdown: a client that stopped reading does not hold SIGTERM",
                     "retention: --keep-events honoured, a client behind it gets the whole set",
                     "convergence: 20 clients",
                     "nothing acknowledged lost", "failures: 0"] {
            #expect(result.stdout.contains(line), "\(line) missing from:\n\(result.stdout)")
        }
    }

    /// Three instances on one PostgreSQL database, each client on its own instance: every rule, hostile frames,
    /// 20 clients converging, a kill -9 of one instance, and every commit announced to every instance through
    /// LISTEN/NOTIFY, on a `ThrowawayPostgres` cluster.
    @Test func threeInstancesOnOnePostgreSQLAgreeOnEveryRule() throws {
        let collab = TestPaths.packageRoot.appendingPathComponent("Tests/Collab")
        let cluster = try ThrowawayPostgres()
        defer { withExtendedLifetime(cluster) {} }
        let url = cluster.url
        let result = try ProcessRunner.run(TestPaths.python, [
            collab.appendingPathComponent("server_suite.py").path, Self.server, "--postgres", url, "--only-postgres",
            "--clients", "20", "--changes", "100", "--redline", TestPaths.redline,
        ], timeLimit: 900)
        let failures = result.stdout.split(separator: "\n").filter { $0.hasPrefix("FAIL") }
        #expect(result.status == 0, "\(failures.joined(separator: "\n"))\n\(result.stderr.suffix(3000))")
        #expect(failures.isEmpty)
        for line in ["postgres rights: three instances", "postgres convergence: 3 instances, 20 clients",
                     "postgres pipelined: changes answered in the order sent",
                     "postgres joining: the welcome's head is the set's, answers come after the set",
                     "postgres races: one change at two instances at once, decided once",
                     "postgres shared PDFs: streamed in parts, four at once in bounded memory, failed uploads keep the old one",
                     "postgres backends killed mid-burst: every change answered, every document goes on",
                     "postgres: 600 annotations shared at once",
                     "postgres kill -9 of one instance mid-burst", "failures: 0"] {
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
