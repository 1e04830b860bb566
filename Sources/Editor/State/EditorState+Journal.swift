import RedlineCore

extension EditorState {
    /// What the crash journal must hold: the edits, and text still being typed or ink still being drawn as
    /// if they were committed, so a crash in the middle of either loses none of it.
    public var journalEdits: DocumentEdits {
        var journaled = edits
        switch interaction.activity {
        case .typing(let draft) where !draft.markup.text.isEmpty:
            if let id = draft.editing, let item = journaled.markup.item(id) {
                journaled.markup.replace(item.with(.text(draft.markup)))
            } else if draft.editing == nil {
                journaled.markup.add(MarkupItem(id: draft.id, pageIndex: draft.pageIndex, content: .text(draft.markup)))
            }
        case .inking(let session):
            if let pending = session.pendingItem(inkStyle) { journaled.markup.add(pending) }
        case .commenting(let draft):
            let text = draft.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if var note = draft.placing {
                note.comment = text.isEmpty ? nil : text
                journaled.markup.add(note)
                break
            }
            if !text.isEmpty, var item = journaled.markup.item(draft.markup) {
                item.comment = text
                journaled.markup.replace(item)
            }
        default:
            break
        }
        if let panel = interaction.annotationPanel, let stamp = panel.draftStamp {
            switch panel.input {
            case .reply(let parentID, let text)?:
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !trimmed.isEmpty, let parent = annotations.first(where: { $0.id == parentID }) else { break }
                journaled.annotations.reply(to: parent, text: trimmed, author: reviewer.author, at: stamp.date, id: stamp.id)
            case .edit(let id, let text)?:
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !trimmed.isEmpty else { break }
                journaled.annotations.changeContents(of: id, to: trimmed, at: stamp.date)
            default:
                break
            }
        }
        return journaled
    }

    /// True when nothing would be lost in a crash now: the journal can go.
    public var journalIsUnneeded: Bool { journalEdits == savedEdits }

    /// The operations the crash journal writes: all since opening, with the draft as one more.
    public var journalOperations: [DocumentOperation] { editing.journal(withDraft: journalEdits, time: now) }

    /// In a shared session, what the journal keeps beside the operations: the server's version each change was made
    /// against (restored, it is sent against it, never over what another session did meanwhile) and the server's
    /// annotations this session changed, as it shows them.
    public var journalShared: SharedJournal {
        guard let sharing else { return SharedJournal() }
        let touched = EditorReducer.touchedByEdits(self)
        let unsent = touched.intersection(sharing.dirty.union(sharing.held).union(sharing.pending.map(\.local)))
        var shown: [String: String] = [:]
        for annotation in annotations where unsent.contains(annotation.id) {
            shown[annotation.id.rawValue] = XFDF.document([annotation], pages: document.pages)
        }
        let journaled = Set(markup.items.map(\.annotationName)).union(touched).union(edits.annotations.added.map(\.id))
        var changedAt: [String: PDFDate] = [:], madeAt: [String: PDFDate] = [:]
        for name in journaled {
            if let time = sharing.changedAt[name] { changedAt[name.rawValue] = time }
            if let time = sharing.created[name] ?? sharing.madeAt[name] { madeAt[name.rawValue] = time }
        }
        return SharedJournal(bases: sharing.journalBases(of: journaled), shown: shown, unsent: unsent.map(\.rawValue).sorted(),
                             changedAt: changedAt.isEmpty ? nil : changedAt, madeAt: madeAt.isEmpty ? nil : madeAt)
    }
}
