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
            count += 1
            let stamp = EventStamp(time: PDFDate(year: 2026, month: 11, day: 23, hour: 9, minute: 0, offsetMinutes: 0),
                                   seed: StableUUID.derived(seed: 3, item: "key \(count)"))
            _ = EditorReducer.reduce(&state, .keyPressed(key), at: stamp, environment: environment)
        }
    }
}
