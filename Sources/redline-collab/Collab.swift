import ArgumentParser
import CollabClient
import CommandLineSupport
import Foundation
import RedlineCore
import RedlineKit
import TerminalGrid

/// `redline collab …` (which `redline` runs as this program): a document's annotations shared through a
/// collaboration server (docs/collaboration.md).
@main
struct Collab: ParsableCommand {
    static func main() { CommandLineRunner.main(Collab.self) }

    static let configuration = CommandConfiguration(
        commandName: "redline collab",
        abstract: "Share a PDF's annotations through a collaboration server: share, push, pull, get, watch.",
        discussion: """
            The server is `redline serve` (docs/collaboration.md). --server and --token may also come from \
            config.toml ([collab] server, token) or REDLINE_TOKEN; a server started on this machine saves your \
            token where these commands find it. Exit status: 4 when the server cannot be reached or refuses.
            """,
        subcommands: [Share.self, Push.self, Pull.self, Get.self, Watch.self, Flood.self, Link.self])

    static let serverUnreachable: Int32 = 4
}

struct CollabOptions: ParsableArguments {
    @Option(help: "The server: ws://HOST:PORT, wss://HOST:PORT with TLS (default: config.toml, else ws://127.0.0.1:8790).")
    var server: String?
    @Option(help: "Your token (default: REDLINE_TOKEN, config.toml, or the file a local server saved).")
    var token: String?

    func endpoint() throws -> CollabEndpoint {
        let configuration = try ConfigurationOption.load()
        let environment = ProcessInfo.processInfo.environment
        let url = server ?? configuration.collabServer ?? "ws://127.0.0.1:8790"
        let token = token ?? environment["REDLINE_TOKEN"].flatMap { $0.isEmpty ? nil : $0 } ?? configuration.collabToken
            ?? Self.savedToken(environment)
        guard let token else {
            throw CommandFailure("no token: give --token, set REDLINE_TOKEN, or [collab] token in config.toml (redline serve user add NAME prints one)", code: ExitStatus.usage)
        }
        do {
            return try CollabEndpoint(url: url, token: token)
        } catch {
            throw CommandFailure("\(error)", code: ExitStatus.usage)
        }
    }

    private static func savedToken(_ environment: [String: String]) -> String? {
        (try? String(contentsOfFile: CollabTokenFile.path(environment: environment, home: NSHomeDirectory()), encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
    }
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}

/// Runs async work from a synchronous command, with the command's exit codes.
func runCollab(_ work: @escaping @Sendable () async throws -> Void) throws {
    let result = LockedResult()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { try await work() } catch { result.set(error) }
        done.signal()
    }
    done.wait()
    if let error = result.error {
        switch error {
        case let failure as CommandFailure: throw failure
        case let error as CollabClientError: throw CommandFailure(error.description, code: Collab.serverUnreachable)
        case let error as DocumentError: throw CommandFailure(error)
        case let error as XFDFError: throw CommandFailure("the server's XFDF does not fit this PDF: \(error)", code: ExitStatus.usage)
        default: throw CommandFailure("\(error)", code: ExitStatus.cannotWrite)
        }
    }
}

final class LockedResult: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (any Error)?
    var error: (any Error)? { lock.withLock { stored } }
    func set(_ error: any Error) { lock.withLock { stored = error } }
}

/// A shared document as this client reads it: connected, caught up to the server's head.
struct SharedDocumentReader {
    let session: CollabSession
    var replica: SharedDocumentReplica

    static func open(_ endpoint: CollabEndpoint, document: String, pages: [PageGeometry]) async throws -> SharedDocumentReader {
        let session = try await CollabSession.open(endpoint, document: document)
        var reader = SharedDocumentReader(session: session, replica: SharedDocumentReplica(pages: pages))
        if session.welcome.head > 0 || session.welcome.snapshot { try await reader.catchUp(to: session.welcome.head) }
        return reader
    }

    /// Reads frames until the replica has applied event `head` (a snapshot counts).
    mutating func catchUp(to head: Int) async throws {
        var snapshotDone = !session.welcome.snapshot
        for await frame in session.frames {
            try replica.apply(frame)
            if case .snapshot(_, _, _, let last) = frame, last { snapshotDone = true }
            if case .error(let code, let message) = frame { throw CollabClientError.server(code: code, message: message) }
            if snapshotDone && replica.head >= head { return }
        }
        throw CollabClientError.closed("before sending the document's annotations")
    }
}

