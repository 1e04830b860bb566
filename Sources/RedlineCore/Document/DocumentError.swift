/// Why a document could not be opened or written, in words for the user. Each front end turns these into
/// its own form: one line on stderr and an exit code for the command line, a message in the editor.
public enum DocumentError: Error, Equatable, CustomStringConvertible {
    case notFound(path: String)
    case unreadable(path: String, reason: String)
    case passwordRequired(path: String)
    case wrongPassword(path: String)
    case damaged(path: String, reason: String)
    case writeFailed(path: String, reason: String)
    /// The document's permissions allow annotations but not changes to its pages: markup cannot be burned in.
    case pageChangesNotPermitted(path: String)
    /// The same, met by `flatten`, whose whole work is changing pages: keeping annotations is no way round.
    case flatteningNotPermitted(path: String)

    public var description: String {
        switch self {
        case .notFound(let path): "\(path): no such file"
        case .unreadable(let path, let reason): "\(path): cannot be read: \(reason)"
        case .passwordRequired(let path): "\(path): the document is encrypted; give its password with --password"
        case .wrongPassword(let path): "\(path): wrong password"
        case .damaged(let path, let reason): "\(path): not a usable PDF: \(reason)"
        case .writeFailed(let path, let reason): "\(path): cannot write: \(reason)"
        case .pageChangesNotPermitted(let path):
            "\(path): the document's permissions allow annotations but not changes to its pages: save the markup as "
                + "annotations (:wa, apply --annotations), or open it with the owner's password"
        case .flatteningNotPermitted(let path):
            "\(path): the document's permissions allow annotations but not changes to its pages, so its annotations "
                + "cannot be drawn into them: flatten with the owner's password (--password)"
        }
    }

    /// The same error about `path` where it named `other` (a descriptor's /proc path read in its place).
    public func naming(_ path: String, insteadOf other: String) -> DocumentError {
        guard path != other else { return self }
        func named(_ original: String) -> String { original == other ? path : original }
        switch self {
        case .notFound(let original): return .notFound(path: named(original))
        case .unreadable(let original, let reason): return .unreadable(path: named(original), reason: reason)
        case .passwordRequired(let original): return .passwordRequired(path: named(original))
        case .wrongPassword(let original): return .wrongPassword(path: named(original))
        case .damaged(let original, let reason): return .damaged(path: named(original), reason: reason)
        case .writeFailed(let original, let reason): return .writeFailed(path: named(original), reason: reason)
        case .pageChangesNotPermitted(let original): return .pageChangesNotPermitted(path: named(original))
        case .flatteningNotPermitted(let original): return .flatteningNotPermitted(path: named(original))
        }
    }

    /// Errors that mean "could not open the input", as opposed to "could not write the output".
    public var isOpenFailure: Bool {
        switch self {
        case .writeFailed, .pageChangesNotPermitted, .flatteningNotPermitted: return false
        default: return true
        }
    }
}

/// Why a file just written does not read back as what was written: what a writer's check says, before the
/// writer reports the write as failed.
public struct ReadBackError: Error, Equatable, CustomStringConvertible {
    public let reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
