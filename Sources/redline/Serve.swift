import ArgumentParser
import Foundation

/// `redline serve …`: runs `redline-server`, installed beside `redline`, with the same arguments. The server is a
/// program of its own so that it loads no terminal or PDF library.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the collaboration server; redline serve user|grant manage access (docs/collaboration.md).")

    @Argument(parsing: .captureForPassthrough, help: "Passed to the server: [--listen HOST:PORT] [--database sqlite:PATH] [--open] …; user add|remove|list; grant.")
    var arguments: [String] = []

    func run() throws {
        let server = Self.serverPath()
        guard FileManager.default.isExecutableFile(atPath: server) else {
            throw CommandFailure("\(server) is missing: the server is built and installed beside redline (make install)", code: ExitStatus.usage)
        }
        let argv = [server] + arguments
        var pointers = argv.map { strdup($0) } + [nil]
        execv(server, &pointers)
        throw CommandFailure("cannot run \(server): \(String(cString: strerror(errno)))", code: ExitStatus.usage)
    }

    static func serverPath() -> String {
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent("redline-server").path
    }
}
