import TerminalGrid

/// The user's bindings over the standard keymaps, refused with a reason that names the key when a context, a
/// key or a command does not exist, or the command is not one the context runs.
extension Keymaps {
    public struct Binding: Sendable, Equatable {
        public var context: String
        public var key: String
        public var command: String
        public var line: Int

        public init(context: String, key: String, command: String, line: Int) {
            self.context = context
            self.key = key
            self.command = command
            self.line = line
        }
    }

    public struct RemappingError: Error, Equatable, CustomStringConvertible {
        public let line: Int
        public let reason: String
        public var description: String { (line > 0 ? "line \(line): " : "") + reason }
    }

    public func remapped(_ bindings: [Binding]) throws -> Keymaps {
        var keymaps = self
        for binding in bindings {
            let shownKey = VisibleText.line(binding.key, limit: 40)
            guard let context = KeymapContext(rawValue: binding.context) else {
                throw RemappingError(line: binding.line, reason: "[keys.\(VisibleText.line(binding.context, limit: 40))] is no context (known: "
                                     + KeymapContext.allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            if binding.key.count == 3, binding.key.lowercased().hasPrefix("c-"), "hijm".contains(binding.key.last?.lowercased() ?? "") {
                throw RemappingError(line: binding.line, reason: "\"\(shownKey)\": terminals send C-h, C-i, C-j and C-m as Backspace, Tab, "
                                     + "Enter and Enter: bind those")
            }
            guard let key = Key(name: binding.key) else {
                throw RemappingError(line: binding.line, reason: "\"\(shownKey)\" is not a key that can be bound "
                                     + "(a character, Space, Enter, Esc, Tab, S-Tab, Backspace, Delete, Up, S-Up, PageUp, Home, End, C-a, Click, WheelUp …)")
            }
            guard let command = EditorCommand(rawValue: binding.command) else {
                throw RemappingError(line: binding.line, reason: "\"\(shownKey)\": unknown command \"\(VisibleText.line(binding.command, limit: 40))\" "
                                     + "(redline keys lists them)")
            }
            guard Self.accepts(command, in: context) else {
                throw RemappingError(line: binding.line, reason: "\"\(shownKey)\": \(command.name) is not a command of [keys.\(context.rawValue)] "
                                     + "(redline keys lists each context's)")
            }
            keymaps.bind(key, to: command, in: context)
        }
        // Checked once every binding is in: the order of lines in a TOML table means nothing.
        for (context, needed) in Self.waysOut.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            for command in needed where keymaps.keys(for: command, in: context).isEmpty {
                let taker = bindings.last { $0.context == context.rawValue && Key(name: $0.key).map { self.command(for: $0, in: context) == command } == true }
                throw RemappingError(line: taker?.line ?? 0, reason: "\(taker.map { "\"\(VisibleText.line($0.key, limit: 40))\": " } ?? "")"
                                     + "[keys.\(context.rawValue)] would have no key left for \(command.name): bind another key to it")
            }
        }
        return keymaps
    }

    /// The commands each context must keep a key for: without them there is no leaving it.
    static let waysOut: [KeymapContext: [EditorCommand]] = [
        .typing: [.commitInput, .cancelInput], .questions: [.answerYes, .answerNo, .answerCancel], .states: [.cancelInput],
        .ink: [.leaveInk], .annotations: [.closePanel], .bookmarks: [.closePanel], .outline: [.closePanel], .selection: [.deselectText],
        .page: [.commandLine],
    ]
}
