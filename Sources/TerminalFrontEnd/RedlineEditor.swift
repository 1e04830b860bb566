import Editor
import Foundation
import RedlineKit

/// The editor for code that embeds it (the `RedlineEditor` library product): set up its `interactions` with
/// conditions, callbacks and bindings, then `run()` takes the terminal until the user quits.
public final class RedlineEditor {
    public let path: String
    /// What the user may select, move, edit and follow, and who is told (docs/interactions.md). config.toml's
    /// `[interactions.…]` tables are applied first; what the code adds comes after them.
    public let interactions = Interactions()
    public var configuration: RedlineConfiguration
    public var reviewer: Reviewer
    /// From 1.
    /// The page to start on, from 1; nil: where the reader left the document, else the first.
    public var page: Int?
    public var password: String?
    /// Every activation and refusal as a JSON line, as `--events FILE`.
    public var eventsPath: String?

    /// Reads config.toml (a bad one throws, naming the file and line) and applies its interaction settings.
    public init(path: String, configuration: RedlineConfiguration? = nil, author: String? = nil) throws {
        self.path = path
        let configuration = try configuration ?? RedlineConfiguration.load()
        self.configuration = configuration
        reviewer = Reviewer(author: configuration.resolvedAuthor(override: author), threadActionsEnabled: configuration.replies)
        callbacks = try EditorLauncher.interactions(configuration, into: interactions)
    }

    private let callbacks: [InteractionComponentName: [String]]

    public func run() throws {
        try EditorLauncher.launch(path: path, page: page, password: password, reviewer: reviewer, configuration: configuration,
                                  eventsPath: eventsPath, interactions: interactions, configuredCallbacks: callbacks)
    }
}
