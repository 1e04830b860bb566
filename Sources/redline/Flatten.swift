import ArgumentParser
import CommandLineSupport
import RedlineKit
import RedlineCore

/// `redline flatten`: the final copy, every annotation's look part of its page.
struct Flatten: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flatten",
        abstract: "Burn every markup annotation into its page, keeping its look, and write a copy.",
        discussion: """
            Each annotation is drawn from its own appearance, where viewers draw it, and leaves the page's \
            annotations with its popup. Hidden ones (review states) are left out; links and form fields stay. \
            An annotation without an appearance of its own stays an annotation, and is named.
            """)

    @Argument(help: "The PDF to flatten.", completion: .file(extensions: ["pdf"]))
    var input: String

    @Option(name: .long, help: "Where to write the copy.", completion: .file(extensions: ["pdf"]))
    var output: String

    /// Appended, the original's bytes keep the comments flattened: --rewrite leaves them out.
    @OptionGroup var rewriteOption: RewriteOption

    @OptionGroup var passwordOption: PasswordOption

    func run() throws {
        OneShotCommand.endsAfterWriting()
        let configuration = try ConfigurationOption.load()
        let progress = TerminalProgress()
        defer { progress.finish() }
        do {
            let report = try FlattenJob.run(input: input, password: passwordOption.password, output: output,
                                            rewrite: rewriteOption.strategy(configuration) == .rewrite, progress: progress.say)
            progress.finish()
            // On stderr, as `annotations` and `xfdf export` say it: stdout is what was flattened.
            if let note = report.repairNote { printError("\(input): \(note)") }
            try report.lines.forEach { try printOutput($0) }
            report.warnings.forEach(printError)
        } catch let error as DocumentError {
            throw CommandFailure(error)
        } catch let error as AnnotationEditError {
            throw CommandFailure(error.description, code: ExitStatus.cannotWrite)
        }
    }
}
