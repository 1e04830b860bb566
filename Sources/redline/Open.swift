import ArgumentParser
import Foundation
import RedlineApp
import RedlineCore

/// `redline FILE.pdf`: the full-screen editor.
struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Open a PDF in the editor (the default command).")

    @Argument(help: "The PDF to open.")
    var file: String

    @Option(name: .long, help: "The page to start on, from 1.")
    var page: Int = 1

    @OptionGroup var passwordOption: PasswordOption

    func validate() throws {
        guard page >= 1 else { throw ValidationError("--page counts from 1") }
    }

    func run() throws {
        do {
            try EditorLauncher.launch(path: file, page: page, password: passwordOption.password)
        } catch let error as DocumentError {
            throw CommandFailure(error)
        } catch let error as EditorLauncher.LaunchError {
            throw CommandFailure(error.description, code: error.exitCode)
        }
    }
}
