import Synchronization

extension QPDFSession {
    /// Set by a command whose process ends once its document is written (`redline apply`, `flatten`, `xfdf import`
    /// and the other one-shot commands; never the editor, which saves again and again): the session a save wrote from
    /// is then kept until the process ends, which gives its memory back at once, instead of being freed object by
    /// object first (0.5 s after importing 100,000 annotations, with nothing left to do but write the file). Compilers
    /// skip freeing before exit for the same reason.
    static let freedByProcessEnd = Atomic<Bool>(false)

    /// Keeps the session to the process's end when the command said it ends after writing and the session made
    /// enough objects for freeing them to be felt; else nothing. A session of few new objects frees in moments, and
    /// kept it would only add its memory to the check's reading of the copy (44 MiB for `apply` on a 42 MB file).
    func leaveToProcessEnd() {
        guard Self.freedByProcessEnd.load(ordering: .relaxed), let made = newObjects, made.next - made.first > 10_000 else { return }
        // One reference more that nothing gives back: the session is never freed before the process ends.
        _ = Unmanaged.passRetained(self)
    }
}

/// For a command whose process ends once it has written its document (`QPDFSession.freedByProcessEnd`).
public enum WrittenSessions {
    public static func leftToProcessEnd() { QPDFSession.freedByProcessEnd.store(true, ordering: .relaxed) }
}
