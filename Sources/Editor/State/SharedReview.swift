import Foundation
import RedlineCore

/// A shared session (`redline FILE.pdf --collab URL`, docs/collaboration.md): the server's annotations laid over the
/// file's, and what of this session's changes the server has, has not yet, or refused.
///
/// The editor shows the file's annotations with the server's laid over them (a name the server has replaces the
/// file's, a name it deleted goes), and this session's edits over that. An annotation the session changed keeps
/// the version it was changed from, so that the echo of its own change does not apply the change twice. What is
/// sent is found by comparing, name by name, the annotation as the session has it with what the server was last
/// told: a run of nudges is one change, and an undo that puts an annotation back sends it back.
public struct SharedReview: Sendable {
    public enum Link: Sendable, Hashable {
        case connecting
        case connected
        /// Not connected: `reason` says why, the next try comes in `retryIn` seconds (nil: no more tries).
        case offline(reason: String, retryIn: Double?)
    }

    /// The document's id on the server.
    public let document: String
    public internal(set) var link: Link = .connecting
    /// The user the server knows this session as, once it said so.
    public internal(set) var user: String?
    public internal(set) var readOnly = false
    /// Who is in the document now, as the server last said (this user included).
    public internal(set) var present: [String] = []
    public internal(set) var replica: SharedDocumentReplica
    /// The file's annotations as opened, and their names.
    let fileAnnotations: [Annotation]
    let fileNames: Set<AnnotationID>
    /// Annotations of the file the server changed or deleted: the page is drawn without them, and what the server
    /// has of them is drawn over it.
    var replacedFileNames: Set<AnnotationID> = []
    /// Where each annotation of the laid-out list is, by name (as the last whole layout left it and events since kept
    /// it): an event changes its few annotations in place instead of laying the whole list out again.
    var laidIndex: [AnnotationID: Int] = [:]
    /// Names changed here and not yet compared with what the server has.
    var dirty: Set<AnnotationID> = []
    /// Names an undo or redo changed, with when: the server's annotation was modified then (its /M), not when the
    /// change undone was made.
    var changedBackAt: [AnnotationID: PDFDate] = [:]
    /// When each name was last changed here: markup made offline is dated then, not when it reaches the server.
    var changedAt: [AnnotationID: PDFDate] = [:]
    /// When each name was first changed here: markup made here is created then (moved before it was sent, it was
    /// dated created at the move).
    var madeAt: [AnnotationID: PDFDate] = [:]
    /// Names a restored journal brings back, with when they were last changed and first made in the session that
    /// wrote it: taken by the change the restore makes of them, then forgotten.
    var restoredAt: [AnnotationID: PDFDate] = [:]
    var restoredMadeAt: [AnnotationID: PDFDate] = [:]
    /// Why the link went offline, as the message line last said it: said again only when it changes.
    var offlineReasonSaid: String?
    /// The version of each annotation (by its name on the server) that this session's change to it was made against,
    /// taken when the change began: a change someone else (another session of the user's) made meanwhile makes the
    /// server refuse this one, and the user is asked, instead of one silently overwriting the other.
    var editBase: [AnnotationID: Int] = [:]
    /// Changes sent (or waiting for the connection) and not yet answered, in the order they were made.
    var pending: [PendingChange] = []
    /// What the server was last told of an annotation (in the form changes are compared in), and the version it
    /// answered with.
    var told: [AnnotationID: Told] = [:]
    /// Changes acknowledged whose event has not come yet (operation id, event number): their event is the echo of
    /// this session's own change, not someone else's.
    var acknowledged: [String: Int] = [:]
    /// Names this session made again after the server deleted them (an undone deletion), with the new name each is
    /// shared under: the server keeps a deleted name deleted.
    var aliases: [AnnotationID: AnnotationID] = [:]
    /// When each of the session's markups was first shared: its creation date from then on.
    var created: [AnnotationID: PDFDate] = [:]
    /// The session's markup as the list shows it, by its name here: listed as it is here, not as the server last
    /// echoed it, so that markup made offline is listed too. Nil: taken away here (deleted, undone), so the server's
    /// copy is not listed while the deletion waits.
    var markupListed: [AnnotationID: Annotation?] = [:]
    /// The server's annotations changed here and deleted by another session before the change was sent, as this
    /// session showed them: what `y` keeps as a new annotation.
    var lostToDeletion: [AnnotationID: Annotation] = [:]
    /// The server's annotations a restored crash journal changed, as the session showed them before the crash: what
    /// `y` keeps when the restored change is refused.
    var restoredShown: [AnnotationID: Annotation] = [:]
    /// Refused changes to the user's own annotations, waiting to be put to the user once nothing is being edited.
    var conflicts: [Confirmation] = []
    /// Names whose refused change waits for the user's choice: not sent again meanwhile (against the newest version it
    /// would be taken, overwriting what the other session did).
    var held: Set<AnnotationID> = []
    /// What each held change said (compared form; nil for a deletion): the same as what the server now has (both
    /// sessions made the same change) is no conflict.
    var heldForms: [AnnotationID: String?] = [:]
    /// The version each held change was made against: what the crash journal keeps, so that the change restored later
    /// is refused and asked about again instead of sent over the other session's.
    var heldBases: [AnnotationID: Int] = [:]
    /// What the server's answers had to say while the user was typing or drawing: said once the message line is
    /// theirs no more, never over what they are writing.
    var notice: String?
    /// Changes the server refused, newest last.
    public internal(set) var refusals: [Refusal] = []
    /// The welcome said a snapshot follows and its last part has not come yet: nothing is compared before it.
    var awaitingSnapshot = false

