import Foundation
import TestSupport
import Testing

/// Two editors in two terminals reviewing one document through a real `redline serve`: what one places the other
/// sees and cannot move, replies and review states go both ways, and both keep working while the server is down
/// and converge when it is back.
@Suite(.serialized) struct SharedEditingInTerminalTests {
    /// `redline serve` on a port of its own, with an SQLite database in `folder`; `kill` is a `kill -9`.
    final class Server {
        let port: Int
        let folder: TemporaryFolder
        let database: String
        private var process: Process?

        let open: Bool

        /// `database`: PostgreSQL's URL for one of several instances; an SQLite file in `folder` otherwise. `open`:
        /// anyone joins (`--open`), else only the owner and members.
        init(folder: TemporaryFolder, database: String? = nil, open: Bool = true) throws {
            self.folder = folder
            self.open = open
            self.database = database ?? "sqlite:" + folder.file("server.sqlite")
            port = try Self.freePort()
            try start()
        }

        var url: String { "ws://127.0.0.1:\(port)" }
        var environment: [String: String] {
            ["XDG_DATA_HOME": folder.file("data"), "XDG_CONFIG_HOME": folder.file("config"), "HOME": folder.path,
             "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        }

        /// Starts it, on the same port as before, unless it runs.
        func start() throws {
            guard process == nil else { return }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: TestPaths.redline)
            process.arguments = ["serve", "--listen", "127.0.0.1:\(port)", "--database", database] + (open ? ["--open"] : [])
            process.environment = environment
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            process.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try process.run()
            self.process = process
            let deadline = Date().addingTimeInterval(60)
            while !Self.accepts(port) {
                guard Date() < deadline, process.isRunning else { throw ToolFailure(tool: "redline serve", output: "never listened") }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }

        func kill() {
            guard let process else { return }
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            self.process = nil
        }

        func addUser(_ name: String) throws -> String {
            let result = try ProcessRunner.run(TestPaths.redline, ["serve", "user", "add", name, "--database", database],
                                               environment: environment)
            return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        deinit { kill() }

        static func accepts(_ port: Int) -> Bool {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(descriptor) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            } == 0
        }

        static func freePort() throws -> Int {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(descriptor) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
                }
            }
            guard bound else { throw ToolFailure(tool: "bind", output: String(cString: strerror(errno))) }
            return Int(UInt16(bigEndian: address.sin_port))
        }
    }

    func editor(_ file: String, token: String, server: Server, folder: TemporaryFolder, name: String) throws -> TmuxSession {
        try TmuxSession(command: "\(TestPaths.redline) \(file) --graphics symbols --collab \(server.url)",
                        environment: ["REDLINE_TOKEN": token, "XDG_CONFIG_HOME": folder.file("config-\(name)"),
                                      "XDG_CACHE_HOME": folder.file("cache-\(name)"), "HOME": folder.path])
    }

    /// (id, author, contents) of every annotation of a PDF, sorted: what two copies must agree on.
    func annotations(of path: String) throws -> [String] {
        let json = try ProcessRunner.run(TestPaths.redline, ["annotations", "--json", path]).stdout
        let list = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        return list.map { "\($0["id"] ?? "") · \($0["type"] ?? "") · \($0["author"] ?? "") · \($0["contents"] as? String ?? "")" }.sorted()
    }

    /// Bob opens a document he is not yet a member of: his editor says why it waits and asks again; once Alice's
    /// owner grants him access, it joins without being opened again.
    @Test func anEditorRefusedAccessJoinsOnceItIsGranted() throws {
        let folder = TemporaryFolder()
        let server = try Server(folder: folder, open: false)
        let (aliceToken, bobToken) = (try server.addUser("alice"), try server.addUser("bob"))
        let (_, bobFile, document) = try aliceShares(on: server, token: aliceToken, folder: folder)
        let bob = try editor(bobFile, token: bobToken, server: server, folder: folder, name: "bob")
        try bob.waitFor("bob is not a member of")
        try bob.waitFor("retry in")
        let granted = try ProcessRunner.run(TestPaths.redline, ["serve", "grant", "bob", document, "--database", server.database],
                                            environment: server.environment)
        try #require(granted.status == 0, "\(granted.stderr)")
        try bob.waitFor("shared as bob: live")
        #expect(try bob.screen().contains("Shared session connected"))
    }

