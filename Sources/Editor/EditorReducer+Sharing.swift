import Foundation
import RedlineCore

/// A shared session (docs/collaboration.md): the server's frames laid over the document, and the session's own
/// changes sent as one change per annotation once a pause follows them.
extension EditorReducer {
    /// The pause after a change before it is sent: a run of nudges or a drag is one change.
    public static let sharedPause = Duration.milliseconds(300)

    /// Joins the shared document `document`: from now on changes are kept to be sent, and the server's
    /// annotations are laid over the file's as they come.
    public static func startSharing(_ state: inout EditorState, document: String) {
        state.sharing = SharedReview(document: document, fileAnnotations: state.document.annotations, pages: state.document.pages)
        state.editing.tracksChangedNames = true
        // Changes made before (a journal restored) are compared once connected.
        let changed = changedByEdits(state)
        state.sharing?.dirty = changed
    }

    static func shared(_ state: inout EditorState, _ event: SharedEvent, _ env: EditorEnvironment) -> [EditorEffect] {
        guard state.sharing != nil else { return [] }
        switch event {
        case .link(let link):
            let was = state.sharing?.link
            state.sharing?.link = link
            if case .offline(let reason, let retryIn) = link {
                state.sharing?.awaitingSnapshot = false
                state.sharing?.present = []
                // Said when it happens, and always when no more tries come (a token the server refuses).
                if retryIn == nil || was == .connected {
                    state.message = "Shared session offline: \(reason)" + (retryIn == nil ? "" : "; your changes wait and are sent on reconnecting")
                }
            }
            return []
        case .flushDue:
            return flushShared(&state, env)
        case .frame(let frame):
            return receiveShared(&state, frame, env)
        }
    }

    /// After every event: changes made to annotations are due to be sent after the pause.
    static func noteSharedChanges(_ state: inout EditorState) -> [EditorEffect] {
        guard state.sharing != nil else { return [] }
        let changed = state.editing.takeChangedNames()
        guard !changed.isEmpty else { return [] }
        state.sharing?.dirty.formUnion(changed)
        return [.sharedChangesWaiting]
    }

    private static func receiveShared(_ state: inout EditorState, _ frame: CollabFrame.Server, _ env: EditorEnvironment) -> [EditorEffect] {
        guard var sharing = state.sharing else { return [] }
        switch frame {
        case .welcome(_, let user, let access, _, let snapshot):
            sharing.link = .connected
            sharing.user = user
            sharing.readOnly = access != "write"
            sharing.awaitingSnapshot = snapshot
            state.sharing = sharing
            // What the session makes is the user's: the server writes that name as the author anyway.
            state.editing.reviewer.author = user
            return snapshot ? [] : resume(&state, env)
        case .snapshot(_, _, _, let last):
            do {
                try sharing.replica.apply(frame)
            } catch {
                state.message = "The server's annotations do not fit this PDF: \(error)"
            }
            state.sharing = sharing
            guard last else { return [] }
            state.sharing?.awaitingSnapshot = false
            layOutShared(&state)
            return resume(&state, env)
        case .event(let event):
            return receiveEvents(&state, [event], env)
        case .events(let events):
            return receiveEvents(&state, events, env)
        case .ack(let operation, let seq, let name, let version):
            guard let index = sharing.pending.firstIndex(where: { $0.operation == operation }) else { return [] }
            let answered = sharing.pending.remove(at: index)
            if seq > sharing.replica.head { sharing.acknowledged[operation] = seq }
            sharing.told[AnnotationID(name)] = SharedReview.Told(form: answered.form, version: version, alive: answered.form != nil)
            state.sharing = sharing
            // Changed again while the change was on its way: that is compared now.
            return sharing.dirty.contains(answered.local) ? flushShared(&state, env) : []
        case .refused(let operation, let code, let message, let current, _):
            guard let index = sharing.pending.firstIndex(where: { $0.operation == operation }) else { return [] }
            let refused = sharing.pending.remove(at: index)
            sharing.told[refused.name] = current.map { SharedReview.Told(form: nil, version: $0.version, alive: !$0.deleted) }
            sharing.refusals.append(SharedReview.Refusal(name: refused.name.rawValue, code: code, message: message))
            state.sharing = sharing
            // A reply or state to an annotation deleted meanwhile goes with it, as the server's deletion took the
            // others; said, never silent.
            if code == "deleted" || code == "unknown",
               let reply = state.edits.annotations.added.first(where: { $0.id == refused.local }), reply.isReply {
                dropLocal(&state, [refused.local])
                state.message = "Not shared: \(message): your \(reply.isStateChange ? "review state" : "reply") went with it"
                return []
            }
            // Never dropped in silence: the change stays here, and the line says the server did not take it.
            state.message = "Not shared: \(message) (your change stays in this copy)"
            return []
        case .error(let code, let message):
            state.message = "The server answered \(code): \(message)"
            return []
        case .presence(let users):
            state.sharing?.present = users
            return []
        }
    }

