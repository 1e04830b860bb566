import ArgumentParser
import CollabServer
import Foundation
import Logging
import RedlineCore
import ServiceLifecycle
import NIOCore

struct DatabaseOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "sqlite:PATH (default: $XDG_DATA_HOME/redline/server/redline.sqlite), or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE for several instances.",
        valueName: "location"))
    var database: String?

    func open(logger: Logger = Logger(label: "redline.server")) async throws -> any CollabStore {
        if let database, database.hasPrefix("postgres://") || database.hasPrefix("postgresql://") {
            return try await PostgresCollabStore.connect(PostgresLocation(url: database), logger: logger)
        }
        let path: String
        if let database {
            // A typo must not start a server on a new, empty database file named after it.
            guard database.hasPrefix("sqlite:"), database.count > "sqlite:".count else {
                throw ValidationError("--database takes sqlite:PATH or postgres://USER@HOST/DATABASE; \(Shown.text(database, most: 40)) is neither")
            }
            path = Self.expandingHome(String(database.dropFirst("sqlite:".count)))
        } else {
            path = ServerPaths.dataFolder() + "/redline.sqlite"
        }
        // The database holds token hashes and every document's annotations: a folder made for it is the owner's
        // alone (a folder that exists keeps its mode).
        let folder = (path as NSString).deletingLastPathComponent
        do {
            if !folder.isEmpty {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            }
            return try SQLiteCollabStore(path: path)
        } catch {
            throw DatabaseUnavailable(description: "cannot open the database \(path): \(Self.reason(error))")
        }
    }

    /// The shell leaves `~` after `sqlite:` as it is: `sqlite:~/review.sqlite` means the home folder.
    static func expandingHome(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        let home = ProcessInfo.processInfo.environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        return home + path.dropFirst()
    }

    /// The operating system's reason (Foundation's own words are "the operation could not be completed").
    private static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if error.domain == NSCocoaErrorDomain {
            switch error.code {
            case NSFileWriteFileExistsError: return "a file is in the way of its folder"
            case NSFileNoSuchFileError, NSFileWriteNoPermissionError, NSFileReadNoPermissionError:
                return "its folder cannot be made there (\(String(cString: strerror(error.code == NSFileNoSuchFileError ? ENOENT : EACCES))))"
            default: break
            }
        }
        return error.localizedDescription
    }
}

/// The database could not be opened: a fault of the machine, not of the command line (exit 1, not 64).
struct DatabaseUnavailable: Error, CustomStringConvertible {
    let description: String
}

/// What a user typed, shown in a message: control characters dropped (they would reach the terminal), cut short.
enum Shown {
    static func text(_ typed: String, most: Int) -> String {
        let visible = String(String.UnicodeScalarView(typed.unicodeScalars.filter { $0.properties.generalCategory != .control }))
        return visible.count > most ? visible.prefix(most) + "…" : visible
    }
}

enum ServerPaths {
    static func dataFolder() -> String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? (NSHomeDirectory() + "/.local/share")
        return base + "/redline/server"
    }

    static func tokenFile() -> String {
        CollabTokenFile.path(environment: ProcessInfo.processInfo.environment, home: NSHomeDirectory())
    }
}

