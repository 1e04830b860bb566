import ArgumentParser
import CollabClient
import CommandLineSupport
import Foundation
import RedlineCore

extension Collab {
    /// The load of `make bench-collab`'s throughput runs: senders spread over documents and servers, each keeping a
    /// window of changes in flight, every one also receiving its document's events as a member does (received, not
    /// decoded: decoding every event took a core of the two, so the figure measured the client, as a Python client's
    /// did before). Prints the changes accepted per second; asserts nothing.
    struct Flood: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bench-flood", abstract: "Load a server with changes and print how many it accepts a second.",
            shouldDisplay: false)
        @Option(help: "The servers, comma-separated (ws://HOST:PORT); senders take turns among them.") var servers: String
        @Option(help: "Tokens, comma-separated; senders take turns among them.") var tokens: String
        @Option(help: "Documents the senders are spread over.") var documents = 1
        @Option(help: "Connections sending changes.") var senders = 32
        @Option(help: "Changes in all.") var changes = 8000
        @Option(help: "Changes each sender keeps in flight.") var window = 32
        @Flag(help: "Ask for one event per frame, as a client that does not take batches would.") var singleFrames = false

        func run() throws {
            let urls = servers.split(separator: ",").map(String.init)
            let tokens = tokens.split(separator: ",").map(String.init)
            guard !urls.isEmpty, !tokens.isEmpty, documents > 0, senders > 0, window > 0 else {
                throw CommandFailure("give servers, tokens, and positive counts", code: ExitStatus.usage)
            }
            let (documents, senders, window, batches) = (documents, senders, window, !singleFrames)
            let each = changes / senders
            let run = UUID().uuidString.prefix(8).lowercased()
            try runCollab {
                var sessions: [CollabSession] = []
                for index in 0..<senders {
                    let endpoint = try CollabEndpoint(url: urls[index % urls.count], token: tokens[index % tokens.count])
                    sessions.append(try await CollabSession.open(endpoint, document: "bench-flood-\(run)-\(index % documents)",
                                                                batches: batches, skippingEvents: true))
                }
                let start = ContinuousClock.now
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (index, session) in sessions.enumerated() {
                        group.addTask { try await Self.send(each, from: session, named: "s\(index)", window: window) }
                    }
                    try await group.waitForAll()
                }
                let elapsed = ContinuousClock.now - start
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                try printOutput("accepted \(Int((Double(each * senders) / seconds).rounded())) changes/s (\(each * senders) changes, \(senders) senders, \(documents) documents)")
                for session in sessions { await session.close() }
            }
        }

        /// Sends `count` new notes, never more than `window` unanswered; an answer is the ack of one of them.
        private static func send(_ count: Int, from session: CollabSession, named sender: String, window: Int) async throws {
            var sent = 0
            var answered = 0
            func sendNext() async throws {
                let name = "\(sender)-\(sent)"
                let xfdf = #"<?xml version="1.0" encoding="UTF-8"?><xfdf xmlns="http://ns.adobe.com/xfdf/"><add><text name=""#
                    + name + #"" page="0" rect="100,100,120,120"><contents>note</contents></text></add></xfdf>"#
                try await session.send(.change(operation: UUID().uuidString, base: nil, xfdf: xfdf))
                sent += 1
            }
            while sent < min(window, count) { try await sendNext() }
            for await frame in session.frames {
                switch frame {
                case .ack:
                    answered += 1
                    if answered == count { return }
                    if sent < count { try await sendNext() }
                case .refused(_, let code, let message, _, _):
                    throw CollabClientError.server(code: code, message: message)
                case .error(let code, let message):
                    throw CollabClientError.server(code: code, message: message)
                default:
                    continue
                }
            }
            throw CollabClientError.closed("the connection ended after \(answered) of \(count) answers")
        }
    }
}
