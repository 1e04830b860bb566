import ArgumentParser
import Editor
import Foundation
import RedlineKit
import TerminalFrontEnd
import RedlineCore

/// `redline FILE.pdf`: the full-screen editor.
struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Open a PDF in the editor (the default command).")

    @Argument(help: "The PDF to open.", completion: .file(extensions: ["pdf"]))
    var file: String

    @Option(name: .long, help: "The page to start on, from 1.")
    var page: Int = 1

    @Option(name: .long, help: ArgumentHelp("Append every interaction the editor performs or refuses to FILE, a JSON line each.",
                                            valueName: "FILE"), completion: .file())
    var events: String?

    @OptionGroup var authorOption: AuthorOption
    @OptionGroup var passwordOption: PasswordOption

    func validate() throws {
        guard page >= 1 else { throw ValidationError("--page counts from 1") }
    }

    func run() throws {
        let (configuration, author) = try authorOption.resolve()
        let reviewer = Reviewer(author: author, threadActionsEnabled: configuration.replies)
        do {
            try EditorLauncher.launch(path: file, page: page, password: passwordOption.password, reviewer: reviewer,
                                      configuration: configuration, eventsPath: events)
        } catch let error as DocumentError {
            throw CommandFailure(error)
        } catch let error as EditorLauncher.LaunchError {
            throw CommandFailure(error.description, code: error.exitCode)
        }
    }
}
