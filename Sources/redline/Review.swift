import ArgumentParser
import CommandLineSupport
import RedlineKit
import RedlineCore

/// `redline review`: records a review decision on an annotation, writing it into a copy.
struct Review: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "Set your review state on an annotation and write a copy.")

    @Argument(help: "The PDF to change.", completion: .file(extensions: ["pdf"]))
    var input: String

    @Option(name: .long, help: "The id of the annotation to review.")
    var to: String

    @Option(name: .long, help: "accepted, rejected, cancelled, completed, none, marked or unmarked.",
            completion: .list(["accepted", "rejected", "cancelled", "completed", "none", "marked", "unmarked"]))
    var state: String

    @Option(name: .long, help: "Where to write the copy.", completion: .file(extensions: ["pdf"]))
    var output: String

    @OptionGroup var rewriteOption: RewriteOption
    @OptionGroup var authorOption: AuthorOption
    @OptionGroup var passwordOption: PasswordOption

    func validate() throws {
        guard AnnotationState.named(state) != nil else {
            throw ValidationError("--state must be one of accepted, rejected, cancelled, completed, none, marked, unmarked")
        }
    }

    func run() throws {
        OneShotCommand.endsAfterWriting()
        let (configuration, author) = try authorOption.resolve()
        var job = ReviewJob(input: input, password: passwordOption.password, author: author, output: output)
        job.strategy = rewriteOption.strategy(configuration)
        try ThreadCommand.run(job, .state(AnnotationState.named(state)!, on: AnnotationID(to)))
    }
}

/// Runs a reply or review job with the command line's errors and exit codes.
enum ThreadCommand {
    static func run(_ job: ReviewJob, _ change: ReviewJob.Change) throws {
        var job = job
        let output = job.output
        job.written = { outcome, description in sayIfRewritten(output, outcome, description) }
        do {
            let made = try job.run(change)
            try printOutput(made.id.rawValue)
        } catch let error as DocumentError {
            throw CommandFailure(error)
        } catch let error as AnnotationEditError {
            if case .notPermitted = error { throw CommandFailure(error.description, code: ExitStatus.cannotWrite) }
            throw CommandFailure(error.description, code: ExitStatus.usage)
        }
    }
}
