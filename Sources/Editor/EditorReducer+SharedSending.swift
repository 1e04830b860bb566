import RedlineCore

/// What a shared session sends: each annotation changed since the last time, compared with what the server has,
/// as one change; and what quitting does with changes the server does not have yet.
extension EditorReducer {
    /// Quitting a shared session: what the server has is not lost, so nothing asks to save a copy of it; changes it
    /// does not have yet hold `q` back, and `:q!` leaves them in the crash journal, sent when the document is
    /// opened in a session again. Nil outside a shared session.
    static func quitShared(_ state: inout EditorState, force: Bool) -> [EditorEffect]? {
        guard let sharing = state.sharing else { return nil }
        let waiting = sharing.waitingCount + state.editing.changedNamesWaiting
        guard waiting > 0 else { return [.discardJournal, .quit] }
        if force { return [.journalChanged, .quit] }
        // Short enough for an 80-column line.
        state.message = "\(waiting) change\(waiting == 1 ? "" : "s") not on the server yet: q once it says live · "
            + ":q! keeps \(waiting == 1 ? "it" : "them") for next time"
        return []
    }

    /// Compares each annotation changed since the last time with what the server was told, and sends the
    /// differences: additions and changes in the order the annotations are made (an annotation before its
    /// replies), then deletions (a thread's first one only: the server deletes its replies with it).
    static func flushShared(_ state: inout EditorState, _ env: EditorEnvironment) -> [EditorEffect] {
        guard state.sharing != nil else { return [] }
        let now = state.now
        state.sharing?.noteDirty(state.editing.takeChangedNames(), at: now)
        let changed = state.sharing?.dirty ?? []
        let aliases = state.sharing?.aliases
        let effects = sendChanges(&state, env)
        listMarkup(&state, changed: changed, env)
        if state.sharing?.aliases != aliases { layOutShared(&state) }
        return effects
    }

    /// The session's markup changed since the last time, listed as it is here (online or not): the list has what the
    /// page shows, before the server echoes it.
    private static func listMarkup(_ state: inout EditorState, changed: Set<AnnotationID>, _ env: EditorEnvironment) {
        guard var sharing = state.sharing, !changed.isEmpty else { return }
        let author = sharing.user ?? state.reviewer.author
        var relisted: Set<AnnotationID> = []
        var present: Set<AnnotationID> = []
        for item in state.markup.items where changed.contains(item.annotationName) && item.drawsSomething {
            let name = item.annotationName
            present.insert(name)
            var annotation = MarkupAnnotations.annotation(for: item, author: author, at: sharing.created[name] ?? sharing.madeAt[name] ?? sharing.changedAt[name] ?? state.now,
                                                          onPage: state.document.pages[item.pageIndex].displaySize,
                                                          measuredBy: env.measurer)
            annotation.modified = sharing.changedAt[name] ?? state.now
            let wire = sharing.sharedName(name)
            if sharing.alive(wire) == true, let server = sharing.replica.annotations.last(where: { $0.id == wire }) {
                // Back as the server has it (a deletion undone before it was sent): listed as shared, dates included.
                var mine = annotation
                mine.id = wire
                mine.author = server.author
                if SharedReview.comparedForm(of: mine, pages: state.document.pages) == SharedReview.comparedForm(of: server, pages: state.document.pages) {
                    var listed = server
                    listed.id = name
                    sharing.markupListed[name] = listed
                    relisted.insert(wire)
                    continue
                }
            }
            // As every other editor reads it from the server (XFDF keeps four decimals), so that all list it alike.
            let xfdf = XFDF.document([annotation], pages: state.document.pages)
            sharing.markupListed[name] = (try? XFDF.command(from: Array(xfdf.utf8), pages: state.document.pages))?.add.first ?? annotation
            relisted.insert(sharing.sharedName(name))
        }
        // Only markup listed before: a name the session's markup left for good (the server's copy taken in a conflict)
        // is an annotation like any other.
        for name in changed.subtracting(present) where sharing.markupListed[name] != nil {
            sharing.markupListed[name] = Annotation??.some(nil)
            relisted.insert(sharing.sharedName(name))
        }
        state.sharing = sharing
        if !relisted.isEmpty { layOutShared(&state, changed: relisted) }
    }

