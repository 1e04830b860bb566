import Foundation
import TestSupport
import Testing

/// `redline annotations --format markdown|csv|html` and the filters, on a document reviewed through Redline's own
/// commands, read back by independent readers: Python's csv module and a real browser.
@Suite struct CommentSummaryTests {
    static let note = "{015437a9-12f9-4bb6-b032-20440d9d8527}"
    static let square = "{0171f053-5c11-455c-897b-744b6c918ee1}"
    static let hostileReply = "Agreed — but see <script>alert(1)</script> & \"quotes\""
    static let formulaReply = "=HYPERLINK(\"http://evil\",\"x\")\nsecond line, with comma"
    /// Redline refuses control characters in what it is given to write; the bidirectional override is text.
    static let markdownReply = "# not a heading\n1. not a list\nright-to-left \u{202E} override"

    /// pdf.js's annotation sampler (18 comments on page 1), answered and reviewed: the note has two replies and is
    /// accepted; the square is rejected and answered once.
    static func reviewed(_ command: RedlineCommand) throws -> String {
        var current = TestPaths.fixture("pdfjs_issue14438.pdf")
        let steps: [[String]] = [
            ["reply", "--to", note, "--text", hostileReply, "--author", "alice"],
            ["reply", "--to", note, "--text", formulaReply, "--author", "Bob <b@x>"],
            ["review", "--to", note, "--state", "accepted", "--author", "carol"],
            ["review", "--to", square, "--state", "rejected", "--author", "alice"],
            ["reply", "--to", square, "--text", markdownReply, "--author", "dave"],
        ]
        for (index, step) in steps.enumerated() {
            let next = command.folder.file("step\(index).pdf")
            let result = try command.run([step[0], current] + step.dropFirst() + ["--output", next])
            #expect(result.status == 0, "\(step[0]): \(result.stderr)")
            current = next
        }
        return current
    }

