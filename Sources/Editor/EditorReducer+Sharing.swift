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
                // Said when it happens, when the reason is new (no access yet: the user learns why they wait), and
                // always when no more tries come (a token the server refuses).
                let said = state.sharing?.offlineReasonSaid
                state.sharing?.offlineReasonSaid = reason
                if retryIn == nil || was == .connected || reason != said {
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

    /// Says `text` on the message line, unless the user is typing or drawing there: then once they are done.
    static func tell(_ state: inout EditorState, _ text: String) {
        if state.focus == .page, state.interaction.activity == .idle {
            state.message = text
        } else {
            state.sharing?.notice = text
        }
    }

    /// After every event: changes made to annotations are due to be sent after the pause, and a conflict waiting is
    /// put to the user once nothing is being edited or asked.
    static func noteSharedChanges(_ state: inout EditorState) -> [EditorEffect] {
        guard state.sharing != nil else { return [] }
        if let notice = state.sharing?.notice, state.focus == .page, state.interaction.activity == .idle {
            state.message = notice
            state.sharing?.notice = nil
        }
        if settleSameChanges(&state), state.focus == .page, state.interaction.activity == .idle,
           state.interaction.overlays.isEmpty, let next = state.sharing?.conflicts.removeFirst() {
            state.interaction.overlays.append(.question(next))
        }
        let changed = state.editing.takeChangedNames()
        guard !changed.isEmpty else { return [] }
        let now = state.now
        state.sharing?.noteDirty(changed, at: now)
        return [.sharedChangesWaiting]
    }

    /// Refusals of a change the other session made too (the same move): once the server's version is in, a held
    /// change that says what it says is no conflict and is let go; until it is in, the question waits.
    /// Whether a conflict is ready to be asked (the first in `conflicts`).
    private static func settleSameChanges(_ state: inout EditorState) -> Bool {
        guard var sharing = state.sharing, !sharing.conflicts.isEmpty else { return false }
        let pages = state.document.pages
        var kept: [Confirmation] = []
        var waiting: [Confirmation] = []
        var settled = false
        for conflict in sharing.conflicts {
            guard case .sharedConflict(let local, let shared, _, _) = conflict, let form = sharing.heldForms[local] else {
                kept.append(conflict)
                continue
            }
            let refusedAt = sharing.told[shared]?.version ?? 0
            guard (sharing.replica.version(of: shared) ?? 0) >= refusedAt else {
                waiting.append(conflict)
                continue
            }
            let server = sharing.replica.annotations.last { $0.id == shared }
            let same = form == nil ? server == nil || sharing.alive(shared) == false
                : server.map { SharedReview.comparedForm(of: $0, pages: pages) == form } ?? false
            if same {
                settled = true
                sharing.settle(local)
                sharing.dirty.remove(local)
            } else {
                kept.append(conflict)
            }
        }
        // Those waiting for the server's version go after the others: asked once it is in.
        sharing.conflicts = kept + waiting
        if settled {
            // The refusal said was no loss: the server has what this session sent.
            if sharing.notice?.hasPrefix("Not shared:") == true { sharing.notice = nil }
            if state.message?.hasPrefix("Not shared:") == true { state.message = "Another session of yours made the same change: nothing to share" }
        }
        state.sharing = sharing
        return !kept.isEmpty
    }

    private static func receiveShared(_ state: inout EditorState, _ frame: CollabFrame.Server, _ env: EditorEnvironment) -> [EditorEffect] {
        guard var sharing = state.sharing else { return [] }
        switch frame {
        case .welcome(_, let user, let access, _, let snapshot):
            // Whatever said it was offline (the link tries again in between) is answered, even when something was
            // said since (an undo made offline: kept beside it, it read as if made just now).
            if state.message?.hasPrefix("Shared session offline") == true || sharing.offlineReasonSaid != nil {
                state.message = sharing.user == nil ? "Shared session connected" : "Shared session connected again"
            }
            sharing.offlineReasonSaid = nil
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
            // Taken: what the journal showed of it is no one's to keep any more.
            sharing.restoredShown[answered.local] = nil
            if seq > sharing.replica.head { sharing.acknowledged[operation] = seq }
            sharing.told[AnnotationID(name)] = SharedReview.Told(form: answered.form, version: version, alive: answered.form != nil)
            state.sharing = sharing
            // Changed again while the change was on its way: that is compared now.
            // Taken by the server: the crash journal no longer holds it as unsent.
            return (sharing.dirty.contains(answered.local) ? flushShared(&state, env) : []) + [.journalChanged]
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
                tell(&state, "Not shared: \(message): your \(reply.isStateChange ? "review state" : "reply") went with it")
                return []
            }
            // Never dropped in silence: the change stays here, and the line says the server did not take it. One's
            // own annotation changed or deleted in another session: the user chooses, once nothing is being edited.
            if code == "stale" || code == "deleted" {
                // Markup deleted here is listed no more: the server's copy names it.
                let words = state.annotations.first { $0.id == refused.name }?.firstLine
                    ?? state.markup.items.first { $0.annotationName == refused.local }.flatMap { if case .text(let text) = $0.content { text.text } else { nil } }
                    ?? state.sharing?.replica.annotations.last { $0.id == refused.name }?.firstLine
                    ?? ""
                // Short: the question that follows must keep its keys on one line.
                let what = SharedReview.quoted(words)
                let why = code == "stale" ? "\(what) changed meanwhile" : "\(what) was deleted meanwhile"
                tell(&state, "Not shared: \(why)" + (code == "stale" ? " (by another session of yours?)" : ""))
                // Held until the user chooses: sent again now, against the newest version, it would overwrite.
                state.sharing?.held.insert(refused.local)
                state.sharing?.heldForms[refused.local] = .some(refused.form)
                if case .change(_, let base?, _) = refused.frame { state.sharing?.heldBases[refused.local] = base }
                state.sharing?.conflicts.append(.sharedConflict(local: refused.local, shared: refused.name, message: why,
                                                                deletion: refused.form == nil))
                _ = noteSharedChanges(&state)
            } else {
                tell(&state, "Not shared: \(message) (your change stays in this copy)")
            }
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
        let touched = touchedByEdits(state)
        let local = locallyDefined(state).union(touched)
        guard var sharing = state.sharing else { return [] }
        // Taken out while it changes, so that the replica's annotations are not copied whole for one event.
        state.sharing = nil
        let own = Set(sharing.pending.map(\.operation)).union(sharing.acknowledged.keys)
        var conflict: (author: String, name: String, deleted: Bool)?
        var news: String?
        var deletedHere: Set<AnnotationID> = []
        var lostToDeletion: [(item: MarkupItem, wire: AnnotationID)] = []
        var lostEdits: [Annotation] = []
        // The session's own annotations that are not markup (a copy kept in a conflict, a reply), by their names there.
        var addedByWire: [AnnotationID: Annotation] = [:]
        for annotation in state.edits.annotations.added { addedByWire[sharing.sharedName(annotation.id)] = annotation }
        var followAdded: Set<AnnotationID> = []
        // The session's markup by the name it is shared under: changed elsewhere (another session of the user's) while
        // it has no change of its own waiting here, it follows the server.
        var markupByWire: [AnnotationID: MarkupItem] = [:]
        for item in state.markup.items { markupByWire[sharing.sharedName(item.annotationName)] = item }
        let waitingHere = sharing.dirty.union(sharing.pending.map(\.local)).union(sharing.held)
        var follow: [AnnotationID: MarkupItem] = [:]
        var settled: Set<AnnotationID> = []
        // What the server had of each annotation before this session's own change to it came back: what an undo of
        // that change restores.
        var formerly: [AnnotationID: Annotation] = [:]
        for event in events where event.seq > sharing.replica.head {
            if own.contains(event.op) {
                for entry in event.annotations where formerly[AnnotationID(entry.name)] == nil {
                    formerly[AnnotationID(entry.name)] = sharing.replica.annotations.last { $0.id.rawValue == entry.name }
                }
            }
            // What a deletion took is described from before it.
            let deletedNews = event.action == .delete && !own.contains(event.op) ? sharedNews(event, sharing.replica) : nil
            do {
                try sharing.replica.apply(.event(event))
            } catch {
                state.message = "A change from \(event.author) does not fit this PDF: \(error)"
            }
            sharing.acknowledged[event.op] = nil
            guard !own.contains(event.op) else {
                // This session's own change, now the server's: an edit with nothing more waiting is settled, and
                // what others do to the annotation from here on shows.
                for entry in event.annotations { settled.insert(AnnotationID(entry.name)) }
                continue
            }
            news = deletedNews ?? sharedNews(event, sharing.replica)
            let busy = Set(sharing.pending.map(\.name))
            for entry in event.annotations where entry.deleted && !busy.contains(AnnotationID(entry.name)) {
                let wire = AnnotationID(entry.name)
                if let item = markupByWire[wire], waitingHere.contains(item.annotationName) {
                    // The session's markup, changed here and not sent yet (or already asked about): the change is not
                    // dropped in silence; the user is asked, as the server's refusal of it would ask.
                    if !sharing.held.contains(item.annotationName) { lostToDeletion.append((item, wire)) }
                    continue
                }
                if touched.contains(wire), waitingHere.contains(wire) {
                    // One of the server's, changed here and not sent yet: kept as this session shows it, and asked.
                    if let shown = state.annotations.first(where: { $0.id == wire }) {
                        sharing.lostToDeletion[wire] = shown
                        if !sharing.held.contains(wire) { lostEdits.append(shown) }
                    }
                    continue
                }
                // A thread deleted by its author takes this session's replies and states to it along.
                deletedHere.insert(wire)
            }
            for entry in event.annotations where local.contains(AnnotationID(entry.name)) && !entry.deleted {
                if let item = markupByWire[AnnotationID(entry.name)], !waitingHere.contains(item.annotationName) {
                    follow[AnnotationID(entry.name)] = item
                    continue
                }
                if let added = addedByWire[AnnotationID(entry.name)], !waitingHere.contains(added.id) {
                    followAdded.insert(AnnotationID(entry.name))
                    continue
                }
                conflict = (event.author, entry.name, entry.deleted)
                // Compared again: the server will refuse this session's version, and that refusal is shown.
                sharing.dirty.insert(AnnotationID(entry.name))
            }
        }
        for shown in lostEdits { news = sharing.askAboutDeletion(local: shown.id, shared: shown.id, words: shown.firstLine) }
        for (item, wire) in lostToDeletion {
            let words = if case .text(let text) = item.content { text.text } else { "" }
            news = sharing.askAboutDeletion(local: item.annotationName, shared: wire, words: words)
        }
        let waitingNow = sharing.dirty.union(sharing.pending.map(\.local)).union(sharing.held)
        let settledEdits = settled.intersection(touchedByEdits(state)).subtracting(waitingNow)
            .filter { name in sharing.aliases[name] == nil && !sharing.aliases.values.contains(name) }
        state.sharing = sharing
        if !follow.isEmpty { followServer(&state, follow) }
        if !followAdded.isEmpty { followServer(&state, added: followAdded.compactMap { addedByWire[$0] }) }
        if !settledEdits.isEmpty {
            for name in settledEdits.sorted(by: { $0.rawValue < $1.rawValue }) {
                let version = state.sharing?.replica.entries[name.rawValue]?.version ?? 0
                let copyName = AnnotationID(state.freshID().uuidString)
                state.editing.rebaseHistory(of: name, onto: version, formerly: formerly[name], copyName: copyName)
                revert(&state, name, adding: nil)
            }
            state.sharing?.dirty.subtract(state.editing.takeChangedNames())
            layOutShared(&state)
        }
        let repliesBefore = state.edits.annotations.added.count
        if !deletedHere.isEmpty { dropLocal(&state, deletedHere) }
        let repliesGone = repliesBefore - state.edits.annotations.added.count
        // The crash journal says what the server has not taken yet: written again when that changed here (a change
        // settled by its echo, followed, dropped or held), so a restore never makes again what the server has.
        let journal: [EditorEffect] = settledEdits.isEmpty && follow.isEmpty && followAdded.isEmpty && deletedHere.isEmpty
            && lostToDeletion.isEmpty && lostEdits.isEmpty ? [] : [.journalChanged]
        layOutShared(&state, changed: Set(events.flatMap(\.annotations).map { AnnotationID($0.name) }))
        if let conflict {
            let words = state.annotations.first { $0.id.rawValue == conflict.name }?.firstLine ?? ""
            let what = words.isEmpty ? "an annotation of yours" : "“\(words.prefix(40))”"
            let who = conflict.author == state.sharing?.user ? "Another session of yours" : conflict.author
            tell(&state, "\(who) \(conflict.deleted ? "deleted" : "changed") \(what), which you changed here")
            return [.sharedChangesWaiting] + journal
        }
        // Who did what, on the message line, unless the line is the user's (a prompt, something being typed).
        if let news, state.focus == .page, state.interaction.activity == .idle {
            state.message = news + (repliesGone > 0 ? " (your \(repliesGone == 1 ? "reply or state" : "\(repliesGone) replies and states") to it went with it)" : "")
        }
        return journal
    }

    /// "alice added a text box: “Check the total”": what a collaborator's event did, in a line.
    static func sharedNews(_ event: CollabFrame.Event, _ replica: SharedDocumentReplica) -> String {
        let name = AnnotationID(event.annotations.first?.name ?? "")
        let annotation = replica.annotations.first { $0.id == name }
        let what = annotation.map { annotation -> String in
            if annotation.isReply { return annotation.isStateChange ? "a review state" : "a reply" }
            let label = annotation.subtype.label.lowercased()
            return ("aeiou".contains(label.first ?? "x") ? "an " : "a ") + label
        } ?? "an annotation"
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

    /// A refused change kept as a new annotation: a markup is shared under a new name; an annotation of the server's
    /// changed here becomes a new one of the session's, and the server's is left as it is.
    static func keepAsNew(_ state: inout EditorState, local: AnnotationID, shared: AnnotationID) -> [EditorEffect] {
        guard state.sharing != nil else { return [] }
        // What was shown of it, taken before the question's state goes: the copy is made from it.
        let kept = state.sharing?.restoredShown[local] ?? state.annotations.first(where: { $0.id == local }) ?? state.sharing?.lostToDeletion[local]
        state.sharing?.settle(local)
        state.message = "Yours is shared as a new annotation" + (state.sharing?.alive(shared) == false ? "" : "; the other stays as it was")
        if let index = state.markup.items.firstIndex(where: { $0.annotationName == local }) {
            // The markup becomes a new annotation of its own name; the server's keeps the old name, and is listed
            // and drawn as the server has it, like any other annotation.
            let item = state.markup.items[index]
            let renamed = MarkupItem(id: MarkupID(state.freshID()), pageIndex: item.pageIndex, content: item.content)
            state.editing.receive(DocumentOperation(id: state.freshID(), author: state.reviewer.author, time: state.now,
                                                    changes: [.removeMarkup(item: item, index: index), .insertMarkup(item: renamed, index: index)]))
            state.sharing?.dirty.subtract(state.editing.takeChangedNames())
            state.sharing?.forget(markup: local)
            state.sharing?.dirty.insert(renamed.annotationName)
            if state.selection == item.id { state.selection = renamed.id }
            layOutShared(&state)
            return [.sharedChangesWaiting, .journalChanged]
        }
        guard var mine = kept else { return [] }
        mine.id = AnnotationID(state.freshID().uuidString)
        mine.inReplyTo = nil
        revert(&state, local, adding: mine)
        // What the user was working on is theirs, now under its new name: the selection goes with it.
        if state.interaction.selectedAnnotation == local { state.interaction.selectedAnnotation = mine.id }
        layOutShared(&state)
        return [.sharedChangesWaiting, .journalChanged]
    }

    /// A refused deletion made all the same: sent again against the server's newest version, so the other session's
    /// change goes with it.
    static func deleteAllTheSame(_ state: inout EditorState, local: AnnotationID, shared: AnnotationID) -> [EditorEffect] {
        guard state.sharing != nil else { return [] }
        state.sharing?.settle(local)
        state.sharing?.editBase[shared] = nil
        state.sharing?.dirty.insert(local)
        state.message = "Deleted all the same: the other session's change goes with it"
        return [.sharedChangesWaiting, .journalChanged]
    }

    /// A refused change given up for what the server has.
    static func takeTheServers(_ state: inout EditorState, local: AnnotationID, shared: AnnotationID) {
        state.sharing?.settle(local)
        state.message = "Took the server's: your change there is undone"
        state.sharing?.dirty.remove(local)
        if state.sharing?.created[local] != nil || state.sharing?.markupListed.keys.contains(local) == true,
           !state.markup.items.contains(where: { $0.annotationName == local }) {
            // Markup deleted here: the server's copy stands, listed and drawn as the server has it (an annotation of
            // the user's, moved and changed like any other).
            if state.sharing?.alive(shared) == true { state.sharing?.forget(markup: local) }
            layOutShared(&state)
            return
        }
        if let item = state.markup.items.first(where: { $0.annotationName == local }) {
            if state.sharing?.alive(shared) == true {
                followServer(&state, [shared: item])
            } else {
                dropLocal(&state, [shared])
                state.sharing?.forget(markup: local)
            }
        } else {
            revert(&state, local, adding: nil)
        }
        layOutShared(&state)
    }

    /// Undoes, as an operation from elsewhere, what this session changed of annotation `id` (and adds `added`); the
    /// caller lays the list out again.
    private static func revert(_ state: inout EditorState, _ id: AnnotationID, adding added: Annotation?) {
        let edits = state.edits.annotations
        var changes: [DocumentChange] = []
        if let move = edits.moved[id] { changes.append(.moveAnnotation(id: id, before: move, after: nil)) }
        if let restyle = edits.restyled[id] { changes.append(.restyleAnnotation(id: id, before: restyle, after: nil)) }
        if let contents = edits.changedContents[id] { changes.append(.changeContents(id: id, before: contents, after: nil)) }
        if edits.deleted.contains(id) { changes.append(.deleteAnnotation(id: id, deleted: false)) }
        if let index = edits.added.firstIndex(where: { $0.id == id }) {
            changes.append(.removeAnnotation(annotation: edits.added[index], index: index))
        }
        if let added { changes.append(.insertAnnotation(annotation: added, index: edits.added.count)) }
        guard !changes.isEmpty else { return }
        state.editing.receive(DocumentOperation(id: state.freshID(), author: state.reviewer.author, time: state.now, changes: changes))
    }

    /// The session's markup made what the server has of it (by the names it is shared under), as an operation from
    /// elsewhere: undo does not take it back. Markup the painter cannot be drawn from the server's version stays.
    static func followServer(_ state: inout EditorState, _ items: [AnnotationID: MarkupItem]) {
        guard let sharing = state.sharing else { return }
        var changes: [DocumentChange] = []
        for (wire, item) in items.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            guard let server = sharing.replica.annotations.last(where: { $0.id == wire }),
                  let drawn = MarkupAnnotations.item(for: server) else { continue }
            let followed = MarkupItem(id: item.id, pageIndex: server.pageIndex, content: drawn.content)
            if followed != item { changes.append(.replaceMarkup(before: item, after: followed)) }
        }
        guard !changes.isEmpty else { return }
        state.editing.receive(DocumentOperation(id: state.freshID(), author: sharing.user ?? state.reviewer.author, time: state.now,
                                                changes: changes))
        // What the server has is nothing to send; listed as the server has it.
        let followed = state.editing.takeChangedNames()
        state.sharing?.dirty.subtract(followed)
        for name in followed { state.sharing?.markupListed[name] = nil }
    }

    /// The session's own annotations that are not markup made what the server has of them, as an operation from
    /// elsewhere: another session of the user's changed them while nothing of theirs waited here.
    static func followServer(_ state: inout EditorState, added: [Annotation]) {
        guard let sharing = state.sharing else { return }
        var changes: [DocumentChange] = []
        for mine in added.sorted(by: { $0.id.rawValue < $1.id.rawValue }) {
            guard var server = sharing.replica.annotations.last(where: { $0.id == sharing.sharedName(mine.id) }) else { continue }
            server.id = mine.id
            server.inReplyTo = mine.inReplyTo
            if server != mine { changes.append(.replaceAnnotation(before: mine, after: server)) }
        }
        guard !changes.isEmpty else { return }
        state.editing.receive(DocumentOperation(id: state.freshID(), author: sharing.user ?? state.reviewer.author, time: state.now,
                                                changes: changes))
        state.sharing?.dirty.subtract(state.editing.takeChangedNames())
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
        // What went is gone from the server too: nothing to compare, and nothing of it listed.
        let gone = state.editing.takeChangedNames()
        state.sharing?.dirty.subtract(gone)
        for name in gone where state.sharing?.markupListed[name] != nil { state.sharing?.markupListed[name] = nil }
        if let id = state.selection, state.markup.item(id) == nil { state.selection = nil }
    }
}
