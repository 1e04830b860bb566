import TerminalGrid

/// Where keys are read: each has its own keymap. In `typing`, a character no binding claims is typed.
public enum KeymapContext: String, Sendable, CaseIterable, Hashable {
    case page, ink, selection, annotations, bookmarks, outline, typing, questions, states, help

    /// The heading the `?` overlay and docs/keys.md give the context.
    public var title: String {
        switch self {
        case .page: "The page"
        case .ink: "Ink and shapes (i)"
        case .annotations: "Annotations (a)"
        case .bookmarks: "Bookmarks (B)"
        case .outline: "Outline (o)"
        case .selection: "Text selection (v)"
        case .typing: "Typing (t, replies, names, :, /)"
        case .questions: "Questions"
        case .states: "Review states (s in a)"
        case .help: "This help (F1)"
        }
    }
}

/// One keymap per context, as data: which key starts which command. Users change them in config.toml
/// (`[keys.page] "C-d" = "next-page"`); the help and docs/keys.md are written from them.
public struct Keymaps: Sendable, Equatable {
    public private(set) var bindings: [KeymapContext: [Key: EditorCommand]]

    public func command(for key: Key, in context: KeymapContext) -> EditorCommand? {
        bindings[context]?[key]
    }

    /// The keys bound to a command, in the order the standard keymap lists them.
    public func keys(for command: EditorCommand, in context: KeymapContext) -> [Key] {
        let bound = bindings[context] ?? [:]
        let standardOrder = Self.standardList[context]?.filter { $0.1 == command }.map(\.0) ?? []
        let others = bound.filter { $0.value == command && !standardOrder.contains($0.key) }.map(\.key).sorted { $0.name < $1.name }
        return standardOrder.filter { bound[$0] == command } + others
    }

    /// Binds a key in a context, replacing what it did there.
    public mutating func bind(_ key: Key, to command: EditorCommand, in context: KeymapContext) {
        bindings[context, default: [:]][key] = command
    }

    /// Which commands a context can run, in the order the help lists them: a key in one context cannot start
    /// another context's commands.
    public static func commands(in context: KeymapContext) -> [EditorCommand] {
        var seen: Set<EditorCommand> = []
        return (standardList[context] ?? []).map(\.1).filter { seen.insert($0).inserted }
    }

    /// Whether a binding in config.toml may name the command in the context: the context's own, or `unbound`.
    public static func accepts(_ command: EditorCommand, in context: KeymapContext) -> Bool {
        command == .unbound || commands(in: context).contains(command) || (unboundCommands[context] ?? []).contains(command)
    }

    /// Commands a context runs that no standard key starts: the interaction components' `try…` verbs, for the
    /// user's own keys (docs/interactions.md).
    public static let unboundCommands: [KeymapContext: [EditorCommand]] = [
        .page: [.trySelectAnnotation, .tryDeselectAnnotation, .tryEditAnnotation, .tryOpenLink, .tryFastScroll, .trySmartZoom,
                .tryToggleInterface, .trySelectText, .tryDeselectText],
        .selection: [.tryDeselectText],
    ]

    public static let standard: Keymaps = {
        var bindings: [KeymapContext: [Key: EditorCommand]] = [:]
        for context in KeymapContext.allCases {
            for (key, command) in standardList[context] ?? [] { bindings[context, default: [:]][key] = command }
        }
        return Keymaps(bindings: bindings)
    }()

    private static func character(_ text: String) -> Key { .character(Character(text)) }

