import ArgumentParser
import RedlineCore
import RedlineKit

/// `--rewrite`, shared by every command that writes a copy: the whole document written anew instead of what changed
/// appended to the original's bytes.
public struct RewriteOption: ParsableArguments {
    @Flag(name: .long, help: "Write the whole document anew instead of appending the changes to the original's bytes (default: save_strategy in config.toml).")
    public var rewrite = false

    public init() {}

    /// How to save: rewritten when asked here or in config.toml, else appended where that is right.
    public func strategy(_ configuration: RedlineConfiguration) -> SaveStrategy {
        rewrite ? .rewrite : configuration.saveStrategy
    }
}