enum SharedDocuments {
    /// A document id as the protocol allows it, checked before anything is sent: a typo is a usage error (exit 1).
    static func checkID(_ document: String) throws {
        guard CollabFrame.Client.isDocumentID(document) else {
            throw ValidationError("\(VisibleText.line(String(document.prefix(80)))) is not a document id (ASCII letters, digits, -, _ and ., as redline collab share prints)")
        }
    }

    /// Each refused annotation on a line of its own, then exit 4: a script sees that not everything was shared.
    static func report(_ refused: [String]) throws {
        guard !refused.isEmpty else { return }
        for line in refused { printError("refused: " + line) }
        throw CommandFailure("\(refused.count) annotation\(refused.count == 1 ? " was" : "s were") refused", code: Collab.serverUnreachable)
    }

    /// The id a PDF is shared under: the first half of its /ID, which copies keep; without one, a hash of its bytes.
    /// `bytes`: the file's contents when the caller has read them already.
    static func id(of path: String, description: DocumentDescription, bytes: Data? = nil) throws -> String {
        if let permanent = description.permanentID { return permanent }
        return DocumentIdentity.derived(fromBytes: [UInt8](try bytes ?? Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// What a push did: accepted, refused (each named), and the file's comments XFDF cannot carry.
    struct Pushed {
        var sent = 0
        var refused: [String] = []
        var leftOut = 0
        /// The file's annotations the server had already (from an earlier share or push): not sent again.
        var present = 0

        func summary(_ input: String, document: String) -> String {
            var parts = ["\(sent) annotation\(sent == 1 ? "" : "s") sent"]
            if !refused.isEmpty { parts.append("\(refused.count) refused") }
            if leftOut > 0 { parts.append("\(leftOut) left out (XFDF has no form for them, as for an ink annotation without strokes)") }
            let had = present == 0 ? "" : "; \(present) the server had already"
            return "\(input): \(parts.joined(separator: ", ")) to \(document)\(had)"
        }
    }

    /// Changes in flight at once, and the pace they are sent at: under the server's 100 a second, so that a file
    /// of thousands of annotations is shared at the server's pace instead of being cut off as too fast, and the
    /// server's pings are never queued behind a backlog.
    private static let window = 32
    private static let perSecond = 90.0

    /// share and push: joins the document, uploads the PDF first when given, and sends the file's annotations the
    /// server lacks.
    static func send(_ description: DocumentDescription, to document: String, endpoint: CollabEndpoint,
                     uploading pdf: Data?) async throws -> Pushed {
        var reader = try await SharedDocumentReader.open(endpoint, document: document, pages: description.pages)
        if let pdf { try await CollabHTTP.putPDF(pdf, document: document, endpoint: endpoint) }
        let pushed = try await push(annotationsOf: description, reader: &reader)
        await reader.session.close()
        return pushed
    }

    /// Sends every annotation of the file that XFDF can carry and the server has not seen, as the connected user's
    /// own additions.
    private static func push(annotationsOf description: DocumentDescription, reader: inout SharedDocumentReader) async throws -> Pushed {
        let pages = description.pages
        let author = reader.session.welcome.user
        let comments = description.annotations.filter { $0.subtype.isMarkup }
        var queue = comments.filter { XFDF.carries($0, pages: pages) && reader.replica.entries[$0.id.rawValue] == nil }[...]
        var pushed = Pushed(leftOut: comments.count(where: { !XFDF.carries($0, pages: pages) }),
                            present: comments.count(where: { XFDF.carries($0, pages: pages) && reader.replica.entries[$0.id.rawValue] != nil }))
        var waiting: [String: AnnotationID] = [:]
        var frames = reader.session.frames.makeAsyncIterator()
        let clock = ContinuousClock()
        let spacing = Duration.seconds(1 / perSecond)
        var nextSend = clock.now
        while !queue.isEmpty || !waiting.isEmpty {
            while let annotation = queue.first, waiting.count < window {
                if clock.now < nextSend {
                    guard waiting.isEmpty else { break }
                    try await clock.sleep(until: nextSend)
                }
                let change = AnnotationChange.writing(annotation, pages: pages, operationID: UUID().uuidString, author: author,
                                                      baseVersion: nil)
                waiting[change.operationID] = annotation.id
                try await reader.session.send(.change(operation: change.operationID, base: nil, xfdf: change.xfdf))
                queue.removeFirst()
                nextSend = max(nextSend, clock.now - .seconds(1)) + spacing
            }
            guard !waiting.isEmpty else { continue }
            guard let frame = await frames.next() else {
                throw CollabClientError.closed("before answering every change (\(waiting.count + queue.count) unanswered)")
            }
            try reader.replica.apply(frame)
            switch frame {
            case .ack(let op, _, _, _) where waiting[op] != nil:
                waiting[op] = nil
                pushed.sent += 1
            case .refused(let op, let code, let message, _, _) where waiting[op] != nil:
                pushed.refused.append("\(waiting[op]!.rawValue): \(message) (\(code))")
                waiting[op] = nil
            case .error(let code, let message):
                throw CollabClientError.server(code: code, message: message)
            default: break
            }
        }
        return pushed
    }
}

extension Collab {
    struct Share: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Upload a PDF and its annotations to the server; prints the document id others join with.")
        @Argument(help: "The PDF.", completion: .file(extensions: ["pdf"])) var input: String
        @OptionGroup var collab: CollabOptions
        @OptionGroup var passwordOption: PasswordOption

        func run() throws {
            let endpoint = try collab.endpoint()
            let description = try Self.describe(input, passwordOption.password)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: input))
            let document = try SharedDocuments.id(of: input, description: description, bytes: bytes)
            let input = self.input
            try runCollab {
                let pushed = try await SharedDocuments.send(description, to: document, endpoint: endpoint, uploading: bytes)
                try printOutput(document)
                printError(pushed.summary(input, document: document))
                try SharedDocuments.report(pushed.refused)
            }
        }

        static func describe(_ path: String, _ password: String?) throws -> DocumentDescription {
            do { return try MarkupApplication.describe(path, password: password) } catch let error as DocumentError { throw CommandFailure(error) }
        }
    }