    @Test func markdownShowsEachThreadAsWrittenWithNothingAReaderWouldRunOrReformat() throws {
        let command = try RedlineCommand()
        let document = try Self.reviewed(command)
        let result = try command.run(["annotations", document, "--format", "markdown"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.problems.isEmpty, "\(result.problems)")
        let text = result.stdout
        #expect(text.hasPrefix("# Comments on step4.pdf\n\n18 comments, 3 replies\n\n## Page 1\n"))
        #expect(text.contains("### Note · const · 2022-01-10 16:00 · Accepted by carol\n\n> 这是一个注解。\n"))
        #expect(text.contains("- **alice** · "))
        #expect(text.contains("Agreed — but see &lt;script&gt;alert(1)&lt;/script&gt; &amp; \"quotes\""))
        #expect(!text.contains("<script>"))
        #expect(text.contains("- **Bob &lt;b@x&gt;** · "))
        #expect(text.contains(": =HYPERLINK(\"http://evil\",\"x\")  \n  second line, with comma\n"), "two spaces: a hard line break")
        #expect(text.contains("- *Accepted* set by carol · "))
        #expect(text.contains("### Square · const · 2022-01-10 16:01 · Rejected by alice\n\n> hightlight\n"))
        #expect(text.contains(": \\# not a heading  \n  1\\. not a list  \n  right-to-left \\\\u{202E} override\n"))
        #expect(text.contains("> hightlight\n\n- *Rejected* set by alice"), "a blank line ends the quote before the answers")
        #expect(text.components(separatedBy: "\n### ").count - 1 == 18)
    }

    @Test func csvIsOneRowPerCommentReplyAndStateAsASpreadsheetReadsIt() throws {
        let command = try RedlineCommand()
        let document = try Self.reviewed(command)
        let output = command.folder.file("review.csv")
        let result = try command.run(["annotations", document, "-o", output])
        #expect(result.status == 0 && result.stdout.isEmpty, "\(result.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(bytes.starts(with: [0xEF, 0xBB, 0xBF]), "a byte order mark, for spreadsheets to read UTF-8")
        let read = try ProcessRunner.run(TestPaths.python, ["-c", """
            import csv, json, sys
            with open(sys.argv[1], encoding="utf-8-sig", newline="") as f:
                print(json.dumps(list(csv.DictReader(f))))
            """, output])
        #expect(read.status == 0, "\(read.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [[String: String]])
        #expect(rows.count == 18 + 5)
        #expect(Set(rows.flatMap(\.keys)) == ["thread", "id", "in_reply_to", "page", "kind", "author", "date", "state", "contents"])
        let answers = rows.filter { $0["thread"] == Self.note && $0["id"] != Self.note }
        #expect(answers.map { $0["kind"] } == ["Reply", "Reply", "State"])
        #expect(answers.allSatisfy { $0["in_reply_to"] == Self.note })
        #expect(answers[0]["contents"] == Self.hostileReply)
        #expect(answers[1]["contents"] == "'" + Self.formulaReply, "a formula is text, its line break kept")
        #expect(answers[1]["author"] == "Bob <b@x>")
        #expect(answers[2]["state"] == "Accepted" && answers[2]["author"] == "carol")
        let root = try #require(rows.first { $0["id"] == Self.note })
        #expect(root["state"] == "Accepted by carol" && root["kind"] == "Note" && root["page"] == "1")
        #expect(root["date"] == "2022-01-10T16:00:04+08:00" || root["date"]?.hasPrefix("2022-01-10T16:00") == true)
    }

    /// The HTML summary in Chromium: the page it builds holds every thread and no script, and its screenshot shows
    /// the threads (the red bar beside each) and text.
    @Test func htmlIsOnePageABrowserShowsWithEveryThreadAndNoScript() throws {
        let command = try RedlineCommand()
        let document = try Self.reviewed(command)
        let output = command.folder.file("review.html")
        #expect(try command.run(["annotations", document, "--state", "accepted", "--state", "rejected", "--output", output]).status == 0)
        let browserHome = command.folder.file("chromium")
        let flags = ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + browserHome, "--hide-scrollbars"]
        let dom = try ProcessRunner.run("chromium", flags + ["--dump-dom", "file://" + output], timeLimit: 120)
        #expect(dom.status == 0, "\(dom.stderr)")
        #expect(dom.stdout.components(separatedBy: "<article class=\"comment\">").count - 1 == 2)
        #expect(!dom.stdout.contains("<script"), "the reply's <script> is text, not an element")
        #expect(dom.stdout.contains("Agreed — but see &lt;script&gt;alert(1)&lt;/script&gt; &amp; \"quotes\""))
        #expect(dom.stdout.contains("2 comments, 3 replies (filter: state:accepted state:rejected)"))
        #expect(dom.stdout.contains("right-to-left \\u{202E} override"), "the override is shown, not obeyed")

        let shot = command.folder.file("review.png")
        let taken = try ProcessRunner.run("chromium", flags + ["--window-size=900,1200", "--screenshot=" + shot, "file://" + output],
                                          timeLimit: 120)
        #expect(taken.status == 0, "\(taken.stderr)")
        let pixels = try ProcessRunner.run(TestPaths.python, ["-c", """
            import sys, fitz
            pix = fitz.Pixmap(sys.argv[1])
            bar = dark = 0
            for y in range(0, pix.height, 2):
                for x in range(0, pix.width, 2):
                    r, g, b = pix.pixel(x, y)[:3]
                    if abs(r - 0xc0) < 12 and abs(g - 0x39) < 12 and abs(b - 0x2b) < 12: bar += 1
                    elif r + g + b < 200: dark += 1
            print(pix.width, pix.height, bar, dark)
            """, shot])
        let figures = pixels.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(figures.count == 4, "\(pixels.stderr)")
        guard figures.count == 4 else { return }
        #expect(figures[0] == 900 && figures[1] == 1200)
        #expect(figures[2] > 100, "the bars beside the two threads")
        #expect(figures[3] > 800, "the threads' text")
    }

