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
}
