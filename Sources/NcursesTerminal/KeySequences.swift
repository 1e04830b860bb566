import CNcurses
import TerminalGrid


/// Turns ncurses key codes and characters into editor keys. Shift+arrows and Shift-Tab are taught to
/// ncurses explicitly: terminfo entries such as tmux's `screen` do not list the xterm sequences tmux sends.
enum KeySequences {
    private static let shiftUpCode: Int32 = 0x1001
    private static let shiftDownCode: Int32 = 0x1002
    private static let shiftRightCode: Int32 = 0x1003
    private static let shiftLeftCode: Int32 = 0x1004

    static func defineModifiedKeys() {
        let sequences: [(String, Int32)] = [
            ("\u{1B}[1;2A", shiftUpCode), ("\u{1B}[1;2B", shiftDownCode),
            ("\u{1B}[1;2C", shiftRightCode), ("\u{1B}[1;2D", shiftLeftCode),
            ("\u{1B}[a", shiftUpCode), ("\u{1B}[b", shiftDownCode),
            ("\u{1B}[c", shiftRightCode), ("\u{1B}[d", shiftLeftCode),
            ("\u{1B}[Z", KEY_BTAB),
        ]
        for (sequence, code) in sequences where key_defined(sequence) <= 0 {
            define_key(sequence, code)
        }
    }

    static func key(forCode code: Int32) -> Key? {
        switch code {
        case KEY_UP: .up
        case KEY_DOWN: .down
        case KEY_LEFT: .left
        case KEY_RIGHT: .right
        case KEY_SR, shiftUpCode: .shiftUp
        case KEY_SF, shiftDownCode: .shiftDown
        case KEY_SLEFT, shiftLeftCode: .shiftLeft
        case KEY_SRIGHT, shiftRightCode: .shiftRight
        case KEY_NPAGE: .pageDown
        case KEY_PPAGE: .pageUp
        case KEY_HOME: .home
        case KEY_END: .end
        case KEY_BACKSPACE: .backspace
        case KEY_DC: .delete
        case KEY_BTAB: .backTab
        case KEY_ENTER: .enter
        case KEY_F0 + 1...KEY_F0 + 12: .function(Int(code - KEY_F0))
        default: nil
        }
    }

    static func key(forCharacter value: wint_t) -> Key? {
        switch value {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 1...26: return .control(Character(Unicode.Scalar(UInt8(value) + 96)))
        default:
            guard let scalar = Unicode.Scalar(UInt32(value)), value >= 32 else { return nil }
            return .character(Character(scalar))
        }
    }
}