    private static func sendChanges(_ state: inout EditorState, _ env: EditorEnvironment) -> [EditorEffect] {
        guard var sharing = state.sharing else { return [] }
        guard sharing.link == .connected, !sharing.awaitingSnapshot, let user = sharing.user else {
            // Offline, a change undone or made back is no longer one to send, nor counted as waiting.
            if !sharing.awaitingSnapshot, let user = sharing.user { dropUndone(&sharing, state, env, user: user) }
            state.sharing = sharing
            return []
        }
        if sharing.readOnly {
            if !sharing.dirty.isEmpty { state.message = "This document is read-only for you: your changes stay in this copy" }
            sharing.dirty = []
            state.sharing = sharing
            return []
        }
        let busy = Set(sharing.pending.map(\.local)).union(sharing.held)
        let names = sharing.dirty.subtracting(busy)
        guard !names.isEmpty else {
            state.sharing = sharing
            return []
        }
        sharing.dirty.subtract(names)
        let pages = state.document.pages
        let local = annotations(named: names, sharing, state, env, user: user)
        let markupNames = Set(local.lazy.filter(\.isMarkup).map(\.name))
        for (name, _, isMarkup) in local where isMarkup {
            // Dated when it was made and changed here, not when it reached the server (after being offline).
            sharing.created[name] = sharing.created[name] ?? sharing.madeAt[name] ?? sharing.changedAt[name] ?? state.now
        }
        var frames: [CollabFrame.Client] = []
        var notice: String?
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
        let toldForms = toldForms(of: wires, sharing, pages: pages)
        for (name, annotation, _) in local {
            var wire = sharing.sharedName(name)
            var alive = sharing.alive(wire)
            if alive == false, made.contains(name), let base = sharing.editBase[wire], let deletedAt = sharing.version(of: wire), deletedAt > base {
                // Deleted elsewhere after this change to it began (a journal restored after a crash, a race): the user
                // chooses, as when the server refuses a change to what another session deleted.
                notice = sharing.askAboutDeletion(local: name, shared: wire, words: annotation.firstLine)
                sharing.heldBases[name] = base
                sharing.dirty.insert(name)
                continue
            }
            if alive == false, made.contains(name) {
                // Made here again after the server deleted it (an undone deletion): the server keeps a deleted name
                // deleted, so it is shared anew under a new name; unless the server has it already under another
                // (a journal restored after a crash replays the undo that shared it so).
                if let twin = twin(of: annotation, user: user, sharing, pages: pages, taken: made) {
                    sharing.aliases[name] = twin
                    continue
                }
                wire = AnnotationID(state.freshID().uuidString)
                sharing.aliases[name] = wire
                alive = nil
            }
            var sent = annotation
            sent.id = wire
            if let at = sharing.changedBackAt.removeValue(forKey: name) { sent.modified = at }
            let form = SharedReview.comparedForm(of: sent, pages: pages)
            let told = toldForms(wire)
            // The same as the server has (another session did the same): nothing to send, and the next change here
            // is made on the server's version, not on the one this change began from.
            guard form != told else {
                sharing.editBase[wire] = nil
                continue
            }
            // An annotation of the file the server never had stays this copy's: sharing it would make it the user's.
            if alive == nil, sharing.fileNames.contains(name) { continue }
            sent.author = user
            if sent.created == nil { sent.created = state.now }
            // When it was changed here (a reply when it was written, a move when it was made); else now.
            if sent.modified == nil { sent.modified = state.now }
            let change = AnnotationChange.writing(sent, pages: pages, operationID: state.freshID().uuidString, author: user,
                                                  baseVersion: alive == nil ? nil : sharing.editBase[wire] ?? sharing.version(of: wire) ?? 0)
            sharing.editBase[wire] = nil
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
                                           baseVersion: sharing.editBase[wire] ?? sharing.version(of: wire) ?? 0), local: name, form: nil)
            sharing.editBase[wire] = nil
        }
        state.sharing = sharing
        if let notice { tell(&state, notice) }
        return frames.isEmpty ? [] : [.sendShared(frames)]
    }

    /// `names` as they are here, as the server would be sent them: the session's markup made into annotations, and
    /// the annotations changed here (`isMarkup` false).
    private static func annotations(named names: Set<AnnotationID>, _ sharing: SharedReview, _ state: EditorState,
                                    _ env: EditorEnvironment, user: String) -> [(name: AnnotationID, annotation: Annotation, isMarkup: Bool)] {
        var local: [(name: AnnotationID, annotation: Annotation, isMarkup: Bool)] = []
        for item in state.markup.items where names.contains(item.annotationName) && item.drawsSomething {
            let name = item.annotationName
            let created = sharing.created[name] ?? sharing.madeAt[name] ?? sharing.changedAt[name] ?? state.now
            var annotation = MarkupAnnotations.annotation(for: item, author: user, at: created,
                                                          onPage: state.document.pages[item.pageIndex].displaySize, measuredBy: env.measurer)
            annotation.modified = sharing.changedAt[name] ?? state.now
            local.append((name, annotation, true))
        }
        let markupNames = Set(local.map(\.name))
        // A markup shared once and gone now (deleted, undone) is gone: the server's copy still listed is not it.
        let goneMarkup = names.intersection(sharing.created.keys).subtracting(markupNames)
        // The list's copies of the markup are the markup's, never annotations of their own to share.
        let listedMarkup = Set(sharing.markupListed.keys).union(sharing.markupListed.keys.map(sharing.sharedName))
        for annotation in state.annotations
        where names.contains(annotation.id) && !markupNames.contains(annotation.id) && !goneMarkup.contains(annotation.id)
            && !listedMarkup.contains(annotation.id) {
            local.append((annotation.id, fitted(annotation, state.edits.annotations, pages: state.document.pages, env), false))
        }
        return local
    }

    /// What the server was last told of each of `wires`, as compared (the change sent, else its own copy): the
    /// server's copies found in one pass, not one search per name.
    private static func toldForms(of wires: Set<AnnotationID>, _ sharing: SharedReview, pages: [PageGeometry]) -> (AnnotationID) -> String? {
        var serverHas: [AnnotationID: Annotation] = [:]
        for annotation in sharing.replica.annotations where wires.contains(annotation.id) { serverHas[annotation.id] = annotation }
        return { wire in sharing.told[wire]?.form ?? serverHas[wire].map { SharedReview.comparedForm(of: $0, pages: pages) } }
    }

    /// Forgets the changes waiting that came back to what the server was last told (a move undone, a deletion
    /// undone, markup made and deleted before it was sent): sending them would send nothing.
    private static func dropUndone(_ sharing: inout SharedReview, _ state: EditorState, _ env: EditorEnvironment, user: String) {
        let names = sharing.dirty.subtracting(sharing.pending.map(\.local)).subtracting(sharing.held)
        guard !names.isEmpty else { return }
        let pages = state.document.pages
        var back: Set<AnnotationID> = []
        let local = annotations(named: names, sharing, state, env, user: user)
        let toldForms = toldForms(of: Set(local.map { sharing.sharedName($0.name) }), sharing, pages: pages)
        for (name, annotation, _) in local {
            let wire = sharing.sharedName(name)
            guard sharing.alive(wire) == true else { continue }
            var sent = annotation
            sent.id = wire
            if SharedReview.comparedForm(of: sent, pages: pages) == toldForms(wire) { back.insert(name) }
        }
        // Gone here and never on the server: nothing to delete there.
        let present = Set(local.map(\.name))
        for name in names.subtracting(present) where sharing.alive(sharing.sharedName(name)) != true { back.insert(name) }
        for name in back { sharing.editBase[sharing.sharedName(name)] = nil }
        sharing.dirty.subtract(back)
    }

    /// One of the server's annotations given new words or a new size, with the box it now needs, as a save writes it
    /// (`AnnotationRedrawing`): the box the painter's words take, or one grown to hold every line where readers draw
    /// it. Others would be shown the new words cut to the old box.
    private static func fitted(_ annotation: Annotation, _ edits: AnnotationEdits, pages: [PageGeometry], _ env: EditorEnvironment) -> Annotation {
        guard edits.changedContents[annotation.id] != nil || edits.restyled[annotation.id] != nil,
              pages.indices.contains(annotation.pageIndex) else { return annotation }
        guard let item = MarkupAnnotations.redrawnItem(of: annotation, after: edits) else {
            return MarkupAnnotations.grownToHoldItsWords(annotation, pageSize: pages[annotation.pageIndex].displaySize, measuredBy: env.measurer)
        }
        var now = annotation
        now.rect = MarkupAnnotations.rect(for: item, measuredBy: env.measurer)
        return now
    }

    /// A live annotation of the user's on the server that is `annotation` under another name, and no other
    /// annotation of the session's: what an undone deletion was shared as.
    private static func twin(of annotation: Annotation, user: String, _ sharing: SharedReview, pages: [PageGeometry],
                             taken: Set<AnnotationID>) -> AnnotationID? {
        let claimed = Set(sharing.aliases.values).union(taken)
        var bare = annotation
        bare.id = "twin"
        let form = SharedReview.comparedForm(of: bare, pages: pages)
        return sharing.replica.annotations.first { candidate in
            guard candidate.author == user, candidate.pageIndex == annotation.pageIndex, !claimed.contains(candidate.id),
                  sharing.replica.entries[candidate.id.rawValue]?.deleted == false else { return false }
            var other = candidate
            other.id = "twin"
            return SharedReview.comparedForm(of: other, pages: pages) == form
        }?.id
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
