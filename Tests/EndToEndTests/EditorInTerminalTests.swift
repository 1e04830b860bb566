import Foundation
import TestSupport
import Testing

/// The real binary in tmux, driven as a user would.
@Suite(.serialized) struct EditorInTerminalTests {
    /// The sample document copied into a fresh folder, so the editor may write beside it.
    @Test func placeNudgeResizeSaveAndQuit() throws {
        let (folder, document) = try copyOfSample(named: "contract.pdf")
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)' --page 4")
        try tmux.waitFor("page 4/4")
        try tmux.send("t")
        try tmux.type("Approved")
        try tmux.waitFor("Text: Approved")
        try tmux.send("Enter")
        try tmux.waitFor("selected \"Approved\" 14pt red")
        try tmux.send("Right", "Right", "Right", "S-Down", "+")
        try tmux.waitFor("selected \"Approved\" 16pt red")
        try tmux.send(":", "w", "Enter")
        try tmux.waitFor("Saved \(folder.file("contract-marked.pdf"))")
        try tmux.send("q")
        try tmux.waitFor("REDLINE-EXIT=0")

        // The cursor starts at (72, 72): three 1 pt nudges right, one 10 pt down.
        let word = try #require(try PopplerText.words(in: folder.file("contract-marked.pdf"), page: 4).first { $0.text == "Approved" })
        #expect(abs(word.xMin - 75) <= 1)
        #expect(abs(word.yMin - 82) <= 1)
        #expect(word.yMax - word.yMin > 16, "the font size went up to 16 pt")
        #expect(try QPDFCheck.errors(in: folder.file("contract-marked.pdf")) == nil)
        // The original is untouched.
        #expect(FileManager.default.contents(atPath: document) == FileManager.default.contents(atPath: TestPaths.sample))
    }

    /// Text the font cannot draw is refused where it is typed, naming the characters, and kept to be changed; the
    /// same words through `apply` are exit 1 naming the item. Nothing is saved as empty boxes.
    @Test func textTheFontCannotDrawIsRefusedBeforeItIsPlaced() throws {
        let (folder, document) = try copyOfSample(named: "script.pdf")
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)' --page 4")
        try tmux.waitFor("page 4/4")
        try tmux.send("t")
        try tmux.type("日本語 ok")
        try tmux.send("Enter")
        try tmux.waitFor("Still typing (change it, or Esc): the font has no glyph for 日 (U+65E5), 本 (U+672C), 語 (U+8A9E)")
        try tmux.send("BSpace")
        try tmux.waitFor("Text: 日本語 o")
        for _ in 0..<5 { try tmux.send("BSpace") }
        try tmux.type("Approved")
        try tmux.send("Enter")
        try tmux.waitFor("selected \"Approved\"")
        try tmux.send(":", "w", "q", "Enter")
        try tmux.waitFor("REDLINE-EXIT=0")
        let words = try PopplerText.words(in: folder.file("script-marked.pdf"), page: 4).map(\.text)
        #expect(words.contains("Approved"))

        let markup = folder.file("markup.json")
        try #"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 72, "y": 72, "text": "fine"}, {"page": 1, "kind": "text", "x": 72, "y": 100, "text": "日本語 ok"}]}"#
            .write(toFile: markup, atomically: true, encoding: .utf8)
        let output = folder.file("applied.pdf")
        let applied = try ProcessRunner.run(TestPaths.redline, ["apply", document, "--markup", markup, "--output", output])
        #expect(applied.status == 1)
        #expect(applied.stderr.contains("item 2: field \"text\": the font has no glyph for 日 (U+65E5), 本 (U+672C), 語 (U+8A9E)"), "\(applied.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func aBoxDrawnWithTheKeyboardIsInTheSavedFile() throws {
        let (folder, document) = try copyOfSample(named: "drawing.pdf")
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)' --page 4")
        try tmux.waitFor("page 4/4")
        // The pen starts at the cursor, (72, 72): a 100 × 50 pt box, then out of ink mode.
        try tmux.send("i", "+", "+", "Space")
        for _ in 0..<10 { try tmux.send("S-Right") }
        for _ in 0..<5 { try tmux.send("J") }
        for _ in 0..<10 { try tmux.send("H") }
        for _ in 0..<5 { try tmux.send("S-Up") }
        try tmux.send("Enter")
        try tmux.waitFor("ink pen 4pt blue, pen up")
        try tmux.send("Escape")
        try tmux.waitFor("[modified]")
        try tmux.send(":", "w", "q", "Enter")
        try tmux.waitFor("REDLINE-EXIT=0")

        let page = try PopplerRender.page(4, of: folder.file("drawing-marked.pdf"))
        func isInk(_ x: Int, _ y: Int) -> Bool { let p = page.rgb(x, y); return p.blue > 150 && p.red < 100 }
        // All four sides, and nothing inside the box.
        #expect(isInk(122, 72) && isInk(172, 97) && isInk(122, 122) && isInk(72, 97))
        #expect(isInk(72, 72) && isInk(172, 122))
        #expect(!isInk(122, 97))
    }

    /// `E` erases only what it passes over: the saved page has the line's two ends and a gap where it went.
    @Test func thePartialEraserLeavesAGapInTheSavedLine() throws {
        let (folder, document) = try copyOfSample(named: "gap.pdf")
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)' --page 4")
        try tmux.waitFor("page 4/4")
        // A 4 pt line from (72, 72) to (172, 72), then the pen lifted to (122, 62).
        try tmux.send("i", "+", "+", "Space")
        for _ in 0..<10 { try tmux.send("S-Right") }
        try tmux.send("Enter")
        for _ in 0..<5 { try tmux.send("H") }
        try tmux.send("K", "E")
        try tmux.waitFor("ink eraser (part of strokes) 4pt, pen up")
        // Down across the line: 4 pt of reach beyond its 2 pt half width, either side of x 122.
        try tmux.send("Space", "J", "J", "Space", "Escape")
        try tmux.waitFor("[modified]")
        try tmux.send(":", "w", "q", "Enter")
        try tmux.waitFor("REDLINE-EXIT=0")

        let page = try PopplerRender.page(4, of: folder.file("gap-marked.pdf"))
        func isInk(_ x: Int, _ y: Int) -> Bool { let p = page.rgb(x, y); return p.blue > 150 && p.red < 100 }
        #expect(isInk(80, 72) && isInk(110, 72) && isInk(134, 72) && isInk(165, 72), "both ends kept")
        #expect(!isInk(119, 72) && !isInk(122, 72) && !isInk(125, 72), "the gap")
    }

    @Test func aMouseDragDrawsAStroke() throws {
        let (folder, document) = try copyOfSample(named: "mouse.pdf")
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)' --page 4", columns: 120, rows: 40)
        try tmux.waitFor("page 4/4")
        try tmux.send("i")
        try tmux.waitFor("ink pen")
        // SGR mouse reports (1-based cells): press, two drags with the button held, release.
        for report in ["\u{1B}[<0;50;10M", "\u{1B}[<32;60;12M", "\u{1B}[<32;70;15M", "\u{1B}[<0;70;15m"] {
            try tmux.type(report)
            Thread.sleep(forTimeInterval: 0.15)
        }
        try tmux.send("Escape")
        try tmux.waitFor("[modified]")
        try tmux.send(":", "w", "q", "Enter")
        try tmux.waitFor("REDLINE-EXIT=0")
        let before = try PopplerRender.page(4, of: TestPaths.sample)
        let after = try PopplerRender.page(4, of: folder.file("mouse-marked.pdf"))
        var blue = 0
        for y in 0..<after.height {
            for x in 0..<after.width where after.difference(from: before, x, y) > 60 {
                let p = after.rgb(x, y)
                if p.blue > 150 && p.red < 100 { blue += 1 }
            }
        }
        #expect(blue > 100, "the dragged stroke is in the saved file")
    }

    /// Types `text` after `t` (and Enter when `committing`), nudges it `nudges` points right, kills the editor
    /// as a crash would 300 ms after the last key, reopens the document, restores the journal and saves: the
    /// words of page 1 of the saved copy.
    func wordsAfterACrash(typing text: String, committing: Bool, nudges: Int = 0) throws -> [ExtractedWord] {
        let (folder, document) = try copyOfSample(named: "draft.pdf")
        let state = folder.file("state")
        let first = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", environment: ["XDG_STATE_HOME": state])
        try first.waitFor("page 1/4")
        try first.send("t")
        try first.type(text)
        if committing {
            try first.send("Enter")
            try first.waitFor("[modified]")
            if nudges > 0 { try first.send(contentsOf: Array(repeating: "Right", count: nudges)) }
        } else {
            try first.waitFor("Text: \(text)")
        }
        // The journal is at most 250 ms behind the keys (docs/architecture.md): a crash just after that loses
        // nothing. Killed outright, with no chance to save or clean up.
        Thread.sleep(forTimeInterval: 0.3)
        try first.killProgram()
        try first.waitUntilProgramEnds()

        return try wordsAfterRestoring(document, state: state, saved: folder.file("draft-marked.pdf"))
    }

    /// Reopens `document` with the journals in `state`, restores the one unsaved markup item, saves and
    /// quits: the words of page 1 of the saved copy.
    func wordsAfterRestoring(_ document: String, state: String, saved: String) throws -> [ExtractedWord] {
        let second = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", environment: ["XDG_STATE_HOME": state])
        try second.waitFor("Unsaved changes (1 markup item) from an earlier session. Restore them? (y/n)")
        try second.send("y")
        try second.waitFor("Restored 1 unsaved markup item")
        try second.send(":", "w", "q", "Enter")
        try second.waitFor("REDLINE-EXIT=0")
        return try PopplerText.words(in: saved, page: 1)
    }

    @Test func unsavedMarkupSurvivesACrashAndIsOfferedBack() throws {
        #expect(try wordsAfterACrash(typing: "Survivor", committing: true).map(\.text).contains("Survivor"))
    }

    @Test func textStillBeingTypedSurvivesACrash() throws {
        #expect(try wordsAfterACrash(typing: "Midsentence", committing: false).map(\.text).contains("Midsentence"))
    }

    /// Twenty nudges sent at once, a crash 300 ms later: the restored text stands where the last nudge left it.
    @Test func aRunOfNudgesSurvivesACrashQuarterASecondLater() throws {
        let word = try #require(try wordsAfterACrash(typing: "Nudged", committing: true, nudges: 20).first { $0.text == "Nudged" })
        // Placed at the cursor's 72 pt, then 20 × 1 pt to the right.
        #expect((91.0...94.0).contains(word.xMin), "Nudged starts at \(word.xMin) pt")
    }

    /// `:w PATH` a second time overwrites the copy this session wrote without asking, but asks when another
    /// program has put a file there since.
    @Test func savingAgainAsksWhenSomeoneElseReplacedTheCopy() throws {
        let (folder, document) = try copyOfSample(named: "draft.pdf")
        let copy = folder.file("review.pdf")
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'")
        tmux.keep(folder)
        try tmux.waitFor("page 1/4")
        try tmux.placeText("First")
        try tmux.send(":")
        try tmux.type("w \(copy)")
        try tmux.send("Enter")
        try tmux.waitFor("Saved \(copy)")
        // Saved again, unchanged since: no question.
        try tmux.placeText("Second")
        try tmux.send(":")
        try tmux.type("w \(copy)")
        try tmux.send("Enter")
        try tmux.waitFor("Saved \(copy)")
        // Someone else's file in its place: asked, and n keeps it.
        try FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: TestPaths.sample, toPath: copy)
        try tmux.placeText("Third")
        try tmux.send(":")
        try tmux.type("w \(copy)")
        try tmux.send("Enter")
        try tmux.waitFor("review.pdf exists. Overwrite it?")
        try tmux.send("n")
        try tmux.waitFor("Not saved")
        #expect(FileManager.default.contents(atPath: copy) == FileManager.default.contents(atPath: TestPaths.sample))
    }

    /// Answering n to the restore question keeps the earlier work in a file the message names, and the next
    /// start does not ask again.
    @Test func declinedUnsavedWorkIsSetAsideNotDeleted() throws {
        let (folder, document) = try copyOfSample(named: "draft.pdf")
        let state = folder.file("state")
        let first = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", environment: ["XDG_STATE_HOME": state])
        try first.waitFor("page 1/4")
        try first.placeText("Keepsake")
        Thread.sleep(forTimeInterval: 0.3)
        try first.killProgram()
        try first.waitUntilProgramEnds()

        let second = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", columns: 200,
                                     environment: ["XDG_STATE_HOME": state])
        try second.waitFor("Restore them? (y/n)")
        try second.send("n")
        let screen = try second.waitFor("Earlier unsaved changes not restored; kept in ")
        let line = try #require(screen.split(separator: "\n").first { $0.contains("kept in ") })
        let shown = String(line[line.range(of: "kept in ")!.upperBound...]).trimmingCharacters(in: .whitespaces)
        let path = (shown as NSString).expandingTildeInPath
        let kept = try #require(FileManager.default.contents(atPath: path), "nothing at \(path)")
        #expect(String(decoding: kept, as: UTF8.self).contains("Keepsake"))
        try second.send("q")
        try second.waitFor("REDLINE-EXIT=0")

        let third = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", environment: ["XDG_STATE_HOME": state])
        try third.waitFor("page 1/4")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(!(try third.screen()).contains("Restore them?"))
    }

    /// A journal folder others may write in is refused, and an 80-column terminal still shows what to do about it.
    @Test func aJournalFolderOthersMayWriteInIsSaidWithItsRemedyOnANarrowLine() throws {
        let (folder, document) = try copyOfSample(named: "shared.pdf")
        let state = folder.file("state")
        try FileManager.default.createDirectory(atPath: state + "/redline", withIntermediateDirectories: true)
        chmod(state + "/redline", 0o777)
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", columns: 80, environment: ["XDG_STATE_HOME": state])
        try tmux.waitFor("No crash journal: chmod 700 /")
        try tmux.send("q")
        try tmux.waitFor("REDLINE-EXIT=0")
    }

    /// Counts, the jump list and the hidden interface in the real terminal.
    @Test func countsJumpsAndAFullScreenPage() throws {
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(TestPaths.sample)'")
        try tmux.waitFor("page 1/4")
        try tmux.send("3")
        try tmux.waitFor("page 1/4  │  3…")
        try tmux.send("G")
        try tmux.waitFor("page 3/4")
        try tmux.send("C-o")
        try tmux.waitFor("page 1/4")
        try tmux.send("C-f")
        try tmux.waitFor("page 3/4")
        try tmux.send("F")
        try tmux.waitUntilIdle()
        #expect(!(try tmux.screen()).contains("page 3/4"), "the status line is hidden")
        try tmux.send("F")
        try tmux.waitFor("page 3/4")
        try tmux.send("q")
        try tmux.waitFor("REDLINE-EXIT=0")
    }

    @Test func encryptedFilesAskForThePasswordInTheTerminal() throws {
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(TestPaths.fixture("qpdf_enc-XI-R6_V5_U-view.pdf"))'")
        try tmux.waitFor("is encrypted. Password:")
        try tmux.type("nope")
        try tmux.send("Enter")
        try tmux.waitFor("Wrong password, try again")
        try tmux.type("view")
        try tmux.send("Enter")
        try tmux.waitFor("page 1/30")
        try tmux.send("G")
        try tmux.waitFor("page 30/30")
        try tmux.send("q")
        try tmux.waitFor("REDLINE-EXIT=0")
    }

    @Test(arguments: [("truecolor", "38:2:"), ("", "38;5;")])
    func thePageIsDrawnInTruecolorWhereTheTerminalHasIt(colorTerm: String, expected: String) throws {
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(TestPaths.sample)'", environment: ["COLORTERM": colorTerm])
        try tmux.waitFor("page 1/4")
        // The page is drawn once rendered, off the loop: a frame may show the status line first.
        try tmux.waitUntilIdle()
        let coloured = try tmux.screenWithColours()
        #expect(coloured.contains(expected) || coloured.contains(expected.replacingOccurrences(of: ":", with: ";")))
        if colorTerm.isEmpty { #expect(!coloured.contains("38;2;") && !coloured.contains("38:2:")) }
        try tmux.send("q")
        try tmux.waitFor("REDLINE-EXIT=0")
    }

    @Test func helpOverlayAndRedrawOnResize() throws {
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(TestPaths.sample)'", columns: 100, rows: 35)
        try tmux.waitFor("page 1/4")
        try tmux.send("F1")
        try tmux.waitFor("Redline keys")
        try tmux.send("Escape")
        let before = try tmux.screen().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(before.count >= 34 && before[33].contains("page 1/4"), "the status line sits above the message line")
        // Waited for: a resize tmux has not made yet cannot be redrawn, and a failure then says which side failed.
        let resized = try ProcessRunner.run("tmux", ["-L", tmux.socket, "resize-window", "-x", "140", "-y", "45"])
        #expect(resized.status == 0, "tmux: \(resized.stderr)")
        // The editor lays itself out again: the status line moves to the new second-last row (waited for up to a
        // minute: a busy machine can hold the redraw for seconds).
        var lines: [String] = []
        for _ in 0..<600 {
            lines = try tmux.screen().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.count >= 44, lines[43].contains("page 1/4") { break }
            usleep(100_000)
        }
        // Said on failure: the window's and the pane's size as tmux has them, the size the terminal device has, and
        // what the editor's process is doing (its state and where the kernel holds it).
        let pane = try tmux.paneFormat("window #{window_width}x#{window_height}, pane #{pane_width}x#{pane_height}")
        let device = try ProcessRunner.run("stty", ["-F", try tmux.paneFormat("#{pane_tty}"), "size"]).stdout
        let shell = try tmux.paneFormat("#{pane_pid}")
        let editor = try ProcessRunner.run("pgrep", ["-P", shell]).stdout.split(separator: "\n").first.map(String.init) ?? "?"
        let state = (try? String(contentsOfFile: "/proc/\(editor)/stat", encoding: .utf8))?.split(separator: " ").dropFirst(2).first ?? "?"
        let channel = (try? String(contentsOfFile: "/proc/\(editor)/wchan", encoding: .utf8)) ?? "?"
        #expect(lines.count >= 44 && lines[43].contains("page 1/4"),
                "\(pane), device \(device.trimmingCharacters(in: .whitespacesAndNewlines)), editor \(editor) \(state) in \(channel): \(lines.suffix(4))")
        #expect(!lines[33].contains("page 1/4"))
        #expect(lines.count >= 44 && lines[43].trimmingCharacters(in: .whitespaces).hasSuffix("sample.pdf"))
        try tmux.send("q")
        try tmux.waitFor("REDLINE-EXIT=0")
    }

    /// The highlighter draws yellow unless told otherwise; config.toml's `highlighter_colors` changes the palette.
    @Test func theHighlighterIsYellowAndItsPaletteComesFromTheConfiguration() throws {
        let (folder, document) = try copyOfSample(named: "highlight.pdf")
        try FileManager.default.createDirectory(atPath: folder.file("config/redline"), withIntermediateDirectories: true)
        try "highlighter_colors = [\"yellow\", \"#00C0FF\"]\n".write(toFile: folder.file("config/redline/config.toml"),
                                                                      atomically: true, encoding: .utf8)
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)' --page 4",
                                   environment: ["XDG_CONFIG_HOME": folder.file("config")])
        try tmux.waitFor("page 4/4")
        try tmux.send("i", "h")
        try tmux.waitFor("ink highlighter 14pt yellow")
        try tmux.send("Space")
        for _ in 0..<10 { try tmux.send("S-Right") }
        try tmux.send("Enter", "S-Down", "S-Down", "S-Down", "S-Left", "S-Left", "S-Left", "S-Left", "S-Left", "c")
        try tmux.waitFor("ink highlighter 14pt #00C0FF")
        try tmux.send("Space")
        for _ in 0..<10 { try tmux.send("S-Right") }
        try tmux.send("Enter", "Escape", ":", "w", "q", "Enter")
        try tmux.waitFor("REDLINE-EXIT=0")

        let page = try PopplerRender.page(4, of: folder.file("highlight-marked.pdf"))
        // The first stroke runs along y = 72 from x = 72 to 172, the second 30 pt lower.
        let yellow = page.rgb(120, 72), cyan = page.rgb(120, 102)
        #expect(yellow.red > 230 && yellow.green > 200 && yellow.blue < 190, "highlight at (120, 72) is \(yellow)")
        #expect(cyan.red < 200 && cyan.green > 200 && cyan.blue > 230, "second highlight at (120, 102) is \(cyan)")
    }

    /// The terminal closes under the editor (a dropped SSH connection, a closed window): it must not spin on
    /// the dead terminal, and the text still being typed is in the journal for the next start.
    @Test func aClosedTerminalEndsTheEditorWithTheWorkJournaled() throws {
        let (folder, document) = try copyOfSample(named: "dropped.pdf")
        let state = folder.file("state")
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", environment: ["XDG_STATE_HOME": state])
        try tmux.waitFor("page 1/4")
        try tmux.send("t")
        try tmux.type("Unsent")
        try tmux.waitFor("Text: Unsent")
        let editor = try #require(try tmux.programID())
        try tmux.closeTerminal()
        let deadline = Date().addingTimeInterval(10)
        while kill(editor, 0) == 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        let stillRunning = kill(editor, 0) == 0
        if stillRunning { kill(editor, SIGKILL) }
        #expect(!stillRunning, "the editor kept running on a closed terminal")
        // It ended, not crashed: nothing fatal in the log that stands in for stderr while the screen is up.
        let log = (try? String(contentsOfFile: state + "/redline/redline.log", encoding: .utf8)) ?? ""
        #expect(!log.contains("Fatal error"), "\(log)")

        #expect(try wordsAfterRestoring(document, state: state, saved: folder.file("dropped-marked.pdf")).map(\.text).contains("Unsent"))
    }
}
