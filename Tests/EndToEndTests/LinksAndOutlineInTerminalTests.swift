import Foundation
import TestSupport
import Testing

/// Links and the outline on the real binary, in a pdflatex book with 509 links and an 11-chapter outline; where
/// they lead is what pikepdf reads from the file (Tests/Tools/link_probe.py).
@Suite(.serialized) struct LinksAndOutlineInTerminalTests {
    static let book = TestPaths.fixture("pypdf_GeoTopo-komprimiert.pdf")

    struct Probe: Decodable {
        struct Link: Decodable { let page: Int; let rect: [Double]; let uri: String?; let targetPage: Int? }
        struct Entry: Decodable { let title: String; let targetPage: Int?; let children: [Entry] }
        let links: [Link]
        let outline: [Entry]
    }

    func probe() throws -> Probe {
        let result = try ProcessRunner.run(TestPaths.python, [TestPaths.tool("link_probe.py"), Self.book])
        return try JSONDecoder().decode(Probe.self, from: Data(result.stdout.utf8))
    }

    func openBook(_ command: RedlineCommand = try! RedlineCommand()) throws -> TmuxSession {
        let document = command.folder.file("book.pdf")
        try FileManager.default.copyItem(atPath: Self.book, toPath: document)
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", environment: command.environment)
        tmux.keep(command.folder)
        try tmux.waitFor("page 1/117")
        return tmux
    }

    @Test func aLinkFollowedByItsLabelAndBackWithCtrlO() throws {
        // The contents on page 4: the first link in reading order gets the first label, "aa".
        let links = try probe().links.filter { $0.page == 3 }
        let first = try #require(links.min { ($0.rect[1], $0.rect[0]) < ($1.rect[1], $1.rect[0]) })
        let target = try #require(first.targetPage)
        let tmux = try openBook()
        try tmux.send("4", "G")
        try tmux.waitFor("page 4/117")
        try tmux.send("f")
        try tmux.waitFor("Follow:")
        #expect(try tmux.screen().contains("aa"), "labels are on the page")
        try tmux.send("a", "a")
        try tmux.waitFor("page \(target + 1)/117")
        try tmux.send("C-o")
        try tmux.waitFor("page 4/117")
    }

    @Test func aWebLinkReachesTheClipboardThroughOSC52AndTheOpenCommand() throws {
        // Page 2 carries one link, to the book's web page.
        let uri = try #require(try probe().links.first { $0.page == 1 }?.uri)
        let command = try RedlineCommand()
        let opened = command.folder.file("opened.txt")
        let opener = command.folder.file("open-link")
        try "#!/bin/sh\nprintf '%s' \"$1\" > '\(opened)'\n".write(toFile: opener, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: opener)
        try command.writeConfig("open_command = [\"\(opener)\"]\n")
        let tmux = try openBook(command)
        try ProcessRunner.run("tmux", ["-L", tmux.socket, "set", "-g", "set-clipboard", "on"])
        try tmux.send("PageDown")
        try tmux.waitFor("page 2/117")
        try tmux.send("f", "a")
        try tmux.waitFor("Opening \(uri)")
        let buffer = try ProcessRunner.run("tmux", ["-L", tmux.socket, "show-buffer"]).stdout
        #expect(buffer == uri, "tmux took the OSC 52 copy as a paste buffer")
        for _ in 0..<50 where !FileManager.default.fileExists(atPath: opened) { Thread.sleep(forTimeInterval: 0.1) }
        #expect((try? String(contentsOfFile: opened, encoding: .utf8)) == uri, "the open command got the address as its argument")
    }

    @Test func withoutAnOpenCommandALinkIsOnlyShownAndCopied() throws {
        let uri = try #require(try probe().links.first { $0.page == 1 }?.uri)
        let tmux = try openBook()
        try tmux.send("PageDown")
        try tmux.waitFor("page 2/117")
        try tmux.send("f", "a")
        try tmux.waitFor("Link: \(uri) (copied")
    }

    @Test func theOutlineLeadsToTheChaptersPikepdfReads() throws {
        let outline = try probe().outline
        let third = try #require(outline.count > 2 ? outline[2] : nil)
        let subsection = try #require(third.children.count > 1 ? third.children[1] : nil)
        let tmux = try openBook()
        try tmux.send("o")
        try tmux.waitFor("Outline")
        #expect(try tmux.screen().contains(third.title))
        try tmux.send("j", "j", "Enter")
        try tmux.waitFor("page \(try #require(third.targetPage) + 1)/117")
        try tmux.send("l", "j", "j", "Enter")
        try tmux.waitFor(subsection.title)
        try tmux.waitFor("page \(try #require(subsection.targetPage) + 1)/117")
        try tmux.send("C-o", "C-o")
        try tmux.waitFor("page 1/117")
    }
}