/// `redline serve [OPTIONS]` runs the server; `redline serve user …` and `grant …` manage access. The server's
/// options belong to the command itself, so that `redline serve --help` lists them.
@main
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redline serve",
        abstract: "The collaboration server: reviewers of one document see each other's annotations as they are made.",
        discussion: """
            With no arguments it listens on 127.0.0.1:8790 and keeps its SQLite database under \
            $XDG_DATA_HOME/redline/server/. On its first start it makes a user named after you and saves the token in \
            $XDG_CONFIG_HOME/redline/collab-token, where `redline collab` finds it. docs/collaboration.md says how \
            to serve a team and run several instances on PostgreSQL; docs/collaboration-protocol.md describes the \
            protocol.
            """,
        subcommands: [User.self, Grant.self])

    /// Errors in one line that names the program, as `redline`'s other commands print them ("redline serve: …"),
    /// not ArgumentParser's "Error:" and the whole usage; bad usage still exits 64, --help and --version 0, a
    /// database that cannot be opened 1.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            guard code != .success, !(error is ExitCode) else { exit(withError: error) }
            let message = message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            // The pointer to --help only where the command line was wrong, not where the machine failed.
            let help = code == .validationFailure ? " (redline serve --help lists the options)" : ""
            say("redline serve: " + message.replacingOccurrences(of: "Error: ", with: "") + help)
            Foundation.exit(code.rawValue)
        }
    }

    @Option(help: "HOST:PORT to listen on; anything but loopback needs --tls-cert/--tls-key or --insecure.")
    var listen = "127.0.0.1:8790"
    @OptionGroup var database: DatabaseOption
    @Flag(help: "Every user may read and write every document, without grants (a trusted local team).")
    var open = false
    @Option(name: .customLong("tls-cert"), help: "PEM certificate chain: serve wss:// and https://.")
    var tlsCertificate: String?
    @Option(name: .customLong("tls-key"), help: "PEM private key of --tls-cert.")
    var tlsKey: String?
    @Flag(help: "Listen beyond loopback without TLS (behind a proxy that terminates TLS).")
    var insecure = false
    @Option(name: .customLong("jwt-public-key"),
            help: "PEM public key (ECDSA, Ed25519 or RSA) of an organisation whose JWTs are accepted beside the server's tokens.")
    var jwtPublicKey: String?
    @Option(name: .customLong("jwt-issuer"), help: "Accept only JWTs whose iss claim is this.")
    var jwtIssuer: String?
    @Option(help: "Events kept per document; a client further behind gets the whole set.")
    var keepEvents = 100_000
    @Option(help: "Log level: trace, debug, info, notice, warning, error.")
    var logLevel = "info"

    func validate() throws {
        guard (tlsCertificate == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
        let (host, _) = try address()
        if !Self.isLoopback(host), tlsCertificate == nil, !insecure {
            throw ValidationError("listening on \(host) sends tokens and annotations in the clear: give --tls-cert and --tls-key, or --insecure behind a TLS proxy")
        }
        guard keepEvents >= 1 else { throw ValidationError("--keep-events is at least 1") }
        guard jwtIssuer == nil || jwtPublicKey != nil else { throw ValidationError("--jwt-issuer goes with --jwt-public-key") }
    }

    func address() throws -> (String, Int) {
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]), (0...65535).contains(port) else {
            throw ValidationError("--listen takes HOST:PORT, such as 127.0.0.1:8790")
        }
        var host = String(listen[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host, port)
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    func run() async throws {
        var logger = Logger(label: "redline.server")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        var tokens: OrganisationTokens?
        if let jwtPublicKey {
            do {
                let pem = try String(contentsOfFile: jwtPublicKey, encoding: .utf8)
                tokens = try await OrganisationTokens.load(publicKeyPEM: pem, issuer: jwtIssuer)
            } catch let error as CollabServerError {
                Self.say("redline serve: \(jwtPublicKey): \(error)")
                throw ExitCode(1)
            } catch {
                Self.say("redline serve: cannot read the JWT key \(jwtPublicKey): \(error.localizedDescription)")
                throw ExitCode(1)
            }
        }
        let store = try await database.open(logger: logger)
        var configuration = CollabServerConfiguration()
        (configuration.host, configuration.port) = try address()
        configuration.open = open
        configuration.keptEvents = keepEvents
        if let tlsCertificate, let tlsKey { configuration.tls = (tlsCertificate, tlsKey) }
        let makeFirstUser = try await store.users().isEmpty && Self.isLoopback(configuration.host)
        let scheme = configuration.tls == nil ? "ws" : "wss"
        let shownHost = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        do {
            try await serve(store: store, configuration: configuration, tokens: tokens, logger: logger,
                            makeFirstUser: makeFirstUser, scheme: scheme, shownHost: shownHost)
        } catch let error as CollabServerError {
            Self.say("redline serve: \(error)")
            throw ExitCode(1)
        }
    }

    private func serve(store: any CollabStore, configuration: CollabServerConfiguration, tokens: OrganisationTokens?,
                       logger: Logger, makeFirstUser: Bool, scheme: String, shownHost: String) async throws {
        let application = try CollabServer.application(store: store, configuration: configuration, tokens: tokens,
                                                       logger: logger) { port in
            // Only once listening: a server that cannot start makes no user and writes no token.
            if makeFirstUser {
                do { try await firstUser(store) } catch { Self.say("cannot make the first user: \(error)") }
            }
            // Tests and scripts wait for this line.
            Self.say("Redline server listening on \(scheme)://\(shownHost):\(port)")
        }
        var group = ServiceGroupConfiguration(services: [.init(service: application)], gracefulShutdownSignals: [.sigterm, .sigint],
                                              logger: logger)
        group.maximumGracefulShutdownDuration = configuration.shutdownGrace
        do {
            try await ServiceGroup(configuration: group).run()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            Self.say("redline serve: \(shownHost):\(configuration.port) is in use (another redline serve?): choose another with --listen HOST:PORT")
            throw ExitCode(1)
        } catch let error as IOError where error.errnoCode == EACCES || error.errnoCode == EADDRNOTAVAIL {
            Self.say("redline serve: cannot listen on \(shownHost):\(configuration.port): \(String(cString: strerror(error.errnoCode)))")
            throw ExitCode(1)
        }
    }

    static func say(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// A fresh server on loopback makes its owner a user, so that `redline collab` works at once.
    private func firstUser(_ store: any CollabStore) async throws {
        let name = ProcessInfo.processInfo.environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "owner"
        let token = BearerTokens.make()
        try await store.addUser(name: name, tokenHash: BearerTokens.hash(token))
        let path = ServerPaths.tokenFile()
        // Another server's token may be there (a second database, another port): never overwrite it.
        if FileManager.default.fileExists(atPath: path) {
            Self.say("First start: made the user \(name). \(path) holds another server's token, kept; this server's token is \(token) (shown once: give it to redline collab with --token or REDLINE_TOKEN).")
            return
        }
        try TokenFile.write(token, to: path)
        Self.say("First start: made the user \(name); its token is in \(path), where redline collab reads it.")
    }
}

enum TokenFile {
    /// Written 0600 through a temporary file and a rename: a reader never sees half a token.
    static func write(_ token: String, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = path + ".\(getpid()).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data((token + "\n").utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw ValidationError("cannot write \(temporary)")
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw ValidationError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}

struct User: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Add, remove and list users.",
                                                    subcommands: [Add.self, Remove.self, List.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a user and print their token (once: only its hash is kept).")
        @Argument(help: "The user's name, as their annotations will carry it.") var name: String
        @OptionGroup var database: DatabaseOption

        func validate() throws {
            if let problem = CollabUserName.problem(name) {
                throw ValidationError("\(name.debugDescription) cannot be a user name: \(problem) (1 to 128 bytes, not blank, no control characters)")
            }
        }

        func run() async throws {
            let store = try await database.open()
            let token = BearerTokens.make()
            try await store.addUser(name: name, tokenHash: BearerTokens.hash(token))
            print(token)
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a user: their token stops working and their connections close.")
        @Argument var name: String
        @OptionGroup var database: DatabaseOption

        func run() async throws {
            guard try await database.open().removeUser(name: name) else { throw CollabStoreError.noSuchUser(name) }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List users.")
        @OptionGroup var database: DatabaseOption

        func run() async throws {
            for user in try await database.open().users() { print("\(user.name)\t\(user.created)") }
        }
    }
}

struct Grant: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Let a user read and write (or only read) a document.")
    @Argument(help: "The user.") var name: String
    @Argument(help: "The document id (`redline collab share` prints it).") var document: String
    @Flag(help: "Receive only: the user cannot change anything.") var readOnly = false
    @Flag(help: "Take the user's access away.") var revoke = false
    @OptionGroup var database: DatabaseOption

    func validate() throws {
        guard CollabFrame.Client.isDocumentID(document) else {
            throw ValidationError("\(Shown.text(document, most: 80)) is not a document id (ASCII letters, digits, -, _ and ., as redline collab share prints)")
        }
    }

    func run() async throws {
        let access: DocumentAccess? = revoke ? nil : (readOnly ? .read : .write)
        try await database.open().grant(document: document, user: name, access: access)
    }
}
