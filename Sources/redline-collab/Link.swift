import ArgumentParser
import CollabClient
import CommandLineSupport
import Foundation
import RedlineCore

/// `redline collab link DOCUMENT-ID`: the editor's connection to a shared document, as a process of its own so that
/// the editor loads no network library and a slow server never stalls a key. Standard input takes client frames
/// (JSON, one a line) to send while connected; standard output gives the server's frames, one a line, and the
/// link's own lines: `{"type":"link","state":"connecting"}` and
/// `{"type":"link","state":"offline","reason":"…","retry":1.5}`. It reconnects on its own, with `since` the last
/// event it passed on, backing off with jitter (up to 0.5 s at first, doubling to 30 s); frames given while it is
/// not connected are dropped (the editor sends again every change the server has not answered, once welcomed). It
/// ends when standard input does.
struct Link: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The editor's link to a shared document: frames in on standard input, out on standard output.",
        shouldDisplay: false)

    @Argument(help: "The document id.") var document: String
    @OptionGroup var collab: CollabOptions

    func validate() throws { try SharedDocuments.checkID(document) }

    func run() throws {
        let endpoint = try collab.endpoint()
        let document = self.document
        let input = LinkInput()
        input.start()
        try runCollab {
            var since: Int?
            var delay = 0.5
            while !input.ended {
                LinkOutput.say(["type": "link", "state": "connecting"])
                var reason = "the connection ended"
                do {
                    let session = try await CollabSession.open(endpoint, document: document, since: since, presence: true)
                    delay = 0.5
                    input.connect(session)
                    LinkOutput.line(CollabFrame.Server.welcome(document: session.welcome.document, user: session.welcome.user,
                                                               access: session.welcome.access, head: session.welcome.head,
                                                               snapshot: session.welcome.snapshot).json)
                    for await frame in session.frames {
                        switch frame {
                        case .event(let event): since = max(since ?? 0, event.seq)
                        case .snapshot(let head, _, _, true): since = head
                        default: break
                        }
                        LinkOutput.line(frame.json)
                        if case .error(let code, let message) = frame { reason = "\(code): \(message)" }
                    }
                    input.disconnect()
                    await session.close()
                } catch let error as CollabClientError {
                    reason = error.description
                    // No access yet: an owner may grant it while the editor is open, so it is asked again (backing
                    // off to every 30 s) and the user is told why they wait.
                    if case .server("forbidden", _) = error { reason += " (asked again until access is granted)" }
                    // Refused for good (no such user, a token past its time): trying again would not change the answer.
                    if case .server(let code, _) = error, ["unauthorized", "token-expired"].contains(code) {
                        LinkOutput.say(["type": "link", "state": "offline", "reason": reason])
                        while !input.ended { try await Task.sleep(for: .seconds(1)) }
                        return
                    }
                }
                guard !input.ended else { return }
                // Said again each second, so the editor's status line counts down to the next try.
                var wait = Double.random(in: 0...delay)
                while wait > 0, !input.ended {
                    LinkOutput.say(["type": "link", "state": "offline", "reason": reason, "retry": wait])
                    let step = min(1, wait)
                    try await Task.sleep(for: .milliseconds(Int(step * 1000)))
                    wait -= step
                }
                delay = min(30, delay * 2)
            }
        }
    }
}

/// Standard output, a line at a time and flushed: the editor acts on each line as it comes.
enum LinkOutput {
    private static let lock = NSLock()

    static func line(_ text: String) {
        lock.withLock {
            FileHandle.standardOutput.write(Data((text + "\n").utf8))
        }
    }

    static func say(_ fields: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]) else { return }
        line(String(decoding: data, as: UTF8.self))
    }
}

/// Standard input read on a thread of its own; each frame goes to the session connected at the time, if any.
final class LinkInput: @unchecked Sendable {
    private let lock = NSLock()
    private var session: CollabSession?
    private var finished = false

    var ended: Bool { lock.withLock { finished } }

    func connect(_ session: CollabSession) { lock.withLock { self.session = session } }
    func disconnect() { lock.withLock { session = nil } }

    func start() {
        let (frames, framesIn) = AsyncStream.makeStream(of: CollabFrame.Client.self)
        // One sender, so frames go in the order they came.
        Task { [self] in
            for await frame in frames {
                guard let session = lock.withLock({ self.session }) else { continue }
                try? await session.send(frame)
            }
        }
        let thread = Thread { [self] in
            while let line = readLine(strippingNewline: true) {
                guard let frame = try? CollabFrame.Client.decode(line), case .change = frame else { continue }
                framesIn.yield(frame)
            }
            lock.withLock { finished = true }
            // Nothing more to send: the editor is gone, and so is the link.
            exit(0)
        }
        thread.start()
    }
}