    struct PendingChange: Sendable, Hashable {
        var operation: String
        /// The annotation's name here, and the name it has on the server (another after an undone deletion).
        var local: AnnotationID
        var name: AnnotationID
        var frame: CollabFrame.Client
        /// The annotation as sent, compared form; nil for a deletion.
        var form: String?
    }

    struct Told: Sendable, Hashable {
        var form: String?
        var version: Int
        /// Whether the annotation lives on the server after that version (false: deleted).
        var alive: Bool
    }

    public struct Refusal: Sendable, Hashable {
        public var name: String
        public var code: String
        public var message: String
    }

    public init(document: String, fileAnnotations: [Annotation], pages: [PageGeometry]) {
        self.document = document
        self.fileAnnotations = fileAnnotations
        fileNames = Set(fileAnnotations.map(\.id))
        replica = SharedDocumentReplica(pages: pages)
    }

    /// Changes the server does not have yet: sent and unanswered, or made while offline.
    public var waitingCount: Int { pending.count + dirty.union(held).subtracting(pending.map(\.local)).count }

    /// The name an annotation of this session has on the server.
    func sharedName(_ name: AnnotationID) -> AnnotationID { aliases[name] ?? name }

    /// Whether the server has `name`, deleted (false) or live (true), or never had it (nil): by the newest of its
    /// answers and its events, since an answer usually comes before the change's own event.
    func alive(_ name: AnnotationID) -> Bool? {
        let entry = replica.entries[name.rawValue]
        if let told = told[name], told.version > entry?.version ?? 0 { return told.alive }
        return entry.map { !$0.deleted }
    }

    /// The version of `name` a change to it is made against: the newest the server told of.
    func version(of name: AnnotationID) -> Int? {
        let known = replica.version(of: name)
        guard let told = told[name]?.version else { return known }
        return max(known ?? 0, told)
    }

    /// The annotation in the form two versions of it are compared in: its XFDF with what the server writes itself
    /// (the author) and what every change moves on (the dates) left out.
    static func comparedForm(of annotation: Annotation, pages: [PageGeometry]) -> String {
        var bare = annotation
        bare.author = nil
        bare.created = nil
        bare.modified = nil
        bare.order = 0
        return XFDF.document([bare], pages: pages)
    }

    /// A markup that is no longer the session's own under `name` (renamed, or given up for the server's copy): its
    /// name is an annotation like any other from now on.
    mutating func forget(markup name: AnnotationID) {
        created[name] = nil
        markupListed[name] = nil
        aliases[name] = nil
        settle(name)
        dirty.remove(name)
    }

    /// The question about `name`'s refused or lost change is answered (or needs no answer): nothing of it is held
    /// any more, nor kept to make a copy from.
    mutating func settle(_ name: AnnotationID) {
        held.remove(name)
        heldForms[name] = nil
        heldBases[name] = nil
        lostToDeletion[name] = nil
        restoredShown[name] = nil
    }

