import Foundation
import TestSupport
import Testing

/// The interaction components on the real binaries: config.toml with the seed's four examples and a callback
/// command, checked by what the editor refuses, the JSON lines `--events` and the callback get; a key bound to a
/// `try…` verb; the Swift API's example program; and a bad configuration refused before the screen is taken.
@Suite(.serialized) struct InteractionsInTerminalTests {
    static let book = TestPaths.fixture("pypdf_GeoTopo-komprimiert.pdf")

    static func seedConfig(callback: String) -> String {
        """
        [[interactions.selectAnnotation.when]]
        kinds_not = ["ink"]

        [[interactions.transformAnnotation.when]]
        point_outside = [0, 0, 400, 200]

        [[interactions.editAnnotation.when]]
        kinds_not = ["text"]

        [[interactions.openLinkAnnotation.when]]
        pages = [1]

        [interactions.smartZoom]
        callback = ["\(callback)"]
        """
    }

    struct Event: Decodable {
        struct Points: Decodable { let display: Point; let pdf: Point }
        struct Point: Decodable { let x: Double; let y: Double }
        struct Subject: Decodable { let kind: String }
        let component: String
        let outcome: String
        let reason: String?
        let via: String
        let page: Int
        let point: Points
        let annotation: Subject?
    }

    /// The book copied into the command's folder and opened by `program` (with `arguments` before the file, or
    /// after it), shown on page 4, where the links lead elsewhere.
    func openBookOnPage4(_ command: RedlineCommand, program: String = TestPaths.redline, before: String = "",
                         after: String = "") throws -> TmuxSession {
        let document = command.folder.file("book.pdf")
        try FileManager.default.copyItem(atPath: Self.book, toPath: document)
        let tmux = try TmuxSession(command: "'\(program)' \(before) '\(document)' \(after)", environment: command.environment)
        tmux.keep(command.folder)
        try tmux.waitFor("page 1/117")
        try tmux.send("4", "G")
        try tmux.waitFor("page 4/117")
        return tmux
    }

