import Foundation
import TestSupport
import Testing

/// The real `redline` binary: output, stderr and exit codes.
@Suite struct CommandLineTests {
    func redline(_ arguments: String...) throws -> ProcessResult {
        try ProcessRunner.run(TestPaths.redline, arguments)
    }

    func markupFile(in folder: TemporaryFolder, _ json: String) throws -> String {
        let path = folder.file("markup.json")
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func versionAndHelp() throws {
        let version = try redline("--version")
        #expect(version.status == 0 && version.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
        let help = try redline("--help")
        #expect(help.status == 0 && help.stdout.contains("apply") && help.stdout.contains("bench"))
    }

    /// poppler-glib and what it loads (NSS, lcms, openjpeg, …) are a third of a bare start: commands that render or
    /// read no page never load it, as the dynamic loader says; `search`, which reads pages, does and finds its words.
    @Test func commandsThatReadNoPageNeverLoadPoppler() throws {
        let folder = TemporaryFolder()
        let markup = try markupFile(in: folder, #"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 72, "y": 300, "text": "Hi"}]}"#)
        func loadsPoppler(_ arguments: [String]) throws -> (loads: Bool, result: ProcessResult) {
            var environment = ProcessInfo.processInfo.environment
            environment["LD_DEBUG"] = "libs"
            let result = try ProcessRunner.run(TestPaths.redline, arguments, environment: environment)
            return (result.stderr.contains("calling init: ") && result.stderr.contains("libpoppler-glib"), result)
        }
        let commands = [["--version"], ["annotations", TestPaths.sample], ["bookmarks", TestPaths.sample], ["xfdf", "export", TestPaths.sample],
                        ["apply", TestPaths.sample, "--markup", markup, "--output", folder.file("out.pdf")]]
        for arguments in commands {
            let (loads, result) = try loadsPoppler(arguments)
            #expect(result.status == 0 && !loads, "\(arguments.first ?? ""): exit \(result.status)")
        }
        let (loads, search) = try loadsPoppler(["search", TestPaths.sample, "sample"])
        #expect(loads && search.status == 0 && search.stdout.contains("p1"), "search: \(search.stdout)")
    }

    /// A poppler that cannot be loaded is said as what it is when pages are first read (it read as an encrypted
    /// document, asking for a password), and the commands that read no page go on without it.
    @Test func aPopplerThatCannotBeLoadedIsSaidAndCommandsWithoutPagesWork() throws {
        let folder = TemporaryFolder()
        let libraries = folder.file("lib")
        try FileManager.default.createDirectory(atPath: libraries, withIntermediateDirectories: true)
        for name in ["libpoppler-glib.so.8", "libpoppler-glib.so"] {
            try Data("not a library".utf8).write(to: URL(fileURLWithPath: libraries + "/" + name))
        }
        var environment = ProcessInfo.processInfo.environment
        environment["LD_LIBRARY_PATH"] = libraries
        let search = try ProcessRunner.run(TestPaths.redline, ["search", TestPaths.sample, "the"], environment: environment)
        #expect(search.status == 2 && search.stderr.contains("poppler-glib could not be loaded")
                && search.stderr.contains("libpoppler-glib.so.8") && !search.stderr.contains("encrypted"), "\(search.stderr)")
        let markup = try markupFile(in: folder, #"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 72, "y": 300, "text": "Hi"}]}"#)
        for arguments in [["annotations", TestPaths.sample], ["bookmarks", TestPaths.sample],
                          ["apply", TestPaths.sample, "--markup", markup, "--output", folder.file("out.pdf")]] {
            let result = try ProcessRunner.run(TestPaths.redline, arguments, environment: environment)
            #expect(result.status == 0, "\(arguments[0]): \(result.stderr)")
        }
    }

    /// What `make install` puts beside the binary: bash completes the subcommands in a real shell.
    @Test func bashCompletesTheSubcommands() throws {
        let folder = TemporaryFolder()
        let script = try redline("--generate-completion-script", "bash")
        #expect(script.status == 0)
        try script.stdout.write(toFile: folder.file("redline.bash"), atomically: true, encoding: .utf8)
        let completion = try ProcessRunner.run("bash", ["-c", """
            source '\(folder.file("redline.bash"))'
            COMP_WORDS=(redline bookm); COMP_CWORD=1; COMP_LINE='redline bookm'; COMP_POINT=13
            _redline redline bookm redline
            printf '%s\\n' "${COMPREPLY[@]}"
            """])
        #expect(completion.stdout.split(separator: "\n").contains("bookmarks"), "\(completion.stdout)")
        for shell in ["zsh", "fish"] {
            let other = try redline("--generate-completion-script", shell)
            #expect(other.status == 0 && other.stdout.contains("annotations") && other.stdout.contains("bookmarks"))
        }
    }

    @Test func applyWritesTheMarkedCopy() throws {
        let folder = TemporaryFolder()
        let markup = try markupFile(in: folder, #"{"version": 1, "items": [{"page": 4, "kind": "text", "x": 72, "y": 100, "text": "Approved", "size": 14, "color": "red"}]}"#)
        let output = folder.file("out.pdf")
        let result = try redline("apply", TestPaths.sample, "--markup", markup, "--output", output)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("\(output): appended to the original ("), "\(result.stdout)")
        let original = try #require(FileManager.default.contents(atPath: TestPaths.sample))
        #expect(try #require(FileManager.default.contents(atPath: output)).prefix(original.count) == original)
        let rewritten = folder.file("rewritten.pdf")
        let whole = try redline("apply", TestPaths.sample, "--markup", markup, "--output", rewritten, "--rewrite")
        #expect(whole.stdout == "\(rewritten): rewritten whole: a complete rewrite was asked for\n", "\(whole.stdout)")
        let word = try #require(try PopplerText.words(in: output, page: 4).first { $0.text == "Approved" })
        #expect(abs(word.xMin - 72) <= 1 && abs(word.yMin - 100) <= 1)
    }

    /// `--annotations`, and `save_mode` in config.toml, keep the markup editable; `--flatten` overrides the setting.
    @Test func applyWritesAnnotationsWhenAskedOrConfigured() throws {
        let folder = TemporaryFolder()
        let markup = try markupFile(in: folder, #"{"version": 1, "items": [{"page": 4, "kind": "text", "x": 72, "y": 100, "text": "Approved"}, {"page": 4, "kind": "ink", "strokes": [[[72, 300], [300, 300]]]}]}"#)
        let command = try RedlineCommand(folder: folder)
        let annotated = folder.file("annotated.pdf")
        let result = try command.run(["apply", TestPaths.sample, "--markup", markup, "--output", annotated, "--annotations", "--author", "Bob"])
        #expect(result.status == 0, "\(result.stderr)")
        let read = try MuPDFProbe.annotations(in: annotated)[3].annotations
        #expect(read.map(\.type) == ["FreeText", "Ink"] && read.allSatisfy { $0.title == "Bob" })
        #expect(try PDFProbe.read(annotated).contents(ofPage: 3) == PDFProbe.read(TestPaths.sample).contents(ofPage: 3),
                "not burned into the page: its content is as it was")

        try command.writeConfig("save_mode = \"annotations\"\nauthor = \"Carol\"\n")
        let configured = folder.file("configured.pdf")
        #expect(try command.run(["apply", TestPaths.sample, "--markup", markup, "--output", configured]).status == 0)
        #expect(try MuPDFProbe.annotations(in: configured)[3].annotations.map(\.title) == ["Carol", "Carol"])
        let flattened = folder.file("flattened.pdf")
        #expect(try command.run(["apply", TestPaths.sample, "--markup", markup, "--output", flattened, "--flatten"]).status == 0)
        #expect(try MuPDFProbe.annotations(in: flattened)[3].annotations.isEmpty)
        #expect(try PopplerText.words(in: flattened, page: 4).contains { $0.text == "Approved" })

        let escaped = try command.run(["apply", TestPaths.sample, "--markup", markup, "--output", folder.file("x.pdf"), "--author", "Eve\u{1B}[31m"])
        #expect(escaped.status == 1 && escaped.stderr.contains("--author must not contain control characters"))
        let both = try command.run(["apply", TestPaths.sample, "--markup", markup, "--output", folder.file("x.pdf"), "--annotations", "--flatten"])
        #expect(both.status != 0 && both.stderr.contains("--annotations and --flatten cannot go together"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.pdf")))
    }

    @Test func aBadMarkupFileIsExitOneNamingItemAndField() throws {
        let folder = TemporaryFolder()
        let markup = try markupFile(in: folder, #"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 72, "y": 100, "text": "a"}, {"page": 1, "kind": "text", "x": 72, "text": "b"}]}"#)
        let result = try redline("apply", TestPaths.sample, "--markup", markup, "--output", folder.file("out.pdf"))
        #expect(result.status == 1)
        #expect(result.stderr == "redline: \(markup): item 2: field \"y\": is missing\n")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.pdf")))
        let offPage = try markupFile(in: folder, #"{"version": 1, "items": [{"page": 9, "kind": "text", "x": 1, "y": 1, "text": "a"}]}"#)
        let missingPage = try redline("apply", TestPaths.sample, "--markup", offPage, "--output", folder.file("out.pdf"))
        #expect(missingPage.status == 1 && missingPage.stderr.contains("item 1: field \"page\": page 9 does not exist (the document has 4)"))
    }

    @Test func badUsageIsExitOne() throws {
        let result = try redline("apply", TestPaths.sample)
        #expect(result.status == 1)
        #expect(result.stderr.contains("--markup"))
    }

    @Test(arguments: [
        ("missing.pdf", nil, "no such file"),
        ("notes.pdf", nil, "not a usable PDF"),
        ("pdfjs_Pages-tree-refs.pdf", nil, "Loop detected in /Pages structure"),
        ("qpdf_enc-XI-R6_V5_U-view.pdf", nil, "the document is encrypted; give its password with --password"),
        ("qpdf_enc-XI-R6_V5_U-view.pdf", "wrong", "wrong password"),
    ] as [(String, String?, String)])
    func inputsThatCannotBeOpenedAreExitTwoWithOneLine(name: String, password: String?, message: String) throws {
        let folder = TemporaryFolder()
        let input: String
        switch name {
        case "missing.pdf": input = folder.file(name)
        case "notes.pdf":
            input = folder.file(name)
            try "not a PDF at all".write(toFile: input, atomically: true, encoding: .utf8)
        default: input = TestPaths.fixture(name)
        }
        let markup = try markupFile(in: folder, #"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 72, "y": 100, "text": "a"}]}"#)
        var arguments = ["apply", input, "--markup", markup, "--output", folder.file("out.pdf")]
        if let password { arguments += ["--password", password] }
        for command in [arguments, [input] + (password.map { ["--password", $0] } ?? [])] {
            let result = try ProcessRunner.run(TestPaths.redline, command)
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("redline: ") && result.stderr.contains(message))
            #expect(result.stderr.split(separator: "\n").count == 1, "one line, no stack trace: \(result.stderr)")
        }
    }

    @Test func anUnwritableOutputIsExitThree() throws {
        let folder = TemporaryFolder()
        let markup = try markupFile(in: folder, #"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 72, "y": 100, "text": "a"}]}"#)
        let result = try redline("apply", TestPaths.sample, "--markup", markup, "--output", folder.file("no/such/folder/out.pdf"))
        #expect(result.status == 3)
        #expect(result.stderr.contains("cannot write"))
    }

    /// Every figure is a measurement: a positive median no smaller than the best run, for the number of runs
    /// named, with the page count of the document measured.
    @Test func benchMeasuresEachFigure() throws {
        let result = try redline("bench", TestPaths.sample)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasSuffix(": 4 pages") == true, "\(lines.first ?? "")")
        var measured: [String: (median: Double, best: Double, runs: Int)] = [:]
        var bytes: [String: (median: Int, least: Int)] = [:]
        for line in lines.dropFirst(2) {
            let parts = line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            if parts.count == 4, parts[1].hasSuffix(" B"), let median = Int(parts[1].dropLast(2)), let least = Int(parts[2].dropLast(2)) {
                bytes[parts[0]] = (median, least)
                continue
            }
            guard parts.count == 4, let median = Double(parts[1].replacingOccurrences(of: " ms", with: "")),
                  let best = Double(parts[2].replacingOccurrences(of: " ms", with: "")), let runs = Int(parts[3]) else {
                Issue.record("not a figure: \(line)")
                continue
            }
            measured[parts[0]] = (median, best, runs)
        }
        // What a frame writes to the terminal: the whole first frame, and a nudge far less (only its cells).
        let first = try #require(bytes["first frame, bytes"]), nudge = try #require(bytes["nudge frame, bytes"])
        #expect(first.median > 1000 && nudge.median > 0 && nudge.median * 5 < first.median, "\(first) \(nudge)")
        // In the pixel modes a nudge sends the markup (kitty) or its cells (sixel), never the page.
        for (mode, factor) in [("kitty", 5), ("sixel", 2)] {
            let first = try #require(bytes["\(mode): first frame, bytes"]), nudge = try #require(bytes["\(mode): nudge frame, bytes"])
            #expect(nudge.median > 0 && nudge.median * factor < first.median, "\(mode): \(first) \(nudge)")
        }
        let expected = ["open": 5, "first page render and draw": 5, "kitty: nudge frame": 30, "sixel: nudge frame": 30, "page turn": 5, "page turn, made ahead": 5,
                        "pdftoppm, same page, size": 5, "nudge frame": 30, "ink segment frame": 30,
                        "annotation list step": 30, "journal write": 10, "save": 3, "search whole document": 3]
        for (name, runs) in expected {
            guard let figure = measured[name] else {
                Issue.record("bench does not report \(name)")
                continue
            }
            #expect(figure.runs == runs && figure.best > 0 && figure.best <= figure.median, "\(name): \(figure)")
        }
        // A page render costs more than a step in a list: figures that were made up would not say so.
        #expect((measured["first page render and draw"]?.best ?? 0) > (measured["annotation list step"]?.median ?? .infinity))
    }

    /// A save that cannot be made stops the bench with the reason, instead of reporting how fast it failed.
    @Test func benchRefusesToTimeASaveThatFails() throws {
        let folder = TemporaryFolder()
        let unreadable = folder.file("gone.pdf")
        try FileManager.default.copyItem(atPath: TestPaths.sample, toPath: unreadable)
        let result = try ProcessRunner.run("/bin/sh", ["-c", "TMPDIR=\(folder.file("no-such-folder")) \(TestPaths.redline) bench \(unreadable)"])
        #expect(result.status != 0)
        #expect(!result.stdout.contains("save "), "\(result.stdout)")
    }
}