    @Test func twoEditorsReviewTogetherThroughTheServerAndConvergeAfterItWasDown() throws {
        let folder = TemporaryFolder()
        let server = try Server(folder: folder)
        try reviewTogether(folder: folder, servers: [server, server])
    }

    /// The same with two instances on one PostgreSQL database, each editor on its own instance.
    @Test func twoEditorsOnTwoInstancesOnOnePostgreSQLConverge() throws {
        let cluster = try ThrowawayPostgres()
        defer { withExtendedLifetime(cluster) {} }
        let folder = TemporaryFolder()
        let first = try Server(folder: folder, database: cluster.url)
        let second = try Server(folder: folder, database: cluster.url)
        try reviewTogether(folder: folder, servers: [first, second])
    }

    /// Alice's copy of a corpus file with annotations, shared by her (she owns the document), and Bob's copy of it.
    func aliceShares(on server: Server, token: String, folder: TemporaryFolder) throws -> (alice: String, bob: String, document: String) {
        let aliceFile = folder.copy(fixture: "pdfcpu_text_annotations.pdf")
        let bobFile = folder.file("bob.pdf")
        try FileManager.default.copyItem(atPath: aliceFile, toPath: bobFile)
        let shared = try ProcessRunner.run(TestPaths.redline, ["collab", "share", aliceFile, "--server", server.url],
                                           environment: server.environment.merging(["REDLINE_TOKEN": token]) { $1 })
        try #require(shared.status == 0, "\(shared.stderr)")
        return (aliceFile, bobFile, shared.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Alice on `servers[0]`, Bob on `servers[1]` (the same one, or two instances of one database).
    func reviewTogether(folder: TemporaryFolder, servers: [Server]) throws {
        let server = servers[0]
        let aliceToken = try server.addUser("alice")
        let bobToken = try server.addUser("bob")
        let carolToken = try server.addUser("carol")
        let (aliceFile, bobFile, document) = try aliceShares(on: server, token: aliceToken, folder: folder)

        let alice = try editor(aliceFile, token: aliceToken, server: server, folder: folder, name: "alice")
        let bob = try editor(bobFile, token: bobToken, server: servers[1], folder: folder, name: "bob")
        try alice.waitFor("shared as alice: live · with bob")
        try bob.waitFor("shared as bob: live · with alice")

        // Alice places a text; Bob's list shows it, as hers.
        try alice.send("t")
        try alice.type("Hello from Alice")
        try alice.send("Enter")
        try bob.send("a")
        try bob.waitFor("Hello from Alice")
        #expect(try bob.screen().contains("Text box · alice"))
        try bob.send("Escape")
        // Bob cannot select it on the page: the line says whose it is.
        try bob.send("Tab")
        try bob.waitFor("It is alice's: in a shared session only its author changes it")

        // Bob replies to it and sets a review state from the list; Alice sees both.
        try bob.send("a")
        try bob.waitFor("Hello from Alice")
        try bob.send("G", "r")
        try bob.type("Bob agrees")
        try bob.send("Enter")
        try bob.waitFor("Replied")
        try bob.send("s", "a")
        try bob.waitFor("Accepted")
        try bob.send("Escape")
        try alice.send("Escape", "a")
        try alice.waitFor("Bob agrees")
        try alice.waitFor("Accepted — bob")
        try alice.send("Escape")

        // A third reviewer, the Python client written from the protocol document, adds a note and adds and deletes
        // another while the editors are open: both show the first, neither the second.
        let carol = try ProcessRunner.run(TestPaths.python, [
            TestPaths.packageRoot.appendingPathComponent("Tests/Collab/third_participant.py").path, server.url, carolToken, document,
        ])
        #expect(carol.stdout.contains("carol done ack"), "\(carol.stderr)")
        #expect(carol.stdout.contains("present alice,bob,carol"), "\(carol.stdout)")
        for editor in [alice, bob] {
            try editor.send("a")
            let screen = try editor.waitFor("Carol's note")
            // The message line may still tell of the deletion; the list must not hold the note.
            #expect(!screen.split(separator: "\n").contains { $0.contains("Carol's mistake") && !$0.hasPrefix("carol deleted a note") },
                    "\(screen)")
            try editor.send("Escape")
        }

        // The server goes down: both keep working, their changes wait.
        for instance in servers { instance.kill() }
        try alice.waitFor("shared: offline")
        try bob.waitFor("shared: offline")
        try alice.send("j", "j", "j")
        try alice.send("t")
        try alice.type("Written offline")
        try alice.send("Enter")
        try alice.waitFor("1 waiting")
        try bob.send("a", "G", "r")
        try bob.type("Still here")
        try bob.send("Enter")
        try bob.waitFor("1 waiting")
        try bob.send("Escape")

        // Back up: both send what waited and receive the other's.
        for instance in servers { try instance.start() }
        try alice.waitFor("shared as alice: live · with bob", seconds: 60)
        try bob.waitFor("shared as bob: live · with alice", seconds: 60)
        try alice.send("a")
        try alice.waitFor("Still here")
        try alice.send("Escape")
        try bob.send("a")
        try bob.waitFor("Written offline")
        try bob.send("Escape")

        // Each writes a copy: the two copies and the server's own set hold the same annotations.
        let aliceCopy = folder.file("alice-copy.pdf")
        let bobCopy = folder.file("bob-copy.pdf")
        try alice.command("w \(aliceCopy)")
        try alice.waitFor("Saved")
        try bob.command("w \(bobCopy)")
        try bob.waitFor("Saved")
        let serverCopy = folder.file("server-copy.pdf")
        let pulled = try ProcessRunner.run(TestPaths.redline, ["collab", "pull", bobFile, "--output", serverCopy, "--server", servers[1].url],
                                           environment: server.environment.merging(["REDLINE_TOKEN": bobToken]) { $1 })
        #expect(pulled.status == 0, "\(pulled.stderr)")
        let fromAlice = try annotations(of: aliceCopy)
        #expect(fromAlice == (try annotations(of: bobCopy)))
        #expect(fromAlice == (try annotations(of: serverCopy)))
        // The same XFDF from each copy: every key of every annotation, dates included, not only its words (each
        // copy lists them in the order it learnt of them).
        let exported = try [aliceCopy, bobCopy, serverCopy].map { path in
            try ProcessRunner.run(TestPaths.redline, ["xfdf", "export", path]).stdout.components(separatedBy: "\n").sorted()
        }
        #expect(exported[0].contains { $0.contains("Hello from Alice") })
        #expect(exported[0] == exported[1], "\(Set(exported[0]).symmetricDifference(exported[1]))")
        #expect(exported[0] == exported[2], "\(Set(exported[0]).symmetricDifference(exported[2]))")
        for words in ["Hello from Alice", "Bob agrees", "Still here", "Written offline", "Accepted set by bob", "Carol's note"] {
            #expect(fromAlice.contains { $0.hasSuffix(words) }, "\(words) missing from \(fromAlice)")
        }
        #expect(!fromAlice.contains { $0.hasSuffix("Carol's mistake") })

        // Carol opens the document by its id from a folder of hers: it is fetched into her cache, said by where it
        // is kept there, and `:w` puts her copy where she works, not into the cache.
        let carolsFolder = folder.file("carol-work")
        try FileManager.default.createDirectory(atPath: carolsFolder, withIntermediateDirectories: true)
        let carolsEditor = try TmuxSession(command: "sh -c 'cd \(carolsFolder) && exec \(TestPaths.redline) \(document) --graphics symbols --collab \(server.url)'",
                                    environment: ["REDLINE_TOKEN": carolToken, "XDG_CONFIG_HOME": folder.file("config-carol"),
                                                  "XDG_CACHE_HOME": folder.file("cache-carol"), "HOME": folder.path])
        try carolsEditor.waitFor("shared as carol: live")
        try carolsEditor.command("w")
        try carolsEditor.waitFor("Saved")
        #expect(FileManager.default.fileExists(atPath: carolsFolder + "/\(document)-marked.pdf"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("cache-carol") + "/redline/shared/\(document)-marked.pdf"))
        try carolsEditor.command("q")
        let left = try carolsEditor.waitFor("REDLINE-EXIT=0")
        #expect(left.contains("shared annotation") && !left.contains(".part-"), "\(left)")
    }
}
