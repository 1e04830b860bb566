import Foundation
import TestSupport
import Testing

/// `redline bookmarks` on the real binary, with configuration and data folders of its own.
@Suite struct BookmarkCommandTests {
    func redline(_ arguments: [String], config: String = "", in folder: TemporaryFolder) throws -> ProcessResult {
        let configFolder = folder.path + "/config"
        try FileManager.default.createDirectory(atPath: configFolder + "/redline", withIntermediateDirectories: true)
        try config.write(toFile: configFolder + "/redline/config.toml", atomically: true, encoding: .utf8)
        return try ProcessRunner.run(TestPaths.redline, arguments,
                                     environment: ["XDG_CONFIG_HOME": configFolder, "XDG_DATA_HOME": folder.path + "/data"])
    }

    func json(_ result: ProcessResult) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    @Test func addListAndRemoveInBothOrders() throws {
        let folder = TemporaryFolder()
        let one = folder.file("one.pdf"), two = folder.file("two.pdf"), three = folder.file("three.pdf")
        #expect(try redline(["bookmarks", "add", TestPaths.sample, "--page", "4", "--name", "Appendix", "--output", one], in: folder).status == 0)
        #expect(try redline(["bookmarks", "add", one, "--page", "2", "--output", two], in: folder).status == 0)
        let custom = try json(try redline(["bookmarks", two, "--json"], in: folder))
        #expect(custom.allSatisfy { Set($0.keys) == ["id", "page", "name"] })
        #expect(custom.map { $0["page"] as? Int } == [4, 2])
        #expect(custom[0]["name"] as? String == "Appendix")
        #expect(custom[1]["name"] is NSNull)
        let byPage = try json(try redline(["bookmarks", two, "--json"], config: "bookmark_order = \"page\"\n", in: folder))
        #expect(byPage.map { $0["page"] as? Int } == [2, 4])
        let text = try redline(["bookmarks", two], in: folder)
        #expect(text.stdout.hasPrefix("p4  Appendix  id:"))

        let removed = try redline(["bookmarks", "remove", two, "--page", "4", "--output", three], in: folder)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try json(try redline(["bookmarks", three, "--json"], in: folder)).map { $0["page"] as? Int } == [2])
        // What Preview reads: pages from 0, in page order.
        #expect(try ProbedXMP.read(two).preview?.map(\.PageIndex) == ["1", "3"])
    }

    @Test func mistakesAreClearErrors() throws {
        let folder = TemporaryFolder()
        let output = folder.file("out.pdf")
        let noPage = try redline(["bookmarks", "add", TestPaths.sample, "--page", "9", "--output", output], in: folder)
        #expect(noPage.status == 1)
        #expect(noPage.stderr == "redline: \(TestPaths.sample): there is no page 9 (the document has 4)\n")
        let nothing = try redline(["bookmarks", "remove", TestPaths.sample, "--page", "1", "--output", output], in: folder)
        #expect(nothing.status == 1)
        #expect(nothing.stderr == "redline: \(TestPaths.sample): page 1 has no bookmark\n")
        let badConfig = try redline(["bookmarks", TestPaths.sample], config: "bookmark_providers = [\"cloud\"]\n", in: folder)
        #expect(badConfig.status == 1)
        #expect(badConfig.stderr.contains("bookmark_providers: \"cloud\" is not \"xmp\" or \"sidecar\""))
        let missing = try redline(["bookmarks", folder.file("missing.pdf")], in: folder)
        #expect(missing.status == 2)
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func applySavesAMarkupFilesBookmarksThroughTheConfiguredProviders() throws {
        let folder = TemporaryFolder()
        let markup = folder.file("markup.json")
        try #"{"version": 1, "items": [], "bookmarks": [{"id": "6A0E1C5B-2F7D-4C8A-9B3E-1D2F3A4B5C6D", "pageIndex": 2, "name": "Figure", "sortKey": 0}]}"#
            .write(toFile: markup, atomically: true, encoding: .utf8)
        let output = folder.file("out.pdf")
        let applied = try redline(["apply", TestPaths.sample, "--markup", markup, "--output", output], in: folder)
        #expect(applied.status == 0, "\(applied.stderr)")
        let listed = try json(try redline(["bookmarks", output, "--json"], in: folder))
        #expect(listed.map { $0["name"] as? String } == ["Figure"] && listed.first?["page"] as? Int == 3)
        #expect(try ProbedXMP.read(output).preview?.map(\.PageIndex) == ["2"], "kept in the XMP, where Preview reads it")

        // A configuration that cannot be read is an error here too, not a quiet default.
        let broken = try redline(["apply", TestPaths.sample, "--markup", markup, "--output", folder.file("other.pdf")],
                                 config: "bookmark_providers = [\"cloud\"]", in: folder)
        #expect(broken.status == 1 && broken.errorLines.count == 1 && broken.stderr.contains("bookmark_providers"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("other.pdf")))
    }

    /// Listing reads the root's page count only for a document without bookmarks: one whose root states too few
    /// pages (or too many) lists the bookmarks its pages hold, as the editor and every other command count them.
    @Test(arguments: [5, 20])
    func aWrongPageCountInTheRootNeitherHidesNorInventsBookmarks(stated: Int) throws {
        let folder = TemporaryFolder()
        let marked = folder.file("marked.pdf")
        #expect(try redline(["bookmarks", "add", TestPaths.fixture("qpdf_boxes.pdf"), "--page", "8", "--name", "last", "--output", marked],
                            in: folder).status == 0)
        // The root's "  /Count 8" in the original's bytes, put as many bytes long: every offset stays right.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: marked))
        let count = try #require(bytes.range(of: Data("  /Count 8".utf8)))
        let replacement = "/Count \(stated)"
        bytes.replaceSubrange(count, with: Data((String(repeating: " ", count: 10 - replacement.count) + replacement).utf8))
        let wrong = folder.file("wrong.pdf")
        try bytes.write(to: URL(fileURLWithPath: wrong))
        let listed = try redline(["bookmarks", wrong], in: folder)
        #expect(listed.status == 0 && listed.stdout.hasPrefix("p8  last  id:"), "\(listed.stdout)\(listed.stderr)")
    }
}
