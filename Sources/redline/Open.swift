import ArgumentParser
import CommandLineSupport
import Editor
import Foundation
import RedlineKit
import TerminalFrontEnd
import TerminalGrid
import RedlineCore

/// `redline FILE.pdf`: the full-screen editor.
struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "open", abstract: "Open a PDF in the editor (the default command).")

    @Argument(help: "The PDF to open.", completion: .file(extensions: ["pdf"]))
    var file: String?

    @Flag(help: "Ask the terminal what it can show (graphics protocols, cell size in pixels, pixel mouse), print what it answered, and quit.")
    var probe = false

    @Option(name: .long, help: ArgumentHelp("How the page is drawn: auto (ask the terminal), kitty, sixel, iterm2 or symbols.",
                                            valueName: "MODE"))
    var graphics: String?

    @Option(name: .long, help: "The page to start on, from 1 (default: where you left the document, else the first).")
    var page: Int?

    @Option(name: .long, help: ArgumentHelp("Append every interaction the editor performs or refuses to FILE, a JSON line each.",
                                            valueName: "FILE"), completion: .file())
    var events: String?

    @Option(name: .long, help: ArgumentHelp("Review together: join the document's shared session on this server (ws://HOST:PORT, wss:// with TLS; redline serve). FILE may then be a document id, fetched first.",
                                            valueName: "URL"))
    var collab: String?

    @Option(name: .long, help: "With --collab: your token (default: REDLINE_TOKEN, config.toml [collab] token, or the file a local server saved).")
    var token: String?

    @OptionGroup var authorOption: AuthorOption
    @OptionGroup var passwordOption: PasswordOption
    @OptionGroup var outlineOption: OutlineOption

    func validate() throws {
        if let page, page < 1 { throw ValidationError("--page counts from 1") }
        guard probe || file != nil else { throw ValidationError("Missing expected argument '<file>'") }
        if let graphics, GraphicsRequest(rawValue: graphics) == nil {
            throw ValidationError("--graphics must be one of \(GraphicsRequest.names), not \"\(graphics)\"")
        }
    }

    func run() throws {
        if probe {
            guard let report = EditorLauncher.probeReport(environment: ProcessInfo.processInfo.environment) else {
                throw CommandFailure("--probe asks the terminal, and this process has none (/dev/tty cannot be opened)", code: 1)
            }
            try printOutput(report)
            return
        }
        guard var file else { return }
        let (configured, author) = try authorOption.resolve()
        let configuration = outlineOption.applied(to: configured)
        let reviewer = Reviewer(author: author, threadActionsEnabled: configuration.replies)
        var shared: SharedLaunch?
        if let collab {
            // The link reads the token where `redline collab` does; given here, it goes by the environment, not
            // the command line others can read.
            if let token { setenv("REDLINE_TOKEN", token, 1) }
            let server = ["--server", collab]
            var copiesFolder: String?
            if !FileManager.default.fileExists(atPath: file), CollabFrame.Client.isDocumentID(file) {
                file = try SharedCopy.fetch(document: file, server: server)
                // The fetched file is the cache's: copies go where the user is, not into the cache.
                copiesFolder = FileManager.default.currentDirectoryPath
            }
            shared = SharedLaunch(linkCommand: [SiblingProgram.path("redline-collab"), "link"] + server,
                                  authorOnly: configuration.collabAuthorOnly, copiesFolder: copiesFolder)
        }
        do {
            try EditorLauncher.launch(path: file, page: page, password: passwordOption.password, reviewer: reviewer,
                                      configuration: configuration,
                                      graphics: graphics.flatMap(GraphicsRequest.init(rawValue:)), eventsPath: events, shared: shared,
                                      endsProcess: true)
        } catch let error as DocumentError {
            throw CommandFailure(error)
        } catch let error as EditorLauncher.LaunchError {
            throw CommandFailure(error.description, code: error.exitCode)
        }
    }
}

/// A document someone shared, fetched with its annotations into the cache before the editor opens it.
enum SharedCopy {
    static func fetch(document: String, server: [String]) throws -> String {
        let environment = ProcessInfo.processInfo.environment
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory() + "/.cache"
        let folder = cache + "/redline/shared"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = folder + "/\(document).pdf"
        let part = path + ".part-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: part) }
        printError("Fetching \(document)…")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: SiblingProgram.path("redline-collab"))
        process.arguments = ["get", document, "--output", part] + server
        // What it says names the file by where it ends up, not by the part being written.
        let said = Pipe()
        process.standardError = said
        try process.run()
        let words = said.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var passed = Array(String(decoding: words, as: UTF8.self).replacingOccurrences(of: part, with: path).utf8)
        _ = write(STDERR_FILENO, &passed, passed.count)
        guard process.terminationStatus == 0 else {
            throw CommandFailure("could not fetch \(document) (redline collab get said why above)", code: process.terminationStatus)
        }
        guard rename(part, path) == 0 else {
            throw CommandFailure("cannot keep the fetched copy at \(path): \(String(cString: strerror(errno)))", code: ExitStatus.cannotWrite)
        }
        return path
    }
}