    @Test func filtersChooseThreadsInEveryFormatAndMisspellingsAreSaid() throws {
        let command = try RedlineCommand()
        let document = try Self.reviewed(command)
        let unanswered = try command.run(["annotations", document, "--unanswered", "--kind", "ink", "--json"])
        #expect(unanswered.status == 0)
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(unanswered.stdout.utf8)) as? [[String: Any]])
        #expect(listed.count == 5 && listed.allSatisfy { $0["type"] as? String == "Ink" })
        let accepted = try command.run(["annotations", document, "--state", "ACCEPTED"])
        #expect(accepted.stdout.split(separator: "\n").count == 4, "the note, its two replies and its state")
        #expect(accepted.stdout.hasPrefix("p1  Note  const"))
        let byAuthor = try command.run(["annotations", document, "--author", "CONST", "--state", "none", "--format", "csv"])
        #expect(byAuthor.stdout.split(separator: "\n").count == 1 + 15, "const wrote 17 of the 18; two are reviewed")
        let none = try command.run(["annotations", document, "--author", "nobody", "--format", "markdown"])
        #expect(none.status == 0 && none.stdout.hasSuffix("0 comments, 0 replies (filter: author:nobody)\n\nNo comments.\n"))
        #expect(try command.run(["annotations", document, "--author", "nobody", "--json"]).stdout == "[]\n")

        let misspelt = try command.run(["annotations", document, "--kind", "hilight"])
        #expect(misspelt.status == 1)
        #expect(misspelt.stderr.contains("no kind of comment is called “hilight”: one of note, textbox, highlight"))
        #expect(try command.run(["annotations", document, "--state", "done"]).status == 1)
        #expect(try command.run(["annotations", document, "--page", "2-1"]).status == 1)
        let past = try command.run(["annotations", document, "--page", "1-2"])
        #expect(past.status == 1 && past.stderr.contains("there is no page 2 (the document has 1)"))
        let both = try command.run(["annotations", document, "--json", "--format", "csv"])
        #expect(both.status == 1 && both.stderr.contains("--json and --format csv ask for two formats"))
    }

    @Test func aSummaryThatCannotBeWrittenLeavesNothingBehind() throws {
        let command = try RedlineCommand()
        let document = try Self.reviewed(command)
        let nowhere = command.folder.file("missing/summary.html")
        let refused = try command.run(["annotations", document, "-o", nowhere])
        #expect(refused.status == 3, "\(refused.stderr)")
        #expect(refused.stderr.hasPrefix("redline: "))
        #expect(!FileManager.default.fileExists(atPath: nowhere))
        guard SmallDisk.unavailable == nil else { return }
        let disk = try SmallDisk(megabytes: 1)
        let target = disk.file("summary.md")
        try Data("the summary before\n".utf8).write(to: URL(fileURLWithPath: target))
        try disk.fill(leaving: 0)
        let full = try command.run(["annotations", document, "--format", "markdown", "-o", target])
        #expect(full.status == 3 && full.stderr.contains("No space left on device"), "\(full.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "the summary before\n")
        #expect(try disk.temporaryFiles().isEmpty)
    }

    /// Every fixture, hostile ones included, in every format: the same comments as the JSON listing, escaped for
    /// where they land (no control character reaches a terminal, no markup of the document's reaches HTML), and
    /// the CSV read back by Python's csv module row for row.
    @Test func everyFixtureSummarisesInEveryFormatAndTheCSVReadsBack() throws {
        let command = try RedlineCommand()
        let folder = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures").path
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".pdf") }.map { folder + "/" + $0 }
            + (try FileManager.default.contentsOfDirectory(atPath: folder + "/hostile")).filter { $0.hasSuffix(".pdf") }.map { folder + "/hostile/" + $0 }
        var expected: [String: Int] = [:]
        for path in names.sorted() {
            let listed = try command.run(["annotations", path, "--json"])
            #expect(listed.problems.isEmpty, "\(path): \(listed.problems)")
            guard listed.status == 0 else {
                #expect(listed.status == 2, "\(path): \(listed.stderr)")
                continue
            }
            let comments = (try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [Any])?.count ?? -1
            for format in ["markdown", "csv", "html"] {
                let result = try command.run(["annotations", path, "--format", format])
                #expect(result.status == 0 && result.problems.isEmpty, "\(path) \(format): \(result.problems) \(result.stderr)")
                if format == "html" {
                    #expect(!result.stdout.contains("<script") && !result.stdout.contains("<img") && !result.stdout.contains("<iframe"), "\(path)")
                    #expect(result.stdout.components(separatedBy: "<article").count - 1 <= comments)
                }
                if format == "markdown" { #expect(!result.stdout.contains("<"), "\(path): markup of the document's in Markdown") }
            }
            let csv = command.folder.file("\(expected.count).csv")
            #expect(try command.run(["annotations", path, "--output", csv]).status == 0)
            expected[csv] = comments
        }
        #expect(expected.count >= 20)
        let read = try ProcessRunner.run(TestPaths.python, ["-c", """
            import csv, json, sys
            counts = {}
            for path in sys.argv[1:]:
                with open(path, encoding="utf-8-sig", newline="") as f:
                    counts[path] = len(list(csv.DictReader(f)))
            print(json.dumps(counts))
            """] + expected.keys.sorted())
        let counts = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Int], "\(read.stderr)")
        for (path, comments) in expected {
            #expect(counts[path] == comments, "\(path): \(counts[path] ?? -1) rows for \(comments) comments")
        }
    }

    /// A reply longer than a spreadsheet cell holds is cut to one cell, saying so, and Python's csv module reads
    /// the file with its default field limit; the other formats keep every character.
    @Test func aFieldLongerThanASpreadsheetCellIsCutToOneAndSaysSo() throws {
        let command = try RedlineCommand()
        let output = command.folder.file("long.pdf")
        let words = String(repeating: "ä", count: 40_000) + String(repeating: "👨‍👩‍👧", count: 1_000)
        let replied = try command.run(["reply", TestPaths.fixture("pdfjs_issue14438.pdf"), "--to", Self.note, "--text=" + words,
                                       "--author", "=SUM(A1)", "--output", output])
        #expect(replied.status == 0, "\(replied.stderr)")
        let csv = command.folder.file("long.csv")
        #expect(try command.run(["annotations", output, "-o", csv]).status == 0)
        let read = try ProcessRunner.run(TestPaths.python, ["-c", """
            import csv, json, sys
            with open(sys.argv[1], encoding="utf-8-sig", newline="") as f:
                print(json.dumps(list(csv.DictReader(f))))
            """, csv])
        #expect(read.status == 0, "\(read.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [[String: String]])
        #expect(rows.count == 18 + 1)
        let reply = try #require(rows.first { $0["kind"] == "Reply" })
        let contents = try #require(reply["contents"])
        #expect(contents.utf16.count <= 32_767 && contents.utf16.count > 32_000, "\(contents.utf16.count)")
        let kept = contents.prefix { $0 == "ä" }.count
        #expect(kept > 32_000)
        #expect(contents == String(repeating: "ä", count: kept) + " … [\(41_000 - kept) more characters: a spreadsheet cell holds 32767]")
        #expect(reply["author"] == "'=SUM(A1)", "a formula is still text")
        // Hidden characters are shown as escapes: the cut falls between two, and counts the comment's characters.
        let overrides = command.folder.file("overrides.pdf")
        #expect(try command.run(["reply", output, "--to", Self.note, "--text=" + String(repeating: "\u{202E}", count: 5_000),
                                 "--output", overrides]).status == 0)
        let escapedCSV = command.folder.file("overrides.csv")
        #expect(try command.run(["annotations", overrides, "-o", escapedCSV]).status == 0)
        let escapedRows = try ProcessRunner.run(TestPaths.python, ["-c", """
            import csv, json, sys
            with open(sys.argv[1], encoding="utf-8-sig", newline="") as f:
                print(json.dumps([row["contents"] for row in csv.DictReader(f) if row["kind"] == "Reply"]))
            """, escapedCSV])
        let replies = try #require(try JSONSerialization.jsonObject(with: Data(escapedRows.stdout.utf8)) as? [String], "\(escapedRows.stderr)")
        let escaped = try #require(replies.last)
        let shownEscapes = escaped.components(separatedBy: "\\u{202E}").count - 1
        #expect(shownEscapes > 3_000 && escaped.utf16.count <= 32_767)
        #expect(escaped == String(repeating: "\\u{202E}", count: shownEscapes)
                + " … [\(5_000 - shownEscapes) more characters: a spreadsheet cell holds 32767]", "\(escaped.suffix(80))")
        for format in ["json", "markdown", "html"] {
            let whole = try command.run(["annotations", output, "--format", format])
            #expect(whole.stdout.contains(String(repeating: "ä", count: 40_000)), "\(format) keeps the whole reply")
            #expect(whole.stdout.unicodeScalars.filter { $0 == "\u{1F467}" }.count == 1_000, "\(format) keeps the whole reply")
        }
    }

    /// The joiners a script or an emoji sequence is written with reach every summary as written; an override does not.
    @Test func joinersStayAndOverridesAreShownInEveryFormat() throws {
        let command = try RedlineCommand()
        let output = command.folder.file("joined.pdf")
        let words = "می\u{200C}خواهم 👨\u{200D}👩\u{200D}👧 \u{2066}x\u{2069}"
        #expect(try command.run(["reply", TestPaths.fixture("pdfjs_issue14438.pdf"), "--to", Self.note, "--text=" + words,
                                 "--output", output]).status == 0)
        for format in ["text", "markdown", "csv", "html"] {
            let result = try command.run(["annotations", output, "--format", format])
            #expect(result.status == 0)
            if format == "text" { continue }
            #expect(result.stdout.contains("می\u{200C}خواهم 👨\u{200D}👩\u{200D}👧"), "\(format)")
            #expect(!result.stdout.contains("\u{2066}"), "\(format): an isolate reorders what follows")
        }
    }
}
