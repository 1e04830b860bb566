import RedlineCore

/// Work the runner does for the editor. The reducer never does I/O itself.
public enum EditorEffect: Sendable, Equatable {
    case save(SaveRequest)
    case writeJournal(DocumentEdits)
    case discardJournal
    case quit
}

public struct SaveRequest: Sendable, Equatable {
    public var destination: String
    public var edits: DocumentEdits
    public var allowOverwrite: Bool
    /// Overwrite the opened document itself (`:w!`).
    public var replacesOriginal: Bool

    public init(destination: String, edits: DocumentEdits, allowOverwrite: Bool, replacesOriginal: Bool) {
        self.destination = destination
        self.edits = edits
        self.allowOverwrite = allowOverwrite
        self.replacesOriginal = replacesOriginal
    }
}