    /// Holds `local`'s change, deleted on the server (`shared`) by another session before it was sent, and queues
    /// the question; returns what the message line says of it.
    mutating func askAboutDeletion(local: AnnotationID, shared: AnnotationID, words: String) -> String {
        let what = Self.quoted(words)
        held.insert(local)
        conflicts.append(.sharedConflict(local: local, shared: shared, message: "\(what) was deleted meanwhile"))
        return "Not shared: \(what) was deleted meanwhile"
    }

    /// An annotation's words as a question names them: short enough to keep the answers' keys on the line.
    static func quoted(_ words: String) -> String {
        words.isEmpty ? "it" : "“\(words.prefix(24))\(words.count > 24 ? "…" : "")”"
    }

    /// For the crash journal: the version of the server's annotation each of `names` (names here) was changed
    /// against, or was at when the server took the session's change. A journal restored after a crash sends its
    /// changes against these versions, so one another session made meanwhile is refused and asked about, not
    /// silently overwritten.
    func journalBases(of names: Set<AnnotationID>) -> [String: Int] {
        var bases: [String: Int] = [:]
        for name in names {
            let wire = sharedName(name)
            let sent = pending.first { $0.local == name }.flatMap { change -> Int? in
                if case .change(_, let base, _) = change.frame { base } else { nil }
            }
            if let base = heldBases[name] ?? sent ?? (dirty.contains(name) ? editBase[wire] : nil) ?? told[wire]?.version {
                bases[name.rawValue] = base
            }
        }
        return bases
    }

    /// Whether the annotation differs from the server's here: changed since the last pause, or sent and not answered.
    func isChangedHere(_ name: AnnotationID) -> Bool {
        dirty.contains(name) || pending.contains { $0.local == name }
    }

    /// Notes names that begin to differ from the server here: the version each change is made against.
    mutating func noteDirty(_ names: Set<AnnotationID>, at time: PDFDate) {
        for name in names {
            let at = restoredAt[name] ?? time
            changedAt[name] = at
            if madeAt[name] == nil { madeAt[name] = restoredMadeAt[name] ?? at }
        }
        restoredAt = [:]
        restoredMadeAt = [:]
        let busy = Set(pending.map(\.local))
        for name in names where !dirty.contains(name) && !busy.contains(name) {
            let wire = sharedName(name)
            if editBase[wire] == nil, let version = version(of: wire) { editBase[wire] = version }
        }
        dirty.formUnion(names)
    }

    /// The status line's words for the session.
    public var statusField: String {
        let who = user.map { " as \($0)" } ?? ""
        let waiting = waitingCount
        switch link {
        case .connecting: return "shared: connecting…" + (waiting > 0 ? " \(waiting) waiting" : "")
        case .connected:
            if awaitingSnapshot { return "shared\(who): loading" }
            // A change held for the user's answer is not on its way: it waits for them.
            let asking = held.subtracting(pending.map(\.local)).count
            let sending = waiting - asking
            let parts = (sending > 0 ? ["sending \(sending)"] : []) + (asking > 0 ? ["\(asking) awaiting your answer"] : [])
            let state = readOnly ? "read-only" : parts.isEmpty ? "live" : parts.joined(separator: ", ")
            let others = present.filter { $0 != user }
            let with = others.isEmpty ? "" : others.count <= 3 ? " · with " + others.joined(separator: ", ")
                : " · with " + others.prefix(2).joined(separator: ", ") + " and \(others.count - 2) more"
            return "shared\(who): \(state)\(with)"
        case .offline(_, let retryIn):
            // Who was there is no longer known.
            let retry = retryIn.map { ", retry in \(max(1, Int($0.rounded(.up)))) s" } ?? ""
            return "shared: offline\(waiting > 0 ? ", \(waiting) waiting" : "")\(retry)"
        }
    }
}

/// What the network brings a shared session, as values: the runner turns the link's lines into these.
public enum SharedEvent: Sendable {
    /// The link is trying to connect, or lost the connection (and when it tries again).
    case link(SharedReview.Link)
    /// A frame from the server (the welcome included).
    case frame(CollabFrame.Server)
    /// The pause after the last change has passed: what changed is compared and sent.
    case flushDue
}
