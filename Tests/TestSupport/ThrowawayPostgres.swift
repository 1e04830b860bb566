import Foundation

/// A PostgreSQL cluster for a test: `REDLINE_TEST_POSTGRES` when set, else a throwaway one on loopback made with
/// Tests/Collab/postgres_cluster.py (`make test` installs Debian's postgresql), stopped when the value goes away.
public final class ThrowawayPostgres: @unchecked Sendable {
    /// The cluster's postgres:// URL.
    public let url: String
    private let folder: URL?
    private static var script: String { TestPaths.packageRoot.appendingPathComponent("Tests/Collab/postgres_cluster.py").path }

    public init() throws {
        let given = ProcessInfo.processInfo.environment["REDLINE_TEST_POSTGRES"] ?? ""
        guard given.isEmpty else {
            url = given
            folder = nil
            return
        }
        let made = FileManager.default.temporaryDirectory.appendingPathComponent("redline-pg-\(UUID().uuidString.prefix(8))")
        let started = try ProcessRunner.run(TestPaths.python, [Self.script, "start", made.path], timeLimit: 180)
        guard started.status == 0 else { throw ProcessFailure("cannot start a throwaway PostgreSQL cluster: \(started.stderr)") }
        url = started.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        folder = made
    }

    /// A new, empty database on the cluster, and its URL.
    public func freshDatabase() throws -> String {
        let name = "redline_test_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
        let made = try ProcessRunner.run("/usr/bin/psql", ["-X", "-q", url, "-c", "CREATE DATABASE \(name)"], timeLimit: 60)
        guard made.status == 0 else { throw ProcessFailure("cannot make a database: \(made.stderr)") }
        let (base, query) = url.firstIndex(of: "?").map { (String(url[..<$0]), String(url[$0...])) } ?? (url, "")
        return base[..<base.lastIndex(of: "/")!] + "/" + name + query
    }

    deinit {
        if let folder { _ = try? ProcessRunner.run(TestPaths.python, [Self.script, "stop", folder.path], timeLimit: 120) }
    }
}

public struct ProcessFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
