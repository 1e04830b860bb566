import ArgumentParser
import CommandLineSupport
import Foundation

/// `redline serve …`: runs `redline-server`, installed beside `redline`, with the same arguments. The server is a
/// program of its own so that it loads no terminal or PDF library.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the collaboration server; redline serve user|grant manage access (docs/collaboration.md).")

    @Argument(parsing: .captureForPassthrough,
              help: "Passed to the server: [--listen HOST:PORT] [--database sqlite:PATH|postgres://…] [--open] …; user add|remove|list; grant.")
    var arguments: [String] = []

    func run() throws { try SiblingProgram.exec("redline-server", arguments) }
}

/// `redline collab …`: runs `redline-collab`, installed beside `redline`. Its network and TLS libraries are three
/// times the size of the rest of Redline: linked into `redline`, every command would pay for loading them.
struct Collab: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "collab",
        abstract: "Share a PDF's annotations through a collaboration server: share, push, pull, get, watch.",
        discussion: """
            share FILE.pdf (upload it and its annotations; prints the document id), push FILE.pdf (send the \
            annotations the server lacks), pull FILE.pdf --output OUT.pdf (a copy with the server's \
            annotations), get ID --output FILE.pdf (a shared PDF), watch ID (events as JSON lines). \
            `redline collab --help` and `redline collab COMMAND --help` give the options; docs/collaboration.md \
            the rest.
            """)

    @Argument(parsing: .captureForPassthrough, help: "share|push|pull|get|watch and their arguments.")
    var arguments: [String] = []

    func run() throws { try SiblingProgram.exec("redline-collab", arguments) }
}

/// The programs installed beside `redline`, run in its place (exec: same process, same standard streams).
enum SiblingProgram {
    static func exec(_ name: String, _ arguments: [String]) throws {
        let program = path(name)
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw CommandFailure("\(program) is missing: it is built and installed beside redline (make install)", code: ExitStatus.usage)
        }
        let argv = [program] + arguments
        var pointers = argv.map { strdup($0) } + [nil]
        execv(program, &pointers)
        throw CommandFailure("cannot run \(program): \(String(cString: strerror(errno)))", code: ExitStatus.usage)
    }

    static func path(_ name: String) -> String {
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent(name).path
    }
}