    private static func receiveEvents(_ state: inout EditorState, _ events: [CollabFrame.Event], _ env: EditorEnvironment) -> [EditorEffect] {
        guard var sharing = state.sharing else { return [] }
        let own = Set(sharing.pending.map(\.operation)).union(sharing.acknowledged.keys)
        let local = locallyDefined(state).union(touchedByEdits(state))
        var conflict: (author: String, name: String, deleted: Bool)?
        var news: String?
        var deletedHere: Set<AnnotationID> = []
        for event in events where event.seq > sharing.replica.head {
            do {
                try sharing.replica.apply(.event(event))
            } catch {
                state.message = "A change from \(event.author) does not fit this PDF: \(error)"
            }
            sharing.acknowledged[event.op] = nil
            guard !own.contains(event.op) else { continue }
            news = sharedNews(event, sharing.replica)
            let busy = Set(sharing.pending.map(\.name))
            for entry in event.annotations where entry.deleted && !busy.contains(AnnotationID(entry.name)) {
                // A thread deleted by its author takes this session's replies and states to it along.
                deletedHere.insert(AnnotationID(entry.name))
            }
            for entry in event.annotations where local.contains(AnnotationID(entry.name)) && !entry.deleted {
                conflict = (event.author, entry.name, entry.deleted)
                // Compared again: the server will refuse this session's version, and that refusal is shown.
                sharing.dirty.insert(AnnotationID(entry.name))
            }
        }
        state.sharing = sharing
        if !deletedHere.isEmpty { dropLocal(&state, deletedHere) }
        layOutShared(&state)
        if let conflict {
            state.message = "\(conflict.author) \(conflict.deleted ? "deleted" : "changed") \"\(conflict.name)\", which you changed here"
            return [.sharedChangesWaiting]
        }
        // Who did what, on the message line, unless the line is the user's (a prompt, something being typed).
        if let news, state.focus == .page, state.interaction.activity == .idle { state.message = news }
        return []
    }

    /// "alice added a text box: “Check the total”": what a collaborator's event did, in a line.
    static func sharedNews(_ event: CollabFrame.Event, _ replica: SharedDocumentReplica) -> String {
        let name = AnnotationID(event.annotations.first?.name ?? "")
        let annotation = replica.annotations.first { $0.id == name }
        let what = annotation.map { ($0.isReply ? ($0.isStateChange ? "a review state" : "a reply") : "a " + $0.subtype.label.lowercased()) }
            ?? "an annotation"
        let verb = switch event.action { case .add: "added"; case .modify: "changed"; case .delete: "deleted" }
        let words = annotation?.firstLine.isEmpty == false ? ": “\(annotation!.firstLine.prefix(40))”" : ""
        return "\(event.author) \(verb) \(what)\(words)"
    }

    /// Connected again (or for the first time): every unanswered change is sent again with its operation id (one
    /// the server committed is acknowledged again, not applied twice), then what changed meanwhile.
    private static func resume(_ state: inout EditorState, _ env: EditorEnvironment) -> [EditorEffect] {
        guard let sharing = state.sharing else { return [] }
        let again: [EditorEffect] = sharing.pending.isEmpty || sharing.readOnly ? [] : [.sendShared(sharing.pending.map(\.frame))]
        return again + flushShared(&state, env)
    }

    /// Takes out of the session's edits the replies, states and markup the server deleted (by their names there),
    /// as an operation from elsewhere: undo does not bring them back.
    static func dropLocal(_ state: inout EditorState, _ names: Set<AnnotationID>) {
        guard let sharing = state.sharing else { return }
        var changes: [DocumentChange] = []
        for (index, annotation) in state.edits.annotations.added.enumerated().reversed()
        where names.contains(sharing.sharedName(annotation.id)) || names.contains(annotation.id) {
            changes.append(.removeAnnotation(annotation: annotation, index: index))
        }
        for (index, item) in state.markup.items.enumerated().reversed() where names.contains(sharing.sharedName(item.annotationName)) {
            changes.append(.removeMarkup(item: item, index: index))
        }
        guard !changes.isEmpty else { return }
        state.editing.receive(DocumentOperation(id: state.freshID(), author: sharing.user ?? state.reviewer.author, time: state.now,
                                                changes: changes))
        // What went is gone from the server too: nothing to compare.
        state.sharing?.dirty.subtract(state.editing.takeChangedNames())
        if let id = state.selection, state.markup.item(id) == nil { state.selection = nil }
    }

