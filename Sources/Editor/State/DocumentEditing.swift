import Foundation
import RedlineCore

/// The document, who is editing it, and every change made to it in this session as operations: the edits
/// are what applying them gives. Local changes can be undone; operations from elsewhere are applied and stay.
public struct DocumentEditing: Sendable {
    public let documentPath: String
    public var document: DocumentDescription { didSet { memo.invalidate() } }
    /// Who edits: in a shared session, the user the server knows (what it writes as every change's author).
    public internal(set) var reviewer: Reviewer
    /// Set in a shared session: the names of the annotations (markup included) operations change are kept until the
    /// session takes them to send.
    var tracksChangedNames = false
    private(set) var changedNames: Set<AnnotationID> = []
    /// Markup to flatten and changes to the annotations, everything not yet saved.
    public private(set) var edits = DocumentEdits() { didSet { memo.invalidate() } }
    private var memo = AnnotationsMemo()
    /// The edits the last save wrote; unsaved changes are the difference.
    public private(set) var savedEdits = DocumentEdits()
    /// Every operation applied since the document was opened (or saved over), in order: what the crash
    /// journal replays.
    public private(set) var operations: [DocumentOperation] = []
    /// The reviewer's own operations, for undo and redo.
    public internal(set) var history = OperationHistory()
    /// In a shared session, the server version each of its annotations' history was last said against
    /// (`rebaseHistory(of:onto:formerly:copyName:)`).
    var rebasedVersions: [AnnotationID: Int] = [:]
    /// Destinations this session wrote: writing one again needs no confirmation.
    public var writtenPaths: Set<String> = []
    /// What `:w` does with the markup (`save_mode` in config.toml); `:wa` and `:wf` say it themselves.
    public var saveMode: MarkupSaveMode = .flatten
    /// How the save under way (or waiting on a question) keeps the markup.
    var savingMarkupAs: MarkupSaveMode = .flatten

    init(documentPath: String, document: DocumentDescription, reviewer: Reviewer) {
        self.documentPath = documentPath
        self.document = document
        self.reviewer = reviewer
    }

    public var isDirty: Bool { edits != savedEdits }

    /// The document's annotations as they will be saved: the file's, with this session's changes.
    var annotations: [Annotation] { memo.annotations { edits.annotations.applied(to: document.annotations) } }

    /// Their threads, in the order `AnnotationThreads.build` gives.
    var threads: [AnnotationThread] { memo.threads { edits.annotations.applied(to: document.annotations) } }

    /// What Tab and clicks may select on a page (`make` gives it when the annotations changed since it was asked).
    func selectableAnnotations(onPage page: Int, _ make: () -> [Annotation]) -> [Annotation] { memo.selectable(onPage: page, make) }

    /// Changes the document's annotations in place (a shared session's few per event): what was made from them is
    /// let go first, so the list is not copied whole.
    mutating func changeAnnotationsInPlace(_ change: (inout [Annotation]) -> Void) {
        memo.release()
        change(&document.annotations)
    }

    /// A shared session's annotations drawn over page `page`.
    func sharedOverlay(onPage page: Int, withFileAnnotations: Bool, _ make: () -> SharedOverlay) -> SharedOverlay {
        memo.overlay(onPage: page, withFileAnnotations: withFileAnnotations, make)
    }

    /// The annotation list's rows for one way of listing them, and the entries the list moves over.
    func annotationRows(_ listing: AnnotationsMemo.Listing, _ make: () -> [AnnotationListRow])
        -> (rows: [AnnotationListRow], entries: ListEntries<AnnotationID>) {
        memo.rows(listing, make)
    }

    /// The annotation named `id` as it will be saved, found without going through them all.
    func annotation(_ id: AnnotationID) -> Annotation? {
        let all = annotations
        guard let index = memo.positions(of: { edits.annotations.applied(to: document.annotations) })[id], all.indices.contains(index) else { return nil }
        return all[index]
    }
    var bookmarkBase: BookmarkList { document.bookmarks }

    /// Makes the change from the current edits to `next` one operation of the reviewer's. Nil when nothing
    /// changed.
    @discardableResult
    mutating func commit(_ next: DocumentEdits, id: UUID, time: PDFDate) -> DocumentOperation? {
        let changes = edits.changes(to: next, bookmarkBase: bookmarkBase)
        guard !changes.isEmpty else { return nil }
        let operation = DocumentOperation(id: id, author: reviewer.author, time: time, changes: changes)
        apply(operation)
        history.record(operation)
        return operation
    }

