import ArgumentParser
import CommandLineSupport
import RedlineKit
import RedlineCore

/// `redline reply`: answers an annotation, writing the reply into a copy.
struct Reply: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reply",
        abstract: "Reply to an annotation (by the id `redline annotations` shows) and write a copy.")

    @Argument(help: "The PDF to change.", completion: .file(extensions: ["pdf"]))
    var input: String

    @Option(name: .long, help: "The id of the annotation to answer.")
    var to: String

    @Option(name: .long, help: "The reply.")
    var text: String

    @Option(name: .long, help: "Where to write the copy.", completion: .file(extensions: ["pdf"]))
    var output: String

    @OptionGroup var rewriteOption: RewriteOption
    @OptionGroup var authorOption: AuthorOption
    @OptionGroup var passwordOption: PasswordOption

    func run() throws {
        OneShotCommand.endsAfterWriting()
        if let control = ControlCharacters.first(in: text, allowingLineBreaks: true) {
            throw CommandFailure("--text contains the control character \(control): a reply holds text, line breaks and tabs", code: ExitStatus.usage)
        }
        let (configuration, author) = try authorOption.resolve()
        var job = ReviewJob(input: input, password: passwordOption.password, author: author, output: output)
        job.strategy = rewriteOption.strategy(configuration)
        try ThreadCommand.run(job, .reply(to: AnnotationID(to), text: text))
    }
}
