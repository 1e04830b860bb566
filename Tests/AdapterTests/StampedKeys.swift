import Editor
import Foundation
import RedlineCore
import TerminalGrid

/// Presses keys as the editor's loop does, each event stamped with a time and an id seed numbered per
/// instance, so a test gives the same ids on every run whatever runs beside it.
struct StampedKeys {
    private var count = 0

    mutating func press(_ keys: [Key], on state: inout EditorState, environment: EditorEnvironment) {
        for key in keys {
            _ = EditorReducer.reduce(&state, .keyPressed(key), at: nextStamp(), environment: environment)
        }
    }

    /// A stamp for an event that is not a key (words read, say), numbered with the keys.
    mutating func nextStamp() -> EventStamp {
        count += 1
        return EventStamp(time: PDFDate(year: 2026, month: 11, day: 23, hour: 9, minute: 0, offsetMinutes: 0),
                          seed: StableUUID.derived(seed: 3, item: "key \(count)"))
    }
}