    /// The standard keys, in the order the help lists them.
    static let standardList: [KeymapContext: [(Key, EditorCommand)]] = [
        .page: [
            (character("j"), .scrollDown), (character("k"), .scrollUp), (character("h"), .scrollLeft), (character("l"), .scrollRight),
            (character(" "), .screenDown), (.backspace, .screenUp),
            (.pageDown, .nextPage), (.pageUp, .previousPage),
            (character("g"), .firstPage), (.home, .firstPage), (character("G"), .lastPage), (.end, .lastPage),
            (.control("o"), .jumpBack), (.control("f"), .jumpForward), (character("m"), .setMark), (character("'"), .goToMark),
            (character("`"), .goToMark),
            (character("z"), .zoomIn), (character("Z"), .zoomOut), (character("0"), .zoomFit), (character("W"), .fitWidth), (character("F"), .toggleInterface),
            (character("T"), .textView), (character("I"), .recolor),
            (.up, .moveUp), (.down, .moveDown), (.left, .moveLeft), (.right, .moveRight),
            (.shiftUp, .moveFarUp), (character("K"), .moveFarUp), (.shiftDown, .moveFarDown), (character("J"), .moveFarDown),
            (.shiftLeft, .moveFarLeft), (character("H"), .moveFarLeft), (.shiftRight, .moveFarRight), (character("L"), .moveFarRight),
            (character("t"), .typeText), (character("i"), .ink),
            (.tab, .selectNext), (.backTab, .selectPrevious), (.enter, .editSelection), (.escape, .deselect),
            (character("x"), .deleteSelection), (.delete, .deleteSelection),
            (character("+"), .bigger), (character("="), .bigger), (character("-"), .smaller), (character("_"), .smaller),
            (character("c"), .nextColour), (character("u"), .undo), (.control("r"), .redo),
            (character("a"), .annotations), (character("b"), .toggleBookmark), (character("B"), .bookmarks),
            (character("o"), .outline), (character("f"), .followLink), (character("v"), .selectText), (character("s"), .smartZoom),
            (character("/"), .searchForward), (character("?"), .searchBackward), (character("n"), .searchNext), (character("N"), .searchPrevious),
            (character(":"), .commandLine), (.function(1), .help), (character("q"), .quit), (.control("c"), .quitHint),
            (.click, .pointAt), (.wheelDown, .scrollDown), (.wheelUp, .scrollUp),
        ],
        .ink: [
            (.escape, .leaveInk), (character(" "), .penDownUp), (.enter, .endStroke),
            (.up, .penUp), (.down, .penDown), (.left, .penLeft), (.right, .penRight),
            (.shiftUp, .penFarUp), (character("K"), .penFarUp), (.shiftDown, .penFarDown), (character("J"), .penFarDown),
            (.shiftLeft, .penFarLeft), (character("H"), .penFarLeft), (.shiftRight, .penFarRight), (character("L"), .penFarRight),
            (character("p"), .pen), (character("h"), .highlighter), (character("e"), .eraser), (character("E"), .partialEraser),
            (character("+"), .widerInk), (character("="), .widerInk), (character("-"), .narrowerInk), (character("_"), .narrowerInk),
            (character("c"), .nextInkColour), (character("u"), .undo), (.control("r"), .redo),
            (character("r"), .rectangle), (character("o"), .ellipse), (character("l"), .line), (character("a"), .arrow),
            (character("P"), .polygon), (character("Y"), .polyline), (character("f"), .toggleFill), (character("s"), .stamp),
            (character("n"), .note), (character("C"), .callout),
            (.click, .drawAtPointer),
        ],
        .annotations: [
            (character("j"), .listDown), (.down, .listDown), (character("k"), .listUp), (.up, .listUp),
            (character("g"), .listFirst), (.home, .listFirst), (character("G"), .listLast), (.end, .listLast),
            (.pageDown, .listPageDown), (.pageUp, .listPageUp),
            (character("A"), .toggleScope), (character("w"), .toggleLinks), (.enter, .showThread),
            (character("r"), .reply), (character("s"), .setState), (character("m"), .toggleMarked), (character("e"), .editReply),
            (character("x"), .deleteAnnotation), (.delete, .deleteAnnotation),
            (character("f"), .filterList), (character("S"), .writeSummary),
            (character("u"), .undo), (.control("r"), .redo), (character(":"), .commandLine), (.function(1), .help), (character("?"), .help),
            (character("F"), .toggleInterface),
            (.escape, .closePanel), (character("a"), .closePanel), (character("q"), .closePanel),
            (.click, .selectClicked), (.wheelDown, .listDown), (.wheelUp, .listUp),
        ],
        .bookmarks: [
            (character("j"), .listDown), (.down, .listDown), (character("k"), .listUp), (.up, .listUp),
            (character("g"), .listFirst), (.home, .listFirst), (character("G"), .listLast), (.end, .listLast),
            (.pageDown, .listPageDown), (.pageUp, .listPageUp),
            (.enter, .goToBookmark), (character("R"), .renameBookmark),
            (character("d"), .deleteBookmark), (character("x"), .deleteBookmark), (.delete, .deleteBookmark),
            (character("o"), .toggleOrder), (character("K"), .moveBookmarkUp), (character("J"), .moveBookmarkDown),
            (character("b"), .toggleBookmark), (character("u"), .undo), (.control("r"), .redo),
            (character(":"), .commandLine), (.function(1), .help), (character("?"), .help), (character("F"), .toggleInterface),
            (.escape, .closePanel), (character("B"), .closePanel), (character("q"), .closePanel),
            (.click, .selectClicked), (.wheelDown, .listDown), (.wheelUp, .listUp),
        ],
        .selection: [
            (character("w"), .selectWordForward), (.right, .selectWordForward), (character("l"), .selectWordForward),
            (character("b"), .selectWordBackward), (.left, .selectWordBackward), (character("h"), .selectWordBackward),
            (character("j"), .selectLineDown), (.down, .selectLineDown), (character("k"), .selectLineUp), (.up, .selectLineUp),
            (character("y"), .copyText), (character("H"), .highlightText), (character("U"), .underlineText), (character("S"), .strikeOutText), (character("Z"), .squigglyText),
            (.escape, .deselectText), (character("v"), .deselectText), (character(":"), .commandLine), (.function(1), .help),
            (.click, .pointAt),
        ],
        .outline: [
            (character("j"), .listDown), (.down, .listDown), (character("k"), .listUp), (.up, .listUp),
            (character("g"), .listFirst), (.home, .listFirst), (character("G"), .listLast), (.end, .listLast),
            (.pageDown, .listPageDown), (.pageUp, .listPageUp),
            (.enter, .goToEntry), (character("l"), .unfoldEntry), (.right, .unfoldEntry),
            (character("h"), .foldEntry), (.left, .foldEntry), (character(" "), .toggleFold),
            (.control("o"), .jumpBack), (.control("f"), .jumpForward),
            (character(":"), .commandLine), (.function(1), .help), (character("?"), .help), (character("F"), .toggleInterface),
            (.escape, .closePanel), (character("o"), .closePanel), (character("q"), .closePanel),
            (.click, .selectClicked), (.wheelDown, .listDown), (.wheelUp, .listUp),
        ],
        .typing: [
            (.enter, .commitInput), (.escape, .cancelInput), (.backspace, .deleteBack),
            (.control("w"), .deleteWord), (.control("u"), .clearInput),
        ],
        .questions: [
            (character("y"), .answerYes), (character("n"), .answerNo), (character("c"), .answerCancel), (.escape, .answerCancel),
        ],
        .states: [
            (character("a"), .stateAccepted), (character("r"), .stateRejected), (character("c"), .stateCancelled),
            (character("o"), .stateCompleted), (character("n"), .stateNone), (.escape, .cancelInput),
        ],
        .help: [
            (character("j"), .helpDown), (.down, .helpDown), (.wheelDown, .helpDown),
            (character("k"), .helpUp), (.up, .helpUp), (.wheelUp, .helpUp),
            (character(" "), .helpPageDown), (.pageDown, .helpPageDown), (.backspace, .helpPageUp), (.pageUp, .helpPageUp),
            (.escape, .closeHelp), (character("q"), .closeHelp), (.function(1), .closeHelp),
        ],
    ]

    /// "j/k move": the first key of each command, joined, then what they do; nothing when none is bound.
    public func hint(_ commands: [EditorCommand], _ label: String, in context: KeymapContext) -> String? {
        let names = commands.compactMap { self.keys(for: $0, in: context).first?.name }
        guard !names.isEmpty else { return nil }
        // The four arrow keys in a row read as one word, so a hint line keeps its end on 120 columns.
        return (names == ["Up", "Down", "Left", "Right"] ? "arrows" : names.joined(separator: "/")) + " " + label
    }

    /// Hints joined into one line.
    public func hints(_ parts: [([EditorCommand], String)], in context: KeymapContext) -> String {
        parts.compactMap { hint($0.0, $0.1, in: context) }.joined(separator: " · ")
    }
}
