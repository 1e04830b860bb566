import RedlineCore
import TerminalGrid

/// Selecting the page's own words, as in a PDF viewer: `v` starts at the word under the cursor, the arrows and
/// `w`/`b` extend by words and lines, a drag over the text selects too; `y` copies the words (OSC 52) and `H`,
/// `U`, `S` turn them into a highlight, an underline or a strike-out over exactly their boxes, a markup like
/// any other (flattened on save, undone by `u`).
extension EditorReducer {
    static func words(_ state: EditorState) -> [PageWord]? { state.navigation.words[state.pageIndex] }

    /// The word under a point, else the nearest one (by the distance from the point to its box).
    static func nearestWord(to point: Point, in words: [PageWord]) -> Int? {
        func distance(_ box: Rect) -> Double {
            let dx = max(box.minX - point.x, 0, point.x - box.maxX), dy = max(box.minY - point.y, 0, point.y - box.maxY)
            return dx * dx + dy * dy
        }
        return words.indices.min { distance(words[$0].box) < distance(words[$1].box) }
    }

    static func startTextSelection(_ state: inout EditorState, _ env: EditorEnvironment, at location: InteractionLocation? = nil) {
        guard let words = words(state) else {
            state.message = "The page's text is still being read"
            return
        }
        guard let start = nearestWord(to: state.cursor, in: words) else {
            state.message = "This page has no text to select (a scan without text?)"
            return
        }
        guard permits(&state, .selectText, context(.selectText, state), env, at: location) else { return }
        state.selection = nil
        state.interaction.textSelection = TextSelection(pageIndex: state.pageIndex, anchor: start, head: start)
    }

    static func textSelectionKey(_ state: inout EditorState, _ selection: TextSelection, _ key: Key,
                                 _ env: EditorEnvironment) -> [EditorEffect] {
        state.message = nil
        let words = state.navigation.words[selection.pageIndex] ?? []
        var selection = selection
        switch state.keymaps.command(for: key, in: .selection) {
        case .selectWordForward?: selection.head = min(words.count - 1, selection.head + 1)
        case .selectWordBackward?: selection.head = max(0, selection.head - 1)
        case .selectLineDown?: selection.head = wordOnNextLine(from: selection.head, in: words, down: true)
        case .selectLineUp?: selection.head = wordOnNextLine(from: selection.head, in: words, down: false)
        case .copyText?:
            let text = VisibleText.forClipboard(selectedText(selection, words), multiline: true)
            state.interaction.textSelection = nil
            state.message = "Copied \(text.count) characters"
            return [.copyToClipboard(text)]
        case .highlightText?: return markSelection(&state, selection, words, .highlight)
        case .underlineText?: return markSelection(&state, selection, words, .underline)
        case .strikeOutText?: return markSelection(&state, selection, words, .strikeOut)
        case .squigglyText?: return markSelection(&state, selection, words, .squiggly)
        case .deselectText?:
            deselectText(&state, env)
            return []
        case .tryDeselectText?:
            return perform(&state, InteractionRequest(.deselectText, at: currentLocation(state)), env)
        case .pointAt?:
            return pointAt(&state, env)
        case .commandLine?, .help?:
            openOverlay(&state, for: state.keymaps.command(for: key, in: .selection))
            return []
        default:
            return []
        }
        state.interaction.textSelection = selection
        if let head = words.indices.contains(selection.head) ? words[selection.head] : nil {
            state.cursor = head.box.origin
            reveal(&state, head.box, env)
        }
        return []
    }

    /// The word on the line below (or above) whose middle is nearest the given word's: the caret keeps its
    /// column as it goes down the lines.
    private static func wordOnNextLine(from index: Int, in words: [PageWord], down: Bool) -> Int {
        guard words.indices.contains(index) else { return index }
        let line = words[index].line
        let lines = Set(words.map(\.line))
        guard let target = down ? lines.filter({ $0 > line }).min() : lines.filter({ $0 < line }).max() else { return index }
        let middle = words[index].box.minX + words[index].box.width / 2
        return words.indices.filter { words[$0].line == target }
            .min { abs(words[$0].box.minX + words[$0].box.width / 2 - middle) < abs(words[$1].box.minX + words[$1].box.width / 2 - middle) } ?? index
    }

    /// The words, a space between words of a line and a line break between lines.
    static func selectedText(_ selection: TextSelection, _ words: [PageWord]) -> String {
        var text = ""
        var line: Int?
        for index in selection.range where words.indices.contains(index) {
            if let line { text += words[index].line == line ? " " : "\n" }
            text += words[index].text
            line = words[index].line
        }
        return text
    }

    private static func markSelection(_ state: inout EditorState, _ selection: TextSelection, _ words: [PageWord],
                                      _ kind: TextMarks.Kind) -> [EditorEffect] {
        let chosen = selection.range.filter { words.indices.contains($0) }.map { (line: words[$0].line, box: words[$0].box) }
        guard !chosen.isEmpty else { return [] }
        let color = state.tools.textMarksColor[kind] ?? (kind == .highlight ? state.palettes.highlighter[0] : .red)
        let marks = TextMarks(kind: kind, rects: TextMarks.lineRects(chosen), color: color)
        let item = MarkupItem(id: MarkupID(state.freshID()), pageIndex: selection.pageIndex, content: .textMarks(marks))
        state.interaction.textSelection = nil
        let effects = change(&state) { $0.add(item) }
        // Back to what the reviewer had before selecting words: the page, nothing selected. Left selected, the
        // mark would go wherever the next J or arrow sent it, off its words.
        state.selection = nil
        let count = chosen.count == 1 ? "1 word" : "\(chosen.count) words"
        let done: [TextMarks.Kind: String] = [.highlight: "Highlighted", .underline: "Underlined", .strikeOut: "Struck out",
                                              .squiggly: "Squiggle under"]
        state.message = "\(done[kind] ?? "Marked") \(count)"
        return effects
    }

    /// A drag over the page's text from where the press was: the words between are selected.
    static func dragText(_ state: inout EditorState, to point: Point, _ env: EditorEnvironment) {
        guard let press = state.interaction.textPress, let words = words(state),
              let start = nearestWord(to: press, in: words), let end = nearestWord(to: point, in: words) else { return }
        guard state.interaction.textSelection != nil || start != end || abs(point.x - press.x) + abs(point.y - press.y) > 4 else { return }
        if state.interaction.textSelection == nil {
            guard permits(&state, .selectText, context(.selectText, state), env) else {
                // Refused once for the whole drag.
                state.interaction.textPress = nil
                return
            }
        }
        state.selection = nil
        state.interaction.textSelection = TextSelection(pageIndex: state.pageIndex, anchor: start, head: end)
    }
}
