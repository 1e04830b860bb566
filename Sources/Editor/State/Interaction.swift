import RedlineCore

/// What the user is doing right now: what has the keyboard, what is selected, a drag or a run of nudges
/// under way, and the time and ids of the event being handled.
public struct Interaction: Sendable {
    public var selection: MarkupID?
    public var mode: EditorMode = .normal
    /// A markup being dragged with the mouse, and where the pointer was.
    var mouseDrag: MouseDrag?
    /// The markup a run of nudges is moving: a run counts as one operation, one undo step.
    var nudgeRun: MarkupID?
    /// The event being reduced, and the ids minted from it so far.
    var clock = EventClock(stamp: EventStamp(time: PDFDate(year: 2000, month: 1, day: 1), seed: .init()))
}
