import ArgumentParser
import Foundation
import RedlineKit

/// `--author`, shared by every command that writes replies or states.
public struct AuthorOption: ParsableArguments {
    @Option(name: .long, help: "Your name in replies, review states and markup saved as annotations (default: author in config.toml, else your login name).")
    public var author: String?

    public init() {}

    /// The configuration and the author it gives, or a usage failure naming the bad setting.
    public func resolve() throws -> (configuration: RedlineConfiguration, author: String) {
        // The name is written into the PDF and shown in terminals: an escape in it would reach them.
        if let author, author.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw CommandFailure("--author must not contain control characters", code: ExitStatus.usage)
        }
        let configuration = try ConfigurationOption.load()
        return (configuration, configuration.resolvedAuthor(override: author))
    }
}

/// config.toml for the commands that read it, with the command line's exit code for a broken one.
public enum ConfigurationOption {
    public static func load() throws -> RedlineConfiguration {
        do {
            return try RedlineConfiguration.load()
        } catch let error as ConfigurationError {
            throw CommandFailure(error.description, code: ExitStatus.usage)
        }
    }
}
