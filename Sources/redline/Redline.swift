import ArgumentParser
import RedlineApp

@main
struct Redline: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "redline",
        abstract: "Mark up PDFs in the terminal: place text, nudge it into place, save a flattened copy.",
        discussion: """
            `redline FILE.pdf` opens the editor (press ? inside for the keys).
            The other commands do the same work in scripts.
            """,
        version: version,
        subcommands: [Open.self, Apply.self, Annotations.self, Reply.self, Review.self, Bookmarks.self, Bench.self],
        defaultSubcommand: Open.self)

    /// Parses and runs, with Redline's exit codes: 0 done, 1 bad usage or markup, 2 cannot open, 3 cannot write.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as CommandFailure {
            printError(failure.message)
            exitProcess(failure.code)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                exitProcess(0)
            }
            // One line, like every other error: the usage is one --help away.
            let firstLine = message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            printError(firstLine.replacingOccurrences(of: "Error: ", with: "") + " (redline --help lists the commands and options)")
            exitProcess(ExitStatus.usage)
        }
    }
}
