import ArgumentParser
import RedlineKit

/// `--outline` / `--no-outline`, shared by the commands that read or write bookmarks: whether they are kept in the
/// document outline as well (`bookmarks_in_outline` in config.toml when neither is given).
public struct OutlineOption: ParsableArguments {
    @Flag(name: .customLong("outline"), inversion: .prefixedNo,
          help: "Keep the bookmarks in the document outline as well, in a \"Bookmarks\" entry Acrobat, Okular and zathura show, and take in changes made there (default: bookmarks_in_outline in config.toml).")
    public var outline: Bool?

    public init() {}

    public func setup(_ configuration: RedlineConfiguration) -> BookmarkSetup {
        BookmarkSetup(configuration, inOutline: outline)
    }

    /// The configuration with the choice made here.
    public func applied(to configuration: RedlineConfiguration) -> RedlineConfiguration {
        var configuration = configuration
        if let outline { configuration.bookmarksInOutline = outline }
        return configuration
    }
}
