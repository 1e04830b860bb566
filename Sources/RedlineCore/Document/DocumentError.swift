/// Why a document could not be opened or written, in words for the user. Each front end turns these into
/// its own form: one line on stderr and an exit code for the command line, a message in the editor.
public enum DocumentError: Error, Equatable, CustomStringConvertible {
    case notFound(path: String)
    case unreadable(path: String, reason: String)
    case passwordRequired(path: String)
    case wrongPassword(path: String)
    case damaged(path: String, reason: String)
    case writeFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .notFound(let path): "\(path): no such file"
        case .unreadable(let path, let reason): "\(path): cannot be read: \(reason)"
        case .passwordRequired(let path): "\(path): the document is encrypted; give its password with --password"
        case .wrongPassword(let path): "\(path): wrong password"
        case .damaged(let path, let reason): "\(path): not a usable PDF: \(reason)"
        case .writeFailed(let path, let reason): "\(path): cannot write: \(reason)"
        }
    }

    /// Errors that mean "could not open the input", as opposed to "could not write the output".
    public var isOpenFailure: Bool {
        if case .writeFailed = self { return false }
        return true
    }
}
