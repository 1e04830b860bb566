/// What a shared session's crash journal keeps beside its operations: the server's version each change was made
/// against, and the server's annotations the session changed, as it showed them. Restored, a change is sent against
/// its version, so one another session overtook meanwhile is refused and asked about; and keeping one's own then
/// keeps what the user had before the crash, not the other session's version with this one's change on top.
public struct SharedJournal: Sendable, Hashable, Codable {
    /// By the name in the session: the server's version the change was made against.
    public var bases: [String: Int]
    /// By name: the server's annotations this session changed, as it showed them, each as an XFDF document (what the
    /// wire carries: every key of the annotation, its look included).
    public var shown: [String: String]
    /// The server's annotations whose changes in the journal the server did not have yet: only those are restored
    /// (the journal's operations are all since opening; a change the server took is in the server's version already,
    /// and made again on it would move twice). Nil in a journal that says nothing of it: none are.
    public var unsent: [String]?
    /// By name: when each was last changed in the session, so that what is restored is dated then, not at the
    /// restore. Nil in a journal written before it was kept.
    public var changedAt: [String: PDFDate]?
    /// By name: when each was first changed in the session (markup: when it was made).
    public var madeAt: [String: PDFDate]?

    public init(bases: [String: Int] = [:], shown: [String: String] = [:], unsent: [String]? = nil, changedAt: [String: PDFDate]? = nil,
                madeAt: [String: PDFDate]? = nil) {
        self.bases = bases
        self.shown = shown
        self.unsent = unsent
        self.changedAt = changedAt
        self.madeAt = madeAt
    }

    public var isEmpty: Bool { bases.isEmpty && shown.isEmpty && (unsent ?? []).isEmpty }

    /// What a journal read from disk may hold: a version no server gives (negative) is left out.
    public var checked: SharedJournal {
        SharedJournal(bases: bases.filter { $0.value >= 0 }, shown: shown, unsent: unsent, changedAt: changedAt, madeAt: madeAt)
    }

    /// The annotation kept as shown under `name`, read as the wire's XFDF is; nil when none is, or it does not read
    /// as one annotation of that name on these pages.
    public func shownAnnotation(_ name: String, pages: [PageGeometry]) -> Annotation? {
        guard let xfdf = shown[name], let command = try? XFDF.command(from: Array(xfdf.utf8), pages: pages),
              command.add.count == 1, command.add[0].id.rawValue == name else { return nil }
        return command.add[0]
    }
}
