/// What kitty answers a graphics command with: `ESC _ G i=ID[,p=P] ; MESSAGE ESC \`, MESSAGE being `OK` or an error
/// code and its text (`ENOENT:…` when the image named is not there: never sent, or evicted from the terminal's store).
public struct KittyGraphicsReply: Sendable, Equatable {
    public var imageID: Int
    public var message: String

    /// Reads the body between `ESC _` and `ESC \`, `G` included.
    public init?(body: String) {
        guard body.hasPrefix("G") else { return nil }
        let parts = body.dropFirst().split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        let keys = parts.first.map { $0.split(separator: ",") } ?? []
        guard let id = keys.first(where: { $0.hasPrefix("i=") }).flatMap({ Int($0.dropFirst(2)) }) else { return nil }
        imageID = id
        message = parts.count > 1 ? String(parts[1].prefix(200)) : ""
    }

    public var isOK: Bool { message == "OK" }
    /// The terminal no longer has the image: it must be sent again before it can be placed.
    public var imageIsMissing: Bool { message.hasPrefix("ENOENT") }
}