    struct Push: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send the file's annotations the server lacks, as your own.")
        @Argument(help: "The PDF.", completion: .file(extensions: ["pdf"])) var input: String
        @OptionGroup var collab: CollabOptions
        @OptionGroup var passwordOption: PasswordOption

        func run() throws {
            let endpoint = try collab.endpoint()
            let description = try Share.describe(input, passwordOption.password)
            let document = try SharedDocuments.id(of: input, description: description)
            let input = self.input
            try runCollab {
                let pushed = try await SharedDocuments.send(description, to: document, endpoint: endpoint, uploading: nil)
                printError(pushed.summary(input, document: document))
                try SharedDocuments.report(pushed.refused)
            }
        }
    }

    struct Pull: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a copy of the PDF carrying the server's annotations (what others deleted, removed).")
        @Argument(help: "The PDF.", completion: .file(extensions: ["pdf"])) var input: String
        @Option(help: "Where to write the copy.", completion: .file(extensions: ["pdf"])) var output: String
        @OptionGroup var collab: CollabOptions
        @OptionGroup var passwordOption: PasswordOption

        func run() throws {
            let endpoint = try collab.endpoint()
            let description = try Share.describe(input, passwordOption.password)
            let document = try SharedDocuments.id(of: input, description: description)
            try Self.pull(document: document, into: input, password: passwordOption.password, output: output, endpoint: endpoint,
                          pages: description.pages)
        }

        static func pull(document: String, into input: String, password: String?, output: String, endpoint: CollabEndpoint,
                         pages: [PageGeometry]) throws {
            if FilePaths.sameFile(output, input) {
                throw CommandFailure("\(output): that is the PDF being read; write the copy elsewhere", code: ExitStatus.usage)
            }
            try runCollab {
                let reader = try await SharedDocumentReader.open(endpoint, document: document, pages: pages)
                await reader.session.close()
                let replica = reader.replica
                // A PDF without /ID is shared under a hash of its bytes: the copy carries that id as its /ID, so
                // that it, and every copy of it, is still the shared document.
                try XFDFExchange.applying({ description in replica.command(toward: description.annotations) },
                                          to: input, password: password, writingTo: output, identity: document)
                printError("\(output): \(replica.annotations.count) shared annotation\(replica.annotations.count == 1 ? "" : "s") (event \(replica.head))")
                for (name, why) in replica.leftOut.sorted(by: { $0.key < $1.key }) {
                    printError("left out \(name): this PDF cannot hold it (\(why))")
                }
            }
        }
    }

    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Download a shared PDF with the server's annotations.")
        @Argument(help: "The document id (redline collab share prints it).") var document: String
        @Option(help: "Where to write the PDF.", completion: .file(extensions: ["pdf"])) var output: String
        @OptionGroup var collab: CollabOptions

        func validate() throws { try SharedDocuments.checkID(document) }

        func run() throws {
            let endpoint = try collab.endpoint()
            let document = self.document
            let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("redline-get-\(UUID().uuidString).pdf").path
            defer { try? FileManager.default.removeItem(atPath: temporary) }
            try runCollab {
                let bytes = try await CollabHTTP.getPDF(document: document, endpoint: endpoint)
                guard FileManager.default.createFile(atPath: temporary, contents: bytes, attributes: [.posixPermissions: 0o600]) else {
                    throw CommandFailure("cannot write a temporary copy in \(FileManager.default.temporaryDirectory.path)", code: ExitStatus.cannotWrite)
                }
            }
            let description = try Share.describe(temporary, nil)
            try Pull.pull(document: document, into: temporary, password: nil, output: output, endpoint: endpoint, pages: description.pages)
        }
    }

    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a shared document's events as JSON lines as they happen (the server's event frames).",
            discussion: """
                When the connection drops after it was made (the server restarted, the network went away), watch \
                connects again with growing pauses and carries on after the last event it printed, as `tail -F` \
                follows a file; stderr says so. --once ends it instead (exit 4).
                """)
        @Argument(help: "The document id.") var document: String

        func validate() throws {
            try SharedDocuments.checkID(document)
            if let since, since < 0 { throw ValidationError("--since takes an event number from 0 (0: every event the server keeps)") }
        }
        // Unconditional, so that `--since -1` is read as a number and refused as one, not as a missing value.
        @Option(parsing: .unconditional,
                help: "Start after this event (default: every event the server keeps, or the current set as a snapshot).")
        var since: Int?
        @Flag(help: "End (exit 4) when the connection ends, instead of connecting again.") var once = false
        @OptionGroup var collab: CollabOptions

        func run() throws {
            let endpoint = try collab.endpoint()
            let document = self.document
            let once = self.once
            let start = self.since ?? 0
            try runCollab {
                var since = start
                var connectedBefore = false
                var delay = 0.5
                while true {
                    var reason = "the connection ended"
                    do {
                        let session = try await CollabSession.open(endpoint, document: document, since: since)
                        if connectedBefore { printError("connected again: carrying on after event \(since)") }
                        connectedBefore = true
                        delay = 0.5
                        if since > 0, session.welcome.snapshot {
                            // Events from `since` cannot follow: say why before the set that comes instead.
                            let why = since > session.welcome.head
                                ? "the server's log ends at event \(session.welcome.head), before \(since) (a copy from another server, or a database put back?)"
                                : "the server no longer keeps the events after \(since)"
                            printError("\(why): the whole current set follows as a snapshot")
                        }
                        frames: for await frame in session.frames {
                            switch frame {
                            case .event(let event):
                                try printOutput(frame.json)
                                since = max(since, event.seq)
                            case .snapshot(let head, _, _, let last):
                                try printOutput(frame.json)
                                if last { since = head }
                            case .error(let code, let message) where ["shutting-down", "unavailable"].contains(code):
                                // The server stopping or its database failing: elsewhere or later, the log goes on.
                                reason = "the server closed the connection: \(message)"
                                break frames
                            case .error(let code, let message):
                                throw CollabClientError.server(code: code, message: message)
                            default: continue
                            }
                        }
                        await session.close()
                    } catch let error as CollabClientError {
                        // The first connection failing, or a refusal, is an answer: trying again would not change it.
                        if !connectedBefore { throw error }
                        if case .server = error { throw error }
                        reason = error.description
                    }
                    if once { throw CollabClientError.closed(reason) }
                    let wait = Double.random(in: delay / 2...delay)
                    printError("\(reason): connecting again in \(String(format: "%.1f", wait)) s")
                    try await Task.sleep(for: .milliseconds(Int(wait * 1000)))
                    delay = min(30, delay * 2)
                }
            }
        }
    }
}
