import Synchronization

extension QPDFSession {
    /// Set by a command whose process ends once its document is written (`redline apply`, `flatten`, `xfdf import`
    /// and the other one-shot commands; never the editor, which saves again and again): the session a save wrote from
    /// is then kept until the process ends, which gives its memory back at once, instead of being freed object by
    /// object first (0.5 s after importing 100,000 annotations, with nothing left to do but write the file). Compilers
    /// skip freeing before exit for the same reason.
    static let freedByProcessEnd = Atomic<Bool>(false)

    /// Keeps the session to the process's end when the command said it ends after writing; else nothing.
    func leaveToProcessEnd() {
        guard Self.freedByProcessEnd.load(ordering: .relaxed) else { return }
        // One reference more that nothing gives back: the session is never freed before the process ends.
        _ = Unmanaged.passRetained(self)
    }
}

/// For a command whose process ends once it has written its document (`QPDFSession.freedByProcessEnd`).
public enum WrittenSessions {
    public static func leftToProcessEnd() { QPDFSession.freedByProcessEnd.store(true, ordering: .relaxed) }
}
