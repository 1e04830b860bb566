import ArgumentParser
import CommandLineSupport
import RedlineKit

@main
struct Redline: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "redline",
        abstract: "Mark up PDFs in the terminal: place text, nudge it into place, save a flattened copy.",
        discussion: """
            `redline FILE.pdf` opens the editor (press F1 inside for the keys). The other commands do the \
            same work in scripts. `redline --probe` prints what the terminal can show (graphics \
            protocols, cell size in pixels, pixel mouse, tmux passthrough); the editor asks the same \
            and draws the page in pixels where it can, or as `--graphics auto|kitty|sixel|iterm2|symbols` \
            says.

            Exit status: 0 done; 1 bad usage, markup file or configuration; 2 the PDF cannot be opened \
            or read; 3 the output cannot be written (the destination is left untouched).

            Files: $XDG_CONFIG_HOME/redline/config.toml (default ~/.config/redline/config.toml) holds \
            the settings; crash journals and where each document was left are kept under \
            $XDG_STATE_HOME/redline (default ~/.local/state/redline), sidecar bookmarks under $XDG_DATA_HOME/redline/bookmarks. The \
            documentation (keys, configuration, file formats) is in the source tree's docs/ folder.
            """,
        version: version,
        subcommands: [Open.self, Apply.self, Annotations.self, XFDFCommands.self, Reply.self, Review.self, Flatten.self, Bookmarks.self, Search.self, Keys.self, Bench.self, Collab.self, Serve.self],
        defaultSubcommand: Open.self)

    /// Parses and runs, with Redline's exit codes: 0 done, 1 bad usage or markup, 2 cannot open, 3 cannot write.
    static func main() { CommandLineRunner.main(Redline.self) }
}
