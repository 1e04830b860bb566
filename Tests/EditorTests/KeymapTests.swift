import Editor
import Foundation
import RedlineCore
import TerminalGrid
import Testing

@Suite struct KeymapTests {
    /// docs/keys.md is written from the keymaps: regenerate it with `redline keys --markdown > docs/keys.md`.
    @Test func docsKeysIsWhatTheKeymapsSay() throws {
        var root = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) { root.deleteLastPathComponent() }
        let documented = try String(contentsOf: root.appendingPathComponent("docs/keys.md"), encoding: .utf8)
        #expect(documented == KeyBindings.markdown(), "docs/keys.md differs from the keymaps: redline keys --markdown > docs/keys.md")
    }

    /// Every key of every standard keymap has a name that reads back as the same key.
    @Test func everyBoundKeyHasANameThatReadsBack() {
        for context in KeymapContext.allCases {
            for key in Keymaps.standard.bindings[context]?.keys.map({ $0 }) ?? [] {
                #expect(Key(name: key.name) == key, "\(context): \(key) is named \(key.name)")
            }
        }
    }

    @Test func aRemappedKeyRunsItsNewCommandAndTheHelpSaysSo() throws {
        var editor = EditorHarness(pages: 5, columns: 160, rows: 45)
        editor.state.keymaps = try Keymaps.standard.remapped([
            .init(context: "page", key: "C-d", command: "next-page", line: 2),
            .init(context: "page", key: "n", command: "next-page", line: 3),
            .init(context: "page", key: "j", command: "last-page", line: 4),
        ])
        editor.press(.control("d"))
        #expect(editor.state.pageIndex == 1)
        editor.press(.character("n"))
        #expect(editor.state.pageIndex == 2)
        editor.press(.character("j"))
        #expect(editor.state.pageIndex == 4)
        // Another context keeps its own keys: j still moves down the annotation list.
        #expect(editor.state.keymaps.command(for: .character("j"), in: .annotations) == .listDown)
        editor.press(.function(1))
        let help = editor.screen().lines
        #expect(help.contains { $0.contains("PageDown C-d n") && $0.contains("next page (keeps the column)") }, "\(help.joined(separator: "\n"))")
        #expect(help.contains { $0.contains("G End j") && $0.contains("last page") })
        #expect(!help.contains { $0.contains(" j ") && $0.contains("scroll down, on to the next page") })
    }

    /// The ink hints fit a 120-column terminal to their last one, how to leave.
    @Test func theInkHintsEndWithHowToLeaveOn120Columns() {
        var editor = EditorHarness(columns: 120, rows: 30)
        editor.press(.character("i"))
        let line = editor.screen().text(ofRow: 29).trimmingCharacters(in: .whitespaces)
        #expect(line.hasPrefix("Ink: Space pen down/up · arrows draw"), "\(line)")
        #expect(line.hasSuffix("Esc leaves"), "\(line)")
        // And each tool's, the shapes' saying how their corners are placed.
        for (key, start) in [("h", "Ink:"), ("E", "Ink:"), ("r", "Rectangle: Space at each corner"), ("a", "Arrow: Space at each end"),
                             ("P", "Polygon: Space adds a corner"), ("Y", "Polyline: Space adds a corner"), ("s", "Stamp: Space places it"),
                             ("n", "Note: Space places it"), ("C", "Callout: Space at the spot")] {
            editor.press(.character(Character(key)))
            let line = editor.screen().text(ofRow: 29).trimmingCharacters(in: .whitespaces)
            #expect(line.hasPrefix(start) && line.hasSuffix("Esc leaves"), "\(key): [\(line)]")
        }
    }

    /// The wheel runs list-down and list-up, not whatever the Down and Up keys were bound to.
    @Test func theWheelMovesTheListWhateverTheArrowKeysDo() throws {
        var editor = EditorHarness(columns: 120, rows: 40, annotations: AnnotationPanelTests.document())
        editor.state.keymaps = try Keymaps.standard.remapped([.init(context: "annotations", key: "Down", command: "list-last", line: 1)])
        editor.press(.character("a"))
        func selected() -> AnnotationID? {
            if let panel = editor.state.interaction.annotationPanel { return panel.selected }
            return nil
        }
        #expect(selected() == "hl")
        editor.send(.mouse(MouseEvent(.scrollDown, column: 100, row: 5)))
        #expect(selected() == "carol")
        editor.press(.down)
        #expect(selected() == "bob-state")
        editor.send(.mouse(MouseEvent(.scrollUp, column: 100, row: 5)))
        #expect(selected() == "carol")
    }

    @Test(arguments: [
        (Keymaps.Binding(context: "page", key: "C-d", command: "teleport", line: 7), #"line 7: "C-d": unknown command "teleport" (redline keys lists them)"#),
        (.init(context: "page", key: "F13", command: "next-page", line: 3), #"line 3: "F13" is not a key that can be bound"#),
        (.init(context: "page", key: "Alt-x", command: "next-page", line: 3), #"line 3: "Alt-x" is not a key that can be bound"#),
        (.init(context: "pages", key: "j", command: "next-page", line: 1), "line 1: [keys.pages] is no context (known: page, ink, selection, annotations, bookmarks, outline, typing, questions, states, help)"),
        (.init(context: "ink", key: "j", command: "reply", line: 9), #"line 9: "j": reply is not a command of [keys.ink] (redline keys lists each context's)"#),
        (.init(context: "page", key: "\u{1B}[31m", command: "quit", line: 2), #"line 2: "\x1B[31m" is not a key that can be bound"#),
        (.init(context: "typing", key: "Esc", command: "unbound", line: 4),
         #"line 4: "Esc": [keys.typing] would have no key left for cancel-input: bind another key to it"#),
        (.init(context: "page", key: "C-h", command: "redo", line: 5),
         #"line 5: "C-h": terminals send C-h, C-i, C-j and C-m as Backspace, Tab, Enter and Enter: bind those"#),
    ])
    func badBindingsAreRefusedNamingLineAndKey(binding: Keymaps.Binding, message: String) {
        do {
            _ = try Keymaps.standard.remapped([binding])
            Issue.record("accepted \(binding)")
        } catch {
            #expect("\(error)".hasPrefix(message), "\(error)")
        }
    }
}
