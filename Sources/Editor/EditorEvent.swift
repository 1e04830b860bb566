import Foundation
import RedlineCore
import TerminalGrid

/// Something that happened, in the past tense. The runner turns terminal input, timers, the progress and
/// results of effects, and messages from elsewhere into these, stamps each (`EventStamp`), and reduces them
/// one at a time.
public enum EditorEvent: Sendable {
    case keyPressed(Key)
    /// A `try…` call of the interaction components' API, from code embedding the editor.
    case interactionRequested(InteractionRequest)
    case resized(columns: Int, rows: Int)
    /// The mouse, where the terminal reports one.
    case mouse(MouseEvent)
    /// Text pasted into the terminal: it goes into text being typed, and never runs as keys.
    case pasted(String)
    /// A running save got one step further.
    case saveProgressed(step: String)
    case saveFinished(SaveOutcome)
    /// A search got through more pages (in the order `SearchRequest.pageOrder` gives); `finished` after the last.
    case searchProgressed(id: UUID, pages: [SearchedPage], finished: Bool)
    /// The runner read the document's outline (once, on open) or a page's links (when it is first shown).
    case outlineRead([OutlineEntry])
    case linksRead(pageIndex: Int, links: [PageLink])
    case wordsRead(pageIndex: Int, words: [PageWord])
    /// A page was not drawn: poppler would never have finished it (`reason` says why).
    case pageNotDrawn(pageIndex: Int, reason: String)
    /// A crash journal with unsaved edits was found for this document on open.
    case journalFound(DocumentEdits, shared: SharedJournal = SharedJournal())
    /// Where the reader left this document last time (not when a page was asked for on the command line).
    case placeRestored(ReadingPlace)
    /// The comment summary `S` asked for was written (`message` says what), or not (`failure` says why: the prompt
    /// comes back with the name to correct).
    case commentSummaryWritten(path: String, message: String = "", failure: String? = nil)
    /// A change someone else made to the document (a collaborator): applied, never undone by local undo.
    case operationReceived(DocumentOperation)
    /// The collaboration server's frames and the state of the link to it, in a shared session.
    case shared(SharedEvent)
}

public enum SaveOutcome: Sendable, Equatable {
    /// `edits` were written: they, and only they, count as saved. `how`: appended to the original or rewritten whole.
    case saved(path: String, edits: DocumentEdits, how: String = "")
    /// The opened file itself was overwritten with `edits` and reopened: its pages now carry the markup.
    case savedOverOriginal(path: String, edits: DocumentEdits, document: DocumentDescription, how: String = "")
    /// Nothing was written: the destination exists and the request did not allow overwriting it.
    case destinationExists(path: String)
    case failed(path: String, reason: String)
}
