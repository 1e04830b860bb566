import RedlineCore

/// A document as a PostgreSQL batch sees it while deciding its changes: the facts read under the document's lock,
/// then each change's result, so that every change is decided as if it had a transaction of its own.
struct ChangeBatch {
    let document: String
    private(set) var head: Int
    private(set) var live: Int
    /// Each author's membership; no entry for a user who does not exist, `.some(nil)` for one who is no member.
    var members: [String: DocumentAccess?] = [:]
    /// Operation ids used already: the event's number and author, and its first annotation's name and version.
    var earlier: [String: (seq: Int, author: String, name: String?, version: Int)] = [:]
    /// The annotations the batch's changes name or answer, as they stand after the changes decided so far.
    var known: [String: SharedAnnotation] = [:]
    /// What was decided and not yet written: annotation names in the order first changed, and the events.
    private(set) var unwritten: [String] = []
    private var unwrittenNames: Set<String> = []
    private(set) var events: [(event: CollabFrame.Event, frame: String)] = []

    init(document: String, head: Int, live: Int) {
        self.document = document
        self.head = head
        self.live = live
    }

    /// `descendants`: for a deletion, everything answering the annotation (read after the batch's earlier changes
    /// were written).
    mutating func decide(_ change: PendingChange, descendants: [SharedAnnotation]) -> StoredChangeOutcome {
        let access: DocumentAccess?
        switch change.rule {
        case .members(let open): access = members[change.author].map { $0 ?? (open ? .write : nil) } ?? nil
        case .granted(let granted): access = granted
        case .denied: access = nil
        }
        switch access {
        case .write: break
        case .read: return .refused(.readOnly)
        case nil: return .noAccess
        }
        if let earlier = earlier[change.operation] {
            // Another user's operation id is not this user's resend: answering with its event would drop this change.
            guard earlier.author == change.author else { return .refused(.operationInUse(change.operation)) }
            return .duplicate(seq: earlier.seq, name: earlier.name ?? change.request.name, version: earlier.version)
        }
        let request = change.request
        let parentName = request.action == .add ? request.inReplyTo : nil
        let facts = SharedChangeRules.Facts(current: known[request.name], parent: parentName.flatMap { known[$0] },
                                            descendants: descendants, liveCount: live, mostAnnotations: change.mostAnnotations)
        switch SharedChangeRules.decide(request, base: change.base, author: change.author, canWrite: true, facts: facts) {
        case .failure(let refusal):
            return .refused(refusal)
        case .success(let accepted):
            head += 1
            live += accepted.liveDelta
            for annotation in accepted.changed {
                known[annotation.name] = annotation
                if unwrittenNames.insert(annotation.name).inserted { unwritten.append(annotation.name) }
            }
            let event = CollabFrame.Event(seq: head, op: change.operation, author: change.author, time: change.time,
                                          action: accepted.action, annotations: accepted.changed.map(CollabFrame.Entry.init),
                                          xfdf: accepted.xfdf)
            events.append((event, CollabFrame.Server.event(event).json))
            let first = event.annotations.first
            earlier[change.operation] = (head, change.author, first?.name, first?.version ?? 0)
            return .accepted(event)
        }
    }

    mutating func written() {
        unwritten = []
        unwrittenNames = []
        events = []
    }
}
