import RedlineCore
import TerminalGrid

/// Something that happened, in the past tense. The runner turns terminal input and the results of effects into these.
public enum EditorEvent: Sendable {
    case keyPressed(Key)
    case resized(columns: Int, rows: Int)
    /// The mouse, where the terminal reports one.
    case mouse(MouseEvent)
    case saveFinished(SaveOutcome)
    /// A crash journal with unsaved edits was found for this document on open.
    case journalFound(DocumentEdits)
}

public enum SaveOutcome: Sendable, Equatable {
    case saved(path: String)
    /// The opened file itself was overwritten and reopened: its pages now carry the markup.
    case savedOverOriginal(path: String, document: DocumentDescription)
    /// Nothing was written: the destination exists and the request did not allow overwriting it.
    case destinationExists(path: String)
    case failed(path: String, reason: String)
}
