import CNcurses
import Editor
import Foundation

/// Mouse reports through ncurses, which decodes both the SGR form (`ESC [ < b;x;y M`) and the older
/// X10 form, whichever the terminfo entry names. Clicks are not merged (press and release each
/// count), and button-motion tracking is switched on so that drags are reported.
struct MouseReports {
    private var buttonDown = false

    static func enable() {
        mousemask(redline_mouse_mask(), nil)
        mouseinterval(0)
        write("\u{1B}[?1002h")
    }

    static func disable() {
        write("\u{1B}[?1002l")
        mousemask(0, nil)
    }

    private static func write(_ sequence: String) {
        FileHandle.standardOutput.write(Data(sequence.utf8))
    }

    /// The pending mouse report as an editor event, if it is one the editor uses.
    mutating func next() -> MouseEvent? {
        var event = MEVENT()
        guard getmouse(&event) == OK else { return nil }
        let state = event.bstate
        let column = Int(event.x), row = Int(event.y)
        if state & redline_button4_pressed() != 0 { return MouseEvent(.scrollUp, column: column, row: row) }
        if state & redline_button5_pressed() != 0 { return MouseEvent(.scrollDown, column: column, row: row) }
        if state & redline_button1_pressed() != 0 {
            buttonDown = true
            return MouseEvent(.press, column: column, row: row)
        }
        if state & redline_button1_released() != 0 {
            buttonDown = false
            return MouseEvent(.release, column: column, row: row)
        }
        if state & redline_report_position() != 0, buttonDown {
            return MouseEvent(.drag, column: column, row: row)
        }
        return nil
    }
}
