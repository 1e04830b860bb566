import ArgumentParser
import CommandLineSupport
import RedlineKit
import TerminalFrontEnd
import RedlineCore

/// `redline bench FILE.pdf`: how fast the things a user feels are, on this file and this machine.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure open, first page, page turn, nudge frame and save on a PDF.")

    @Argument(help: "The PDF to measure with.", completion: .file(extensions: ["pdf"]))
    var file: String

    @OptionGroup var passwordOption: PasswordOption

    @Flag(help: "Also page through every page, as PageDown held down would, then back, and report the resident memory as it goes.")
    var paging = false

    func run() throws {
        do {
            let figures = try Benchmark.run(path: file, password: passwordOption.password)
            let pages = try MarkupApplication.describe(file, password: passwordOption.password).pageCount
            try printOutput(Benchmark.report(figures, path: file, pageCount: pages))
            if paging {
                try printOutput(try Benchmark.memoryWhilePaging(path: file, password: passwordOption.password).report)
            }
        } catch let error as DocumentError {
            throw CommandFailure(error)
        }
    }
}