    /// Quitting a shared session: what the server has is not lost, so nothing asks to save a copy of it; changes it
    /// does not have yet hold `q` back, and `:q!` leaves them in the crash journal, sent when the document is
    /// opened in a session again. Nil outside a shared session.
    static func quitShared(_ state: inout EditorState, force: Bool) -> [EditorEffect]? {
        guard let sharing = state.sharing else { return nil }
        let waiting = sharing.waitingCount + state.editing.changedNamesWaiting
        guard waiting > 0 else { return [.discardJournal, .quit] }
        if force { return [.journalChanged, .quit] }
        state.message = "\(waiting) change\(waiting == 1 ? " has" : "s have") not reached the server yet: wait for \"live\", "
            + "or :q! keeps \(waiting == 1 ? "it" : "them") in the crash journal for next time"
        return []
    }

    // MARK: Laying the server's annotations over the file's

    /// The names this session defines wholly: replies and states it added, and its markup.
    static func locallyDefined(_ state: EditorState) -> Set<AnnotationID> {
        Set(state.edits.annotations.added.map(\.id)).union(markupNames(state))
    }

    /// The session's markup by the names it is shared under. The server's copy of one is listed (replies thread
    /// under it) but neither drawn nor selected on the page: the markup is.
    static func markupNames(_ state: EditorState) -> Set<AnnotationID> {
        Set(state.markup.items.map { state.sharing?.sharedName($0.annotationName) ?? $0.annotationName })
    }

    /// The names this session's edits change relative to the document's annotations (moved, restyled, reworded,
    /// deleted): they keep the version they were changed from.
    static func touchedByEdits(_ state: EditorState) -> Set<AnnotationID> {
        let edits = state.edits.annotations
        return edits.deleted.union(edits.moved.keys).union(edits.restyled.keys).union(edits.changedContents.keys)
    }

    static func changedByEdits(_ state: EditorState) -> Set<AnnotationID> {
        locallyDefined(state).union(touchedByEdits(state))
    }

    /// The document's annotations become the file's with the server's laid over them. Linear in both.
    static func layOutShared(_ state: inout EditorState) {
        guard var sharing = state.sharing else { return }
        let defined = Set(state.edits.annotations.added.map { sharing.sharedName($0.id) })
        let touched = touchedByEdits(state)
        var kept: [AnnotationID: Annotation] = [:]
        if !touched.isEmpty {
            for annotation in state.document.annotations where touched.contains(annotation.id) { kept[annotation.id] = annotation }
        }
        var shared: [AnnotationID: Annotation] = [:]
        for annotation in sharing.replica.annotations { shared[annotation.id] = annotation }
        var laid: [Annotation] = []
        var replaced: Set<AnnotationID> = []
        for annotation in sharing.fileAnnotations {
            if let frozen = kept[annotation.id] {
                laid.append(frozen)
                if frozen != annotation { replaced.insert(annotation.id) }
                shared[annotation.id] = nil
            } else if let server = shared.removeValue(forKey: annotation.id) {
                if defined.contains(annotation.id) { continue }
                laid.append(server)
                if !sameShape(server, annotation) { replaced.insert(annotation.id) }
            } else if sharing.replica.entries[annotation.id.rawValue]?.deleted == true {
                replaced.insert(annotation.id)
            } else {
                laid.append(annotation)
            }
        }
        for annotation in sharing.replica.annotations where shared[annotation.id] != nil && !defined.contains(annotation.id) {
            laid.append(kept[annotation.id] ?? annotation)
        }
        for index in laid.indices { laid[index].order = index }
        sharing.replacedFileNames = replaced
        state.sharing = sharing
        state.document.annotations = laid
        if let selected = state.interaction.selectedAnnotation, !state.annotations.contains(where: { $0.id == selected }) {
            state.interaction.selectedAnnotation = nil
        }
    }

    /// Whether the server's version of a file's annotation looks as the file draws it: its XFDF is all the server
    /// has, so what XFDF carries is compared.
    private static func sameShape(_ server: Annotation, _ file: Annotation) -> Bool {
        server.rect == file.rect && server.subtype == file.subtype && server.contents == file.contents
            && server.drawing.color == file.drawing.color && server.drawing.inkList == file.drawing.inkList
            && server.drawing.fontSize == file.drawing.fontSize
    }

    // MARK: Sending

