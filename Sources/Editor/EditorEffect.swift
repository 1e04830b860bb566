import Foundation
import RedlineCore

/// Work the runner does for the editor. The reducer never does I/O itself.
public enum EditorEffect: Sendable, Equatable {
    /// Runs off the loop; progress and the outcome come back as events.
    case save(SaveRequest)
    /// The crash journal is behind the edits: the runner writes `journalOperations` within its debounce
    /// interval (or discards the journal when nothing unsaved is left).
    case journalChanged
    case discardJournal
    /// The user declined to restore the journal: keep it out of the way rather than delete it.
    case setJournalAside
    case quit
    /// Search the document's pages off the loop, sending `searchProgressed` events back.
    case search(SearchRequest)
    /// Stop a search still running: its results are no longer wanted.
    case stopSearch(UUID)
    /// Put text on the terminal's clipboard (OSC 52: over SSH, and in tmux with `set-clipboard on`).
    case copyToClipboard(String)
    /// Open a URI with the `open_command` the user configured (never asked for unless there is one).
    case openURI(String)
    /// An interaction component activated or refused: for `--events FILE` and the callback commands of
    /// config.toml (only when `Interactions.reportsActivations` is on).
    case interactionReported(InteractionReport)
    /// A shared session's changes to send to the server, in order (the runner's link sends them when connected).
    case sendShared([CollabFrame.Client])
    /// Annotations changed in a shared session: the runner sends `.shared(.flushDue)` once
    /// `EditorReducer.sharedPause` has passed without another such effect.
    case sharedChangesWaiting
    /// Write the comment summary of the threads a filter keeps (`S` in the annotation list).
    case writeCommentSummary(CommentSummaryRequest)
}

/// A comment summary to write: the annotations as they will be saved, the list's filter, and where.
public struct CommentSummaryRequest: Sendable, Equatable {
    public typealias Format = CommentSummaryFormat

    public var path: String
    public var format: Format
    public var filter: CommentFilter
    public var annotations: [Annotation]
    public var documentName: String
}

public struct SaveRequest: Sendable, Equatable {
    public var destination: String
    /// Exactly what this save writes: edits made while it runs are not part of it.
    public var edits: DocumentEdits
    public var allowOverwrite: Bool
    /// Overwrite the opened document itself (`:w!`).
    public var replacesOriginal: Bool
    /// The overwrite is allowed only because this session wrote the file: if something else has put another
    /// file there since, the saver asks instead of overwriting it.
    public var overwritesOnlyOwnFile: Bool
    /// Burned into the pages, or written as annotations.
    public var markupAs: MarkupSaveMode
    /// /T of the annotations the markup becomes.
    public var author: String
    /// In a shared session: the annotations the copy holds (the file's, the server's and this session's, markup
    /// apart, which is written as annotations too); the file's others are removed.
    public var sharedAnnotations: [Annotation]?
    /// The names the session's markup has on the server, by the names it has here.
    public var sharedMarkupNames: [AnnotationID: AnnotationID] = [:]
    /// When each of the session's markup was last changed, by its name here: a copy dates the markup it writes as
    /// the session does, not by the clock at the moment of writing.
    public var sharedMarkupDates: [AnnotationID: PDFDate] = [:]

    public init(destination: String, edits: DocumentEdits, allowOverwrite: Bool, replacesOriginal: Bool,
                overwritesOnlyOwnFile: Bool = false, markupAs: MarkupSaveMode = .flatten, author: String = "") {
        self.destination = destination
        self.edits = edits
        self.allowOverwrite = allowOverwrite
        self.replacesOriginal = replacesOriginal
        self.overwritesOnlyOwnFile = overwritesOnlyOwnFile
        self.markupAs = markupAs
        self.author = author
    }
}
