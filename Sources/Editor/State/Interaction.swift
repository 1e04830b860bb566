import TerminalGrid
import RedlineCore

/// What the user is doing right now: what is selected, the tool's work, the side panel and the overlays over
/// it (together they say what has the keyboard: `focus`), a drag or a run of nudges under way, and the time
/// and ids of the event being handled.
public struct Interaction: Sendable {
    public var selection: MarkupID?
    /// An annotation the file has, selected on the page (never together with a markup).
    public var selectedAnnotation: AnnotationID?
    public var activity: ToolActivity = .idle
    public var panel: SidePanel?
    /// Bottom to top; the top one has the keyboard.
    public var overlays: [Overlay] = []
    /// A markup being dragged with the mouse, and where the pointer was.
    var mouseDrag: MouseDrag?
    /// An annotation of the file being dragged with the mouse, and where the pointer was.
    var annotationDrag: AnnotationDrag?
    /// The markup a run of nudges is moving: a run counts as one operation, one undo step.
    var nudgeRun: MarkupID?
    /// The annotation of the file a run of nudges is moving.
    var annotationNudgeRun: AnnotationID?
    /// Where a deleted annotation stood among the file's annotations Tab stops at (page, place): the next Tab goes
    /// on from there, to what followed it, rather than back to the first.
    var tabResumesAt: (page: Int, index: Int)?
    /// A count being typed before a command (`12` of `12G`), and a first `g` waiting for the second.
    public var pendingCount: Int?
    public var pendingG = false
    /// `m` or `'` waiting for the mark's letter.
    public var pendingMark: PendingMark?
    /// Words of the page being selected.
    public var textSelection: TextSelection?
    /// The last press on the page: where (in cells) and when, for a double click.
    var lastPress: (column: Int, row: Int, milliseconds: Int64)?
    /// Where a press on the page's text was, for a drag that selects words.
    var textPress: Point?
    /// The last search, its hits and which one is shown.
    public var search: SearchSession?
    /// Where the last mouse report was, in screen cells: what a click command acts on.
    var pointer: (column: Int, row: Int) = (0, 0)
    /// Where in the pointer's cell it is, when the terminal reports the mouse in pixels.
    var pointerWithinCell: MouseEvent.CellFraction?
    /// Whether the event being reduced came from the mouse (an interaction then happens at the pointer) or a key
    /// (at the cursor).
    var input: InputSource = .key
    /// The key (or mouse action) being handled, by name; `request` for a `try…` call from code.
    var via = ""
    /// The component a `try…` verb is performing: it runs whatever its `isEnabled`.
    var trying: InteractionComponentName?
    /// The refusals the message line has said (component and reason): it says each once.
    var refusalsSaid: Set<String> = []
    /// Activations and refusals of the event being reduced, for `--events` and callback commands.
    var reports: [InteractionReport] = []
    /// A click in the page area's left (-1) or right (+1) fifth, turning the page when the button comes up
    /// (unless a drag made it a selection).
    var edgeTurn: Int?
    /// The event being reduced, and the ids minted from it so far.
    var clock = EventClock(stamp: EventStamp(time: PDFDate(year: 2000, month: 1, day: 1), seed: .init()))
}

extension Interaction {
    /// Whatever comes next is not part of a run of nudges: the next nudge starts a new undo step.
    mutating func endNudgeRuns() {
        nudgeRun = nil
        annotationNudgeRun = nil
    }
}

enum InputSource: Sendable, Equatable {
    case key, pointer
}
