import Foundation
import RedlineCore
import RedlineKit
import TerminalGrid

/// Redline's exit codes, the same for every command.
public enum ExitStatus {
    public static let usage: Int32 = 1
    public static let cannotOpen: Int32 = 2
    public static let cannotWrite: Int32 = 3
    /// `redline search` found nothing, as grep says so.
    public static let notFound: Int32 = 1
}

/// A failure to report as one line on stderr with an exit code.
public struct CommandFailure: Error {
    public let message: String
    public let code: Int32

    public init(_ message: String, code: Int32) {
        self.message = message
        self.code = code
    }

    public init(_ error: DocumentError) {
        self.init(error.description, code: error.isOpenFailure ? ExitStatus.cannotOpen : ExitStatus.cannotWrite)
    }
}

/// One line on stderr. File names and document text in it are shown, never acted on, and a message cannot
/// run over one line or a screenful.
public func printError(_ message: String) {
    let line = VisibleText.line(message)
    // A plain write: FileHandle's traps when stderr is a closed terminal or pipe.
    var bytes = Array(("redline: " + line + "\n").utf8)
    _ = write(STDERR_FILENO, &bytes, bytes.count)
}

public func exitProcess(_ code: Int32) -> Never {
    exit(code)
}

/// Standard output, checked: a full disk, /dev/full or an unwritable pipe is exit 3 naming standard output, never
/// exit 0 with an empty or cut file. Every command prints through this, not `print`, whose failures go unseen.
public func printOutput(_ text: String, terminator: String = "\n") throws {
    do {
        try DescriptorWriter.writeAll(Data((text + terminator).utf8), to: STDOUT_FILENO)
    } catch {
        throw CommandFailure("standard output: \(error)", code: ExitStatus.cannotWrite)
    }
}

/// For commands whose output is an id (reply, review, bookmarks add and remove): a copy rewritten whole is said on
/// stderr, with what that did to the document's signatures; an appended one needs no word.
public func sayIfRewritten(_ output: String, _ outcome: WriteOutcome, _ description: DocumentDescription) {
    guard case .rewritten = outcome else { return }
    printError("\(output): \(outcome)")
    if let warning = description.signatureWarning(after: outcome) { printError("\(output): \(warning)") }
    if let warning = description.damageWarning { printError("\(output): \(warning)") }
}
