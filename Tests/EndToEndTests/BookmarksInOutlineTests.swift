import Foundation
import TestSupport
import Testing

/// Bookmarks kept in the document outline as well (`--outline`, `bookmarks_in_outline`): read by PyMuPDF and pikepdf
/// as other readers show them, changed there as another program would, and read back.
@Suite struct BookmarksInOutlineTests {
    struct Outline: Decodable {
        let toc: [[Entry]]
        let folders: Int
        let problems: [String]

        enum Entry: Decodable, Equatable {
            case number(Int)
            case text(String)
            init(from decoder: Decoder) throws {
                let value = try decoder.singleValueContainer()
                if let number = try? value.decode(Int.self) { self = .number(number) } else { self = .text(try value.decode(String.self)) }
            }
        }

        /// [level, title, page] as text, for messages and comparisons.
        var lines: [String] {
            toc.map { $0.map { if case .number(let n) = $0 { "\(n)" } else if case .text(let t) = $0 { t } else { "" } }.joined(separator: " | ") }
        }
    }

    static func outline(_ path: String) throws -> Outline {
        let result = try ProcessRunner.run(TestPaths.python, [TestPaths.tool("outline_tool.py"), "toc", path])
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONDecoder().decode(Outline.self, from: Data(result.stdout.utf8))
    }

    static func bookmarks(_ command: RedlineCommand, _ path: String, _ flags: [String] = ["--outline"]) throws -> [String] {
        let result = try command.run(["bookmarks", "list", path, "--json"] + flags)
        #expect(result.status == 0 && result.problems.isEmpty, "\(result.stderr)")
        let items = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        return items.map { "\($0["page"] as? Int ?? 0) \($0["name"] as? String ?? "-")" }
    }

