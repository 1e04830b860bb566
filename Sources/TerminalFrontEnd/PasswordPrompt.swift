import RedlineKit
import Editor
import NcursesTerminal
import TerminalGrid

/// Asks for a document's password inside the terminal, showing dots for what is typed.
public enum PasswordPrompt {
    /// The typed password, or nil when the user gives up (Esc).
    public static func ask(on screen: NcursesScreen, fileName: String, problem: String?) -> String? {
        var typed = ""
        while true {
            let size = screen.size
            var grid = CellGrid(columns: size.columns, rows: size.rows)
            let row = max(0, size.rows / 2 - 1)
            grid.write("\(fileName) is encrypted. Password: " + String(repeating: "•", count: typed.count) + "▏",
                       column: 2, row: row, style: CellStyle(bold: true))
            grid.write(problem ?? "Enter opens · Esc gives up", column: 2, row: row + 2,
                       style: problem == nil ? Theme.message : Theme.problem)
            screen.present(grid)
            let input = screen.read(timeoutMilliseconds: -1)
            if case .paste(let text) = input {
                // A pasted password often ends with the line break copied with it.
                typed += text.filter { !$0.isNewline }
                continue
            }
            guard case .key(let key) = input else { continue }
            switch key {
            case .enter: return typed
            case .escape, .control("c"): return nil
            case .backspace: if !typed.isEmpty { typed.removeLast() }
            case .character(let character): typed.append(character)
            default: break
            }
        }
    }
}