    /// Makes a change as part of a run (held arrow keys, a mouse drag): while nothing else happened in between,
    /// the run's operation grows to take it in, so the whole run is one undo step.
    mutating func continueRun(_ change: DocumentChange, id: UUID, time: PDFDate) {
        if var last = history.undoable.last, operations.last?.id == last.id, last.changes.count == 1,
           let grown = last.changes[0].continued(by: change) {
            last.changes = [grown]
            edits.apply(change, bookmarkBase: bookmarkBase)
            noteChanged([change])
            history.amendLast(last)
            operations[operations.count - 1] = last
        } else {
            var next = edits
            next.apply(change, bookmarkBase: bookmarkBase)
            commit(next, id: id, time: time)
        }
    }

    /// Grows operation `id`, when it is still the last one made, to take in the change to `next`: an eraser's pass
    /// over many steps is one undo step, each markup it touched changed once in it. False when something else
    /// happened since (the caller then commits a new operation).
    mutating func extend(_ id: UUID, to next: DocumentEdits) -> Bool {
        guard var last = history.undoable.last, last.id == id, operations.last?.id == id else { return false }
        let changes = edits.changes(to: next, bookmarkBase: bookmarkBase)
        guard !changes.isEmpty else { return true }
        for change in changes {
            if let index = last.changes.lastIndex(where: { $0.subject == change.subject }), let grown = last.changes[index].continued(by: change) {
                last.changes[index] = grown
            } else {
                last.changes.append(change)
            }
            edits.apply(change, bookmarkBase: bookmarkBase)
        }
        noteChanged(changes)
        history.amendLast(last)
        operations[operations.count - 1] = last
        return true
    }

    /// An operation someone else made (a collaborator, a restored journal): applied, not undoable here.
    mutating func receive(_ operation: DocumentOperation) {
        apply(operation)
    }

    private mutating func apply(_ operation: DocumentOperation) {
        edits.apply(operation, bookmarkBase: bookmarkBase)
        operations.append(operation)
        noteChanged(operation.changes)
    }

    private mutating func noteChanged(_ changes: [DocumentChange]) {
        guard tracksChangedNames else { return }
        for change in changes { if let name = change.annotationName { changedNames.insert(name) } }
    }

    /// How many names changed since they were last taken.
    var changedNamesWaiting: Int { changedNames.count }

    /// The names operations changed since the last call.
    mutating func takeChangedNames() -> Set<AnnotationID> {
        defer { changedNames = [] }
        return changedNames
    }

    enum UndoOutcome: Equatable {
        /// Done: the changes the operation made (undone or made again).
        case done([DocumentChange])
        case nothing
        /// Someone else changed what the operation changed since: undoing it would overwrite their work. It leaves
        /// the history, so the next undo reaches what came before it.
        case overtaken
    }

    /// Applies the inverse of the reviewer's own last operation, as a new operation.
    mutating func undo(id: UUID, time: PDFDate) -> UndoOutcome {
        guard let last = history.popUndo() else { return .nothing }
        let inverse = last.inverse(id: id, author: reviewer.author, time: time)
        guard edits.fits(inverse, bookmarkBase: bookmarkBase) else { return .overtaken }
        apply(inverse)
        history.pushRedo(last)
        return .done(last.changes)
    }

    /// Applies the last undone operation again, as a new operation.
    mutating func redo(id: UUID, time: PDFDate) -> UndoOutcome {
        guard let undone = history.popRedo() else { return .nothing }
        let again = DocumentOperation(id: id, author: reviewer.author, time: time, changes: undone.changes)
        guard edits.fits(again, bookmarkBase: bookmarkBase) else { return .overtaken }
        apply(again)
        history.pushUndo(again)
        return .done(undone.changes)
    }

    /// A save wrote `saved`: that much counts as saved, whatever was changed while it ran.
    mutating func markSaved(_ saved: DocumentEdits) {
        savedEdits = saved
    }

    /// The opened file itself was overwritten with `saved` and reopened as `reopened`: its pages now carry
    /// that markup. What changed while the save ran stays, as changes to the new document.
    mutating func rebase(onto reopened: DocumentDescription, saved: DocumentEdits, id: UUID, time: PDFDate) {
        let later = saved.changes(to: edits, bookmarkBase: bookmarkBase)
        document = reopened
        edits = DocumentEdits()
        savedEdits = DocumentEdits()
        operations = []
        history = OperationHistory()
        guard !later.isEmpty else { return }
        let carried = DocumentOperation(id: id, author: reviewer.author, time: time, changes: later)
        apply(carried)
        history.record(carried)
    }

    /// What the crash journal holds: the operations since opening, and the draft (text being typed, ink being
    /// drawn) as one more, so a crash in the middle of either loses none of it.
    func journal(withDraft draft: DocumentEdits, time: PDFDate) -> [DocumentOperation] {
        let changes = edits.changes(to: draft, bookmarkBase: bookmarkBase)
        guard !changes.isEmpty else { return operations }
        let draftID = StableUUID.derived(seed: StableHash.fnv1a64(operations.last?.id.uuidString ?? documentPath), item: "draft")
        return operations + [DocumentOperation(id: draftID, author: reviewer.author, time: time, changes: changes)]
    }
}
