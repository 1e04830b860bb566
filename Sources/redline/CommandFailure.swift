import Foundation
import RedlineCore

/// Redline's exit codes, the same for every command.
enum ExitStatus {
    static let usage: Int32 = 1
    static let cannotOpen: Int32 = 2
    static let cannotWrite: Int32 = 3
}

/// A failure to report as one line on stderr with an exit code.
struct CommandFailure: Error {
    let message: String
    let code: Int32

    init(_ message: String, code: Int32) {
        self.message = message
        self.code = code
    }

    init(_ error: DocumentError) {
        self.init(error.description, code: error.isOpenFailure ? ExitStatus.cannotOpen : ExitStatus.cannotWrite)
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data(("redline: " + message + "\n").utf8))
}

func exitProcess(_ code: Int32) -> Never {
    exit(code)
}
