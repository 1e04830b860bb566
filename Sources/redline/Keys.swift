import ArgumentParser
import CommandLineSupport
import Editor
import RedlineKit
import TerminalFrontEnd

/// `redline keys`: the editor's keys, with config.toml's bindings, as the `?` overlay shows them.
struct Keys: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "List the editor's keys and command names, with config.toml's [keys.…] bindings.")

    @Flag(name: .long, help: "Print the standard keys as docs/keys.md holds them.")
    var markdown = false

    func run() throws {
        if markdown {
            try printOutput(KeyBindings.markdown(), terminator: "")
            return
        }
        let keymaps: Keymaps
        do {
            keymaps = try EditorLauncher.keymaps(try ConfigurationOption.load())
        } catch let error as EditorLauncher.LaunchError {
            throw CommandFailure(error.description, code: error.exitCode)
        }
        var lines: [String] = []
        for context in KeymapContext.allCases {
            lines.append("[keys.\(context.rawValue)]  \(context.title)")
            // The interaction components' try… verbs have no standard key: listed for binding.
            for command in Keymaps.commands(in: context) + (Keymaps.unboundCommands[context] ?? []) {
                let keys = keymaps.keys(for: command, in: context).map(\.name).joined(separator: " ")
                // Columns of 22 and 20, widened (never cut) for a longer list of keys.
                func column(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(1, width + 1 - text.count)) }
                lines.append("  " + column(keys.isEmpty ? "(no key)" : keys, 22) + column(command.name, 20) + command.summary(in: context))
            }
            lines.append("")
        }
        try printOutput(lines.joined(separator: "\n"), terminator: "")
    }
}
