import ArgumentParser
import CommandLineSupport
import Editor
import Foundation
import RedlineKit
import TerminalFrontEnd
import TerminalGrid
import RedlineCore

/// `redline FILE.pdf`: the full-screen editor.
struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Open a PDF in the editor (the default command).")

    @Argument(help: "The PDF to open.", completion: .file(extensions: ["pdf"]))
    var file: String?

    @Flag(help: "Ask the terminal what it can show (graphics protocols, cell size in pixels, pixel mouse), print what it answered, and quit.")
    var probe = false

    @Option(name: .long, help: ArgumentHelp("How the page is drawn: auto (ask the terminal), kitty, sixel, iterm2 or symbols.",
                                            valueName: "MODE"))
    var graphics: String?

    @Option(name: .long, help: "The page to start on, from 1.")
    var page: Int = 1

    @Option(name: .long, help: ArgumentHelp("Append every interaction the editor performs or refuses to FILE, a JSON line each.",
                                            valueName: "FILE"), completion: .file())
    var events: String?

    @OptionGroup var authorOption: AuthorOption
    @OptionGroup var passwordOption: PasswordOption

    func validate() throws {
        guard page >= 1 else { throw ValidationError("--page counts from 1") }
        guard probe || file != nil else { throw ValidationError("Missing expected argument '<file>'") }
        if let graphics, GraphicsRequest(rawValue: graphics) == nil {
            throw ValidationError("--graphics must be one of \(GraphicsRequest.names), not \"\(graphics)\"")
        }
    }

    func run() throws {
        if probe {
            guard let report = EditorLauncher.probeReport(environment: ProcessInfo.processInfo.environment) else {
                throw CommandFailure("--probe asks the terminal, and this process has none (/dev/tty cannot be opened)", code: 1)
            }
            try printOutput(report)
            return
        }
        guard let file else { return }
        let (configuration, author) = try authorOption.resolve()
        let reviewer = Reviewer(author: author, threadActionsEnabled: configuration.replies)
        do {
            try EditorLauncher.launch(path: file, page: page, password: passwordOption.password, reviewer: reviewer,
                                      configuration: configuration,
                                      graphics: graphics.flatMap(GraphicsRequest.init(rawValue:)), eventsPath: events)
        } catch let error as DocumentError {
            throw CommandFailure(error)
        } catch let error as EditorLauncher.LaunchError {
            throw CommandFailure(error.description, code: error.exitCode)
        }
    }
}