    func events(_ path: String) throws -> [Event] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try JSONDecoder().decode(Event.self, from: Data($0.utf8))
        }
    }

    @Test func theSeedsFourExamplesAndACallbackCommandFromConfig() throws {
        let command = try RedlineCommand()
        let called = command.folder.file("callback.jsonl")
        let callback = command.folder.file("on-smart-zoom")
        try "#!/bin/sh\ncat >> '\(called)'\n".write(toFile: callback, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: callback)
        try command.writeConfig(Self.seedConfig(callback: callback))
        let eventsFile = command.folder.file("events.jsonl")
        let tmux = try openBookOnPage4(command, before: "--events '\(eventsFile)'")

        // Links are followed on the first page only.
        try tmux.send("f")
        try tmux.waitFor("Follow:")
        try tmux.send("a", "a")
        try tmux.waitFor("openLinkAnnotation refused by its condition 1 (config.toml line 10)")
        #expect(try tmux.screen().contains("page 4/117"))

        // A smart zoom happens, and the callback command is told.
        try tmux.send("s")
        try tmux.waitFor("Smart zoom")
        try tmux.send("s")
        try tmux.waitUntilIdle()

        // Ink is not selectable.
        try tmux.send("i", "Space", "L", "L", "J", "Space", "Escape", "Escape")
        try tmux.waitFor("[modified]")
        try tmux.send("Tab")
        try tmux.waitFor("selectAnnotation refused by its condition 1 (config.toml line 1)")

        // Text markup is not editable; near the page's lower left (PDF y under 200) it is not moved either.
        for _ in 0..<30 { try tmux.send("J") }
        for _ in 0..<10 { try tmux.send("H") }
        try tmux.placeText("Low note")
        try tmux.send("Enter")
        try tmux.waitFor("editAnnotation refused by its condition 1 (config.toml line 7)")
        try tmux.send("Right")
        try tmux.waitFor("transformAnnotation refused by its condition 1 (config.toml line 4)")
        try tmux.send(":", "q", "!", "Enter")
        try tmux.waitFor("REDLINE-EXIT=0")

        let written = try events(eventsFile)
        let refused = written.filter { $0.outcome == "refused" }.map(\.component)
        #expect(refused.contains("openLinkAnnotation") && refused.contains("selectAnnotation")
                && refused.contains("editAnnotation") && refused.contains("transformAnnotation"), "\(refused)")
        let link = try #require(written.first { $0.component == "openLinkAnnotation" })
        #expect(link.page == 4 && link.via == "a" && link.reason == "condition 1 (config.toml line 10)")
        let transform = try #require(written.first { $0.component == "transformAnnotation" })
        #expect(transform.point.pdf.y < 200 && transform.annotation?.kind == "text", "the markup's middle, in PDF user space")
        let zooms = written.filter { $0.component == "smartZoom" }
        #expect(zooms.map(\.outcome) == ["activated", "activated"], "in, then back out")
        // The callback is never waited for: give it a moment to finish writing.
        for _ in 0..<50 where ((try? String(contentsOfFile: called, encoding: .utf8))?.split(separator: "\n").count ?? 0) < 2 {
            Thread.sleep(forTimeInterval: 0.1)
        }
        let told = try String(contentsOfFile: called, encoding: .utf8).split(separator: "\n")
        #expect(told.count == 2 && told.allSatisfy { $0.contains("\"component\":\"smartZoom\"") && $0.contains("\"targetRect\"") },
                "the callback got each smart zoom as a JSON line: \(told)")
    }

    @Test func aKeyBoundToATryVerbReimplementsASwitchedOffInteraction() throws {
        let command = try RedlineCommand(config: """
            [interactions.smartZoom]
            enabled = false

            [keys.page]
            "S" = "try-smart-zoom"
            """)
        let tmux = try openBookOnPage4(command)
        try tmux.send("s")
        try tmux.waitFor("smartZoom is switched off")
        #expect(try tmux.screen().contains("100%"))
        try tmux.send("S")
        try tmux.waitFor("Smart zoom")
    }

    @Test func theSwiftExampleProgramRefusesAndLogsAsTheSeedDoes() throws {
        let command = try RedlineCommand()
        let log = command.folder.file("zoom.log")
        let tmux = try openBookOnPage4(command, program: TestPaths.interactionsExample, after: "--log '\(log)'")
        try tmux.send("f")
        try tmux.waitFor("Follow:")
        try tmux.send("a", "a")
        try tmux.waitFor("openLinkAnnotation refused by its condition 1 (a condition added in code)")
        try tmux.send("s")
        try tmux.waitFor("Smart zoom")
        try tmux.send("s", "i", "Space", "L", "J", "Space", "Escape", "Escape")
        try tmux.waitFor("[modified]")
        try tmux.send("Tab")
        try tmux.waitFor("selectAnnotation refused")
        let logged = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(logged.count == 2 && logged.allSatisfy { $0.hasPrefix("Will smart zoom to: x ") && $0.contains("on page 4") }, "\(logged)")
        try tmux.send(":", "q", "!", "Enter")
        try tmux.waitFor("REDLINE-EXIT=0")
    }

    @Test func aBadConfigurationIsOneLineAndExit1BeforeTheScreen() throws {
        let command = try RedlineCommand(config: "author = \"A\"\n\n[[interactions.selectAnnotation.when]]\nkind = [\"ink\"]\n")
        let result = try command.run([TestPaths.sample])
        #expect(result.status == 1)
        let line = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line == "redline: \(command.configFolder)/redline/config.toml: line 4: unknown condition field \"kind\" (known: kinds, kinds_not, author, pages, pages_not, point_inside, point_outside, link_targets, any)",
                "\(line)")
        #expect(result.problems.isEmpty && result.stdout.isEmpty, "the screen was never taken: \(result.problems)")
        try command.writeConfig("")
        let folder = try command.run(["--events", command.folder.path, TestPaths.sample])
        #expect(folder.status == 1 && folder.stderr.contains("\(command.folder.path): --events needs a regular file"), "\(folder.stderr)")
        // A FIFO with no reader used to hold the editor on a blank screen: refused at once.
        let fifo = command.folder.file("events.fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        let piped = try command.run(["--events", fifo, TestPaths.sample], timeLimit: 20)
        #expect(piped.status == 1 && piped.stderr.contains("\(fifo): --events needs a regular file"), "\(piped.stderr)")
    }
}
