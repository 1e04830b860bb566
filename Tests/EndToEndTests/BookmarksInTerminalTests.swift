import Foundation
import TestSupport
import Testing

/// Bookmarks in the real binary under tmux: bookmark, rename, save, then read the file back.
@Suite(.serialized) struct BookmarksInTerminalTests {
    @Test func bookmarkRenameAndSaveWithoutMarkup() throws {
        let folder = TemporaryFolder()
        let document = folder.file("book.pdf")
        try FileManager.default.copyItem(atPath: TestPaths.sample, toPath: document)
        let environment = ["XDG_CONFIG_HOME": folder.file("config"), "XDG_DATA_HOME": folder.file("data")]
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)' --page 3", environment: environment)
        try tmux.waitFor("page 3/4")
        try tmux.send("b")
        try tmux.waitFor("page 3/4 ★ bookmarked")
        try tmux.send("g", "g", "b", "B")
        try tmux.waitFor("Bookmarks · 2 · your order")
        try tmux.send("R")
        try tmux.type("Figure")
        try tmux.waitFor("Name: Figure")
        try tmux.send("Enter")
        try tmux.waitFor("Renamed Figure")
        try tmux.send("Escape", ":", "w", "q", "Enter")
        try tmux.waitFor("REDLINE-EXIT=0")

        let saved = folder.file("book-marked.pdf")
        let listed = try ProcessRunner.run(TestPaths.redline, ["bookmarks", saved, "--json"], environment: environment)
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(objects.map { $0["page"] as? Int } == [3, 1])
        // The panel opened on the current page's bookmark (page 1), so that is the one renamed.
        #expect(objects.map { $0["name"] as? String } == [nil, "Figure"])
        #expect(try ProbedXMP.read(saved).preview?.map(\.PageIndex) == ["0", "2"])
        #expect(try QPDFCheck.errors(in: saved) == nil)
    }

    /// With `bookmarks_in_outline`, a bookmark made with `b` and saved is in the outline the editor (and every other
    /// reader) shows, and following it goes to its page.
    @Test func aBookmarkSavedWithTheOutlineOnIsFollowedFromTheOutline() throws {
        let folder = TemporaryFolder()
        let document = folder.file("manual.pdf")
        try FileManager.default.copyItem(atPath: TestPaths.fixture("pypdf_GeoTopo-komprimiert.pdf"), toPath: document)
        try FileManager.default.createDirectory(atPath: folder.file("config/redline"), withIntermediateDirectories: true)
        try "bookmarks_in_outline = true\n".write(toFile: folder.file("config/redline/config.toml"), atomically: true, encoding: .utf8)
        let environment = ["XDG_CONFIG_HOME": folder.file("config"), "XDG_DATA_HOME": folder.file("data"), "XDG_STATE_HOME": folder.file("state")]
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)' --page 12", environment: environment)
        try tmux.waitFor("page 12/117 (9)")
        try tmux.send("b")
        try tmux.waitFor("★ bookmarked")
        try tmux.send(":", "w", "q", "Enter")
        try tmux.waitFor("REDLINE-EXIT=0")
        let saved = folder.file("manual-marked.pdf")
        let toc = try ProcessRunner.run(TestPaths.python, [TestPaths.tool("outline_tool.py"), "toc", saved])
        #expect(toc.stdout.contains(#"[1, "Bookmarks", 12], [2, "Page 9", 12]]"#), "\(toc.stdout.suffix(200)) \(toc.stderr)")

        let reopened = try TmuxSession(command: "'\(TestPaths.redline)' '\(saved)' --page 1", environment: environment)
        try reopened.waitFor("page 1/117")
        try reopened.send("o")
        try reopened.waitFor("Bookmarks")
        try reopened.send("G", "Enter")
        try reopened.waitFor("page 12/117 (9) ★ bookmarked")
    }
}
