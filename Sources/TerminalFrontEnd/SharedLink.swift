import Editor
import Foundation
import RedlineCore

/// How the editor joins a shared document: the document's id, and the command that runs its link
/// (`redline collab link ID --server … --token …`).
public struct SharedLaunch: Sendable {
    /// The link's command without the document id, which the editor finds in the opened file and adds last.
    public var linkCommand: [String]
    /// `[collab] author_only`: only an annotation's author selects, moves or edits it on the page.
    public var authorOnly: Bool
    /// The document's id: the first half of its /ID, or a hash of its bytes (as `redline collab share` names it).
    public internal(set) var document = ""
    /// Where `:w` puts its copy, when the opened file is the cache's (a document opened by its id).
    public var copiesFolder: String?

    public init(linkCommand: [String], authorOnly: Bool, copiesFolder: String? = nil) {
        self.linkCommand = linkCommand
        self.authorOnly = authorOnly
        self.copiesFolder = copiesFolder
    }
}

/// The link process of a shared session: its lines become events through the inbox, and the frames the reducer
/// sends are written to it off the loop, so a stalled link never stalls a key.
final class SharedLink: @unchecked Sendable {
    private let process = Process()
    private let toLink = Pipe()
    private let fromLink = Pipe()
    private let writes = DispatchQueue(label: "redline.shared-link.writes")

    /// Starts the link; each line it writes is handed to `deliver` on the reading thread.
    init(command: [String], deliver: @escaping @Sendable (SharedEvent) -> Void) throws {
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.standardInput = toLink
        process.standardOutput = fromLink
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let reading = fromLink.fileHandleForReading
        let thread = Thread {
            var buffer = Data()
            while true {
                let chunk = reading.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<end], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...end)
                    if let event = Self.event(line) { deliver(event) }
                }
            }
            deliver(.link(.offline(reason: "the link to the server ended", retryIn: nil)))
        }
        thread.start()
    }

    /// What a line of the link says: its own state, or a frame of the server's.
    static func event(_ line: String) -> SharedEvent? {
        if line.hasPrefix(#"{"#), line.contains(#""type":"link""#) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let state = object["state"] as? String else { return nil }
            if state == "connecting" { return .link(.connecting) }
            return .link(.offline(reason: object["reason"] as? String ?? "offline", retryIn: object["retry"] as? Double))
        }
        guard let frame = try? CollabFrame.Server.decode(line) else { return nil }
        return .frame(frame)
    }

    func send(_ frames: [CollabFrame.Client]) {
        let text = frames.map { $0.json + "\n" }.joined()
        let handle = toLink.fileHandleForWriting
        writes.async { try? handle.write(contentsOf: Data(text.utf8)) }
    }

    /// Ends the link: its input closes, and it goes.
    func close() {
        let handle = toLink.fileHandleForWriting
        writes.sync { try? handle.close() }
    }
}