    /// The manual's own outline stays as it was, in its order, and the bookmarks follow it in one folder, however
    /// often they are saved; each save is appended to the bytes before it.
    @Test func bookmarksFollowTheDocumentsOwnOutlineInOneFolder() throws {
        let command = try RedlineCommand()
        let original = TestPaths.fixture("pypdf_GeoTopo-komprimiert.pdf")
        let own = try Self.outline(original).lines
        #expect(own.count > 10)
        let first = command.folder.file("first.pdf"), second = command.folder.file("second.pdf")
        #expect(try command.run(["bookmarks", "add", original, "--page", "12", "--name", "Results", "--outline", "--output", first]).status == 0)
        #expect(try command.run(["bookmarks", "add", first, "--page", "3", "--outline", "--output", second]).status == 0)
        let outline = try Self.outline(second)
        #expect(outline.problems.isEmpty, "\(outline.problems)")
        #expect(outline.folders == 1)
        #expect(Array(outline.lines.prefix(own.count)) == own, "the document's entries as they were")
        // The manual's front matter is numbered in roman numerals: an unnamed bookmark is titled as its page is printed.
        #expect(Array(outline.lines.dropFirst(own.count)) == ["1 | Bookmarks | 12", "2 | Results | 12", "2 | Page iii | 3"],
                "\(outline.lines.dropFirst(own.count))")
        #expect(outline.lines.count == own.count + 3)
        let before = try Data(contentsOf: URL(fileURLWithPath: first)), after = try Data(contentsOf: URL(fileURLWithPath: second))
        #expect(after.starts(with: before), "an update appended to the first copy")
        #expect(try ProcessRunner.run("qpdf", ["--check", second]).status == 0)
        // The metadata has them too, as Preview and PSPDFKit read them.
        #expect(try Self.bookmarks(command, second, []) == ["12 Results", "3 -"])
    }

    /// What another program did to the folder comes back as bookmarks: a rename, a removal, an entry added; the next
    /// save puts metadata and outline in step, still with one folder.
    @Test func changesMadeInTheOutlineByAnotherProgramAreReadBack() throws {
        let command = try RedlineCommand()
        let original = TestPaths.fixture("pypdf_GeoTopo-komprimiert.pdf")
        let own = try Self.outline(original).lines
        let first = command.folder.file("first.pdf"), second = command.folder.file("second.pdf")
        #expect(try command.run(["bookmarks", "add", original, "--page", "12", "--name", "Results", "--outline", "--output", first]).status == 0)
        #expect(try command.run(["bookmarks", "add", first, "--page", "5", "--name", "Method", "--outline", "--output", second]).status == 0)
        let edited = command.folder.file("edited.pdf")
        let edit = try ProcessRunner.run(TestPaths.python, [TestPaths.tool("outline_tool.py"), "edit", second, edited])
        #expect(edit.status == 0, "\(edit.stderr)")
        #expect(try Self.bookmarks(command, edited) == ["12 Findings", "20 Appendix"])
        #expect(try Self.bookmarks(command, edited, ["--no-outline"]) == ["12 Results", "5 Method"], "the metadata alone, as it was")
        let third = command.folder.file("third.pdf")
        #expect(try command.run(["bookmarks", "add", edited, "--page", "30", "--outline", "--output", third]).status == 0)
        #expect(try Self.bookmarks(command, third, []) == ["12 Findings", "20 Appendix", "30 -"], "the metadata in step")
        let outline = try Self.outline(third)
        #expect(outline.problems.isEmpty && outline.folders == 1, "\(outline.problems)")
        #expect(Array(outline.lines.prefix(own.count)) == own)
        #expect(Array(outline.lines.dropFirst(own.count)) == ["1 | Bookmarks | 12", "2 | Findings | 12", "2 | Appendix | 20", "2 | Page 27 | 30"],
                "\(outline.lines.dropFirst(own.count))")
        let editedBytes = try Data(contentsOf: URL(fileURLWithPath: edited)), saved = try Data(contentsOf: URL(fileURLWithPath: third))
        #expect(saved.starts(with: editedBytes), "appended to what the other program saved")
    }

    /// A bookmark removed where Preview keeps them (the metadata) leaves the outline too; the last one removed
    /// takes the folder with it, and the outline is the document's own again.
    @Test func removedBookmarksLeaveTheOutlineAndTheLastTakesTheFolder() throws {
        let command = try RedlineCommand()
        let original = TestPaths.fixture("pypdf_GeoTopo-komprimiert.pdf")
        let own = try Self.outline(original).lines
        let first = command.folder.file("first.pdf"), second = command.folder.file("second.pdf")
        #expect(try command.run(["bookmarks", "add", original, "--page", "12", "--outline", "--output", first]).status == 0)
        #expect(try command.run(["bookmarks", "add", first, "--page", "40", "--outline", "--output", second]).status == 0)
        // Removed without the outline: as Preview would, the metadata only.
        let metadataOnly = command.folder.file("metadata-only.pdf")
        #expect(try command.run(["bookmarks", "remove", second, "--page", "12", "--output", metadataOnly]).status == 0)
        #expect(try Self.outline(metadataOnly).lines.count == own.count + 3, "the outline untouched without --outline")
        #expect(try Self.bookmarks(command, metadataOnly) == ["40 -"])
        let last = command.folder.file("last.pdf")
        #expect(try command.run(["bookmarks", "remove", metadataOnly, "--page", "40", "--outline", "--output", last]).status == 0)
        let outline = try Self.outline(last)
        #expect(outline.lines == own && outline.folders == 0 && outline.problems.isEmpty, "\(outline.lines.suffix(3)) \(outline.problems)")
        #expect(try Self.bookmarks(command, last).isEmpty)
    }

    /// A document without an outline gets one holding the folder; the configuration turns it on as the flag does,
    /// and `--no-outline` off.
    @Test func aDocumentWithoutAnOutlineGetsOneFromTheConfiguration() throws {
        let command = try RedlineCommand(config: "bookmarks_in_outline = true\n")
        let original = TestPaths.fixture("pdfjs_issue14438.pdf")
        #expect(try Self.outline(original).toc.isEmpty)
        let copy = command.folder.file("copy.pdf")
        #expect(try command.run(["bookmarks", "add", original, "--page", "1", "--name", "Cover <&> \"quoted\"", "--output", copy]).status == 0)
        let outline = try Self.outline(copy)
        #expect(outline.lines == ["1 | Bookmarks | 1", "2 | Cover <&> \"quoted\" | 1"], "\(outline.lines)")
        #expect(outline.problems.isEmpty)
        let untouched = command.folder.file("untouched.pdf")
        #expect(try command.run(["bookmarks", "add", original, "--page", "1", "--no-outline", "--output", untouched]).status == 0)
        #expect(try Self.outline(untouched).toc.isEmpty)
    }

    /// `redline apply` and the editor's saves go through the same saver: with the outline on, a save that changes
    /// only markup still brings the outline into step with bookmarks a program added to it.
    @Test func aMarkupSaveBringsTheOutlineIntoStep() throws {
        let command = try RedlineCommand()
        let original = TestPaths.fixture("pypdf_GeoTopo-komprimiert.pdf")
        let first = command.folder.file("first.pdf"), second = command.folder.file("second.pdf")
        #expect(try command.run(["bookmarks", "add", original, "--page", "12", "--name", "Results", "--outline", "--output", first]).status == 0)
        #expect(try command.run(["bookmarks", "add", first, "--page", "5", "--name", "Method", "--outline", "--output", second]).status == 0)
        let edited = command.folder.file("edited.pdf")
        #expect(try ProcessRunner.run(TestPaths.python, [TestPaths.tool("outline_tool.py"), "edit", second, edited]).status == 0)
        let markup = command.folder.file("markup.json")
        try #"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 72, "y": 100, "text": "Checked"}]}"#
            .write(toFile: markup, atomically: true, encoding: .utf8)
        let applied = command.folder.file("applied.pdf")
        let result = try command.run(["apply", edited, "--markup", markup, "--outline", "--output", applied])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.bookmarks(command, applied, ["--no-outline"]) == ["12 Findings", "20 Appendix"])
    }

    /// Two bookmarks kept in the outline of the manual, as `first.pdf`.
    static func twoBookmarks(_ command: RedlineCommand) throws -> String {
        let first = command.folder.file("one.pdf"), second = command.folder.file("two.pdf")
        #expect(try command.run(["bookmarks", "add", TestPaths.fixture("pypdf_GeoTopo-komprimiert.pdf"), "--page", "12", "--name", "Results",
                                 "--outline", "--output", first]).status == 0)
        #expect(try command.run(["bookmarks", "add", first, "--page", "5", "--name", "Method", "--outline", "--output", second]).status == 0)
        return second
    }

    static func change(_ how: String, _ source: String, _ command: RedlineCommand) throws -> String {
        let output = command.folder.file("\(how).pdf")
        let result = try ProcessRunner.run(TestPaths.python, [TestPaths.tool("outline_tool.py"), how, source, output])
        #expect(result.status == 0, "\(result.stderr)")
        return output
    }

    /// Metadata that holds none of the folder's bookmarks (stripped by a scrubber; the same for an unreadable packet
    /// or a sidecar on another machine) says nothing about them: the outline's stay, and are saved back.
    @Test func bookmarksTheMetadataLostStayInTheOutline() throws {
        let command = try RedlineCommand()
        let stripped = try Self.change("strip-metadata", try Self.twoBookmarks(command), command)
        #expect(try Self.bookmarks(command, stripped) == ["12 Results", "5 Method"])
        let saved = command.folder.file("saved.pdf")
        #expect(try command.run(["bookmarks", "add", stripped, "--page", "2", "--outline", "--output", saved]).status == 0)
        #expect(try Self.bookmarks(command, saved, []) == ["12 Results", "5 Method", "2 -"])
        #expect(try Self.outline(saved).lines.suffix(3) == ["2 | Results | 12", "2 | Method | 5", "2 | Page ii | 2"])
    }

    /// A program that rewrites the outline (PyMuPDF's set_toc) drops Redline's keys: its "Bookmarks" entry is still
    /// the folder, an entry removed there stays removed, and there is never a second folder.
    @Test func anOutlineRewrittenByAnotherProgramKeepsOneFolder() throws {
        let command = try RedlineCommand()
        let rewritten = command.folder.file("rewritten.pdf")
        let python = try ProcessRunner.run(TestPaths.python, ["-c", """
            import pymupdf, sys
            document = pymupdf.open(sys.argv[1])
            document.set_toc([entry for entry in document.get_toc() if entry[1] != "Method"])
            document.save(sys.argv[2])
            """, try Self.twoBookmarks(command), rewritten])
        #expect(python.status == 0, "\(python.stderr)")
        #expect(try Self.bookmarks(command, rewritten) == ["12 Results"])
        let saved = command.folder.file("saved.pdf")
        #expect(try command.run(["bookmarks", "add", rewritten, "--page", "30", "--outline", "--output", saved]).status == 0)
        let outline = try Self.outline(saved)
        #expect(outline.lines.filter { $0.hasPrefix("1 | Bookmarks") }.count == 1, "\(outline.lines.suffix(4))")
        #expect(outline.lines.suffix(2) == ["2 | Results | 12", "2 | Page 27 | 30"], "\(outline.lines.suffix(4))")
        #expect(outline.folders == 1)
    }

    /// What Redline cannot turn into a bookmark stays in the folder as the other program made it: a web link, an
    /// entry under an entry; a named destination is followed to its page.
    @Test func entriesOfOtherProgramsStayAsTheyWere() throws {
        let command = try RedlineCommand()
        let foreign = try Self.change("foreign", try Self.twoBookmarks(command), command)
        #expect(try Self.bookmarks(command, foreign) == ["12 Results", "5 Method", "25 Named"])
        let saved = command.folder.file("saved.pdf")
        #expect(try command.run(["bookmarks", "remove", foreign, "--page", "5", "--outline", "--output", saved]).status == 0)
        let outline = try Self.outline(saved)
        #expect(outline.problems.isEmpty, "\(outline.problems)")
        #expect(outline.lines.suffix(4) == ["2 | Results | 12", "3 | Child | 8", "2 | Named | 25", "2 | Web | -1"], "\(outline.lines.suffix(5))")
        let web = try ProcessRunner.run(TestPaths.python, ["-c", """
            import pymupdf, sys
            print([entry[3].get("uri") for entry in pymupdf.open(sys.argv[1]).get_toc(simple=False) if entry[1] == "Web"])
            """, saved])
        #expect(web.stdout.contains("https://example.org"), "\(web.stdout) \(web.stderr)")
    }

    /// A folder renamed in another program keeps its name; a folder key forged on a chapter of the document's own
    /// does not make the chapter Redline's.
    @Test func aRenamedFolderKeepsItsNameAndAForgedOneIsNotTaken() throws {
        let command = try RedlineCommand()
        let renamed = try Self.change("rename-folder", try Self.twoBookmarks(command), command)
        let saved = command.folder.file("saved.pdf")
        #expect(try command.run(["bookmarks", "add", renamed, "--page", "30", "--outline", "--output", saved]).status == 0)
        let outline = try Self.outline(saved)
        #expect(outline.lines.contains("1 | Meine Lesezeichen | 12") && !outline.lines.contains { $0.hasPrefix("1 | Bookmarks") },
                "\(outline.lines.suffix(5))")

        let original = TestPaths.fixture("pypdf_GeoTopo-komprimiert.pdf")
        let own = try Self.outline(original).lines
        let forged = try Self.change("forge-chapter", original, command)
        let marked = command.folder.file("marked.pdf")
        #expect(try command.run(["bookmarks", "add", forged, "--page", "30", "--outline", "--output", marked]).status == 0)
        let afterForgery = try Self.outline(marked).lines
        #expect(Array(afterForgery.prefix(own.count)) == own, "the chapter and its sections as they were")
        #expect(afterForgery.suffix(2) == ["1 | Bookmarks | 30", "2 | Page 27 | 30"])
    }

    /// A markup file's bookmarks must lead to pages the document has, each id once.
    @Test func aMarkupFileWithBookmarksOffTheDocumentIsRefused() throws {
        let command = try RedlineCommand()
        for (bookmarks, message) in [(#"[{"id": "A", "pageIndex": 500, "sortKey": 0}]"#, "bookmark 1: page index 500 is not a page of the document (0 to 3)"),
                                     (#"[{"id": "A", "pageIndex": -1, "sortKey": 0}]"#, "bookmark 1: page index -1 is not a page of the document"),
                                     (#"[{"id": "A", "pageIndex": 0, "sortKey": 0}, {"id": "a", "pageIndex": 1, "sortKey": 1}]"#,
                                      "bookmark 2: its id is the id of an earlier bookmark")] {
            let markup = command.folder.file("bookmarks.json"), output = command.folder.file("out.pdf")
            try #"{"version": 1, "items": [], "bookmarks": \#(bookmarks)}"#.write(toFile: markup, atomically: true, encoding: .utf8)
            let result = try command.run(["apply", TestPaths.sample, "--markup", markup, "--outline", "--output", output])
            #expect(result.status == 1 && result.stderr.contains(message), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }
}