    /// Compares each annotation changed since the last time with what the server was told, and sends the
    /// differences: additions and changes in the order the annotations are made (an annotation before its
    /// replies), then deletions (a thread's first one only: the server deletes its replies with it).
    static func flushShared(_ state: inout EditorState, _ env: EditorEnvironment) -> [EditorEffect] {
        guard var sharing = state.sharing else { return [] }
        sharing.dirty.formUnion(state.editing.takeChangedNames())
        guard sharing.link == .connected, !sharing.awaitingSnapshot, let user = sharing.user else {
            state.sharing = sharing
            return []
        }
        if sharing.readOnly {
            if !sharing.dirty.isEmpty { state.message = "This document is read-only for you: your changes stay in this copy" }
            sharing.dirty = []
            state.sharing = sharing
            return []
        }
        let busy = Set(sharing.pending.map(\.local))
        let names = sharing.dirty.subtracting(busy)
        guard !names.isEmpty else {
            state.sharing = sharing
            return []
        }
        sharing.dirty.subtract(names)
        let pages = state.document.pages
        var local: [(name: AnnotationID, annotation: Annotation)] = []
        for item in state.markup.items where names.contains(item.annotationName) && item.drawsSomething {
            let name = item.annotationName
            let created = sharing.created[name] ?? state.now
            sharing.created[name] = created
            var annotation = MarkupAnnotations.annotation(for: item, author: user, at: created, measuredBy: env.measurer)
            annotation.modified = state.now
            local.append((name, annotation))
        }
        let markupNames = Set(local.map(\.name))
        // A markup shared once and gone now (deleted, undone) is gone: the server's copy still listed is not it.
        let goneMarkup = names.intersection(sharing.created.keys).subtracting(markupNames)
        for annotation in state.annotations
        where names.contains(annotation.id) && !markupNames.contains(annotation.id) && !goneMarkup.contains(annotation.id) {
            local.append((annotation.id, annotation))
        }
        var frames: [CollabFrame.Client] = []
        func send(_ change: AnnotationChange, local: AnnotationID, form: String?) {
            sharing.pending.append(SharedReview.PendingChange(operation: change.operationID, local: local, name: change.name,
                                                              frame: .change(operation: change.operationID, base: change.baseVersion,
                                                                             xfdf: change.xfdf),
                                                              form: form))
            frames.append(sharing.pending.last!.frame)
        }
        let present = Set(local.map(\.name))
        let made = Set(state.edits.annotations.added.map(\.id)).union(markupNames)
        let wires = Set(present.map(sharing.sharedName))
        var serverHas: [AnnotationID: Annotation] = [:]
        for annotation in sharing.replica.annotations where wires.contains(annotation.id) { serverHas[annotation.id] = annotation }
        for (name, annotation) in local {
            var wire = sharing.sharedName(name)
            var alive = sharing.alive(wire)
            if alive == false, made.contains(name) {
                // Made here again after the server deleted it (an undone deletion): the server keeps a deleted name
                // deleted, so it is shared anew under a new name.
                wire = AnnotationID(state.freshID().uuidString)
                sharing.aliases[name] = wire
                alive = nil
            }
            var sent = annotation
            sent.id = wire
            let form = SharedReview.comparedForm(of: sent, pages: pages)
            let told = sharing.told[wire]?.form
                ?? serverHas[wire].map { SharedReview.comparedForm(of: $0, pages: pages) }
            guard form != told else { continue }
            // An annotation of the file the server never had stays this copy's: sharing it would make it the user's.
            if alive == nil, sharing.fileNames.contains(name) { continue }
            sent.author = user
            if sent.created == nil { sent.created = state.now }
            sent.modified = state.now
            let change = AnnotationChange.writing(sent, pages: pages, operationID: state.freshID().uuidString, author: user,
                                                  baseVersion: alive == nil ? nil : sharing.version(of: wire) ?? 0)
            send(change, local: name, form: form)
        }
        let goneNames = names.subtracting(present)
        let gone = Dictionary(goneNames.map { ($0, sharing.sharedName($0)) }, uniquingKeysWith: { first, _ in first })
            .filter { sharing.alive($0.value) == true }
        let goneWires = Set(gone.values)
        for (name, wire) in gone.sorted(by: { $0.value.rawValue < $1.value.rawValue })
        where !answersAnother(wire, in: goneWires, sharing.replica) {
            let page = sharing.replica.entries[wire.rawValue]?.page ?? 0
            send(AnnotationChange.deleting(wire, pageIndex: page, operationID: state.freshID().uuidString, author: user,
                                           baseVersion: sharing.version(of: wire) ?? 0), local: name, form: nil)
        }
        state.sharing = sharing
        return frames.isEmpty ? [] : [.sendShared(frames)]
    }

    /// Whether `name` answers, directly or through other replies, another annotation of `names`.
    private static func answersAnother(_ name: AnnotationID, in names: Set<AnnotationID>, _ replica: SharedDocumentReplica) -> Bool {
        var current = replica.entries[name.rawValue]?.inReplyTo
        var seen: Set<String> = [name.rawValue]
        while let parent = current, seen.insert(parent).inserted {
            if names.contains(AnnotationID(parent)) { return true }
            current = replica.entries[parent]?.inReplyTo
        }
        return false
    }
}
