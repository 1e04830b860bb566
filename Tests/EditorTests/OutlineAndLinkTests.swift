import Editor
import RedlineCore
import TerminalGrid
import Testing

/// `o` (the outline panel), `f` (link hints) and clicks on links, with the outline and links the runner reads
/// sent as it sends them.
@Suite struct OutlineAndLinkTests {
    static let outline = [
        OutlineEntry(title: "1 Basics", destination: Destination(pageIndex: 2, top: 100), children: [
            OutlineEntry(title: "1.1 Sets", destination: Destination(pageIndex: 3, top: 300)),
            OutlineEntry(title: "1.2 Maps", destination: Destination(pageIndex: 6, left: 50, top: 500)),
        ]),
        OutlineEntry(title: "2 Spaces", destination: Destination(pageIndex: 9), children: [
            OutlineEntry(title: "2.1 Metric", destination: Destination(pageIndex: 10)),
        ], isOpen: true),
        OutlineEntry(title: "Index", destination: nil),
    ]

    func editorWithOutline(pages: Int = 20) -> EditorHarness {
        var editor = EditorHarness(pages: pages, columns: 100, rows: 30)
        editor.send(.outlineRead(Self.outline))
        return editor
    }

    @Test func theOutlineIsATreeThatFoldsAndEnterGoesToTheEntrysPlace() {
        var editor = editorWithOutline()
        editor.press(.character("o"))
        var lines = editor.screen().lines
        #expect(lines.contains { $0.contains("▸ 1 Basics") && $0.contains("p3") })
        #expect(lines.contains { $0.contains("▾ 2 Spaces") }, "open in the file: shown unfolded")
        #expect(lines.contains { $0.contains("2.1 Metric") } && !lines.contains { $0.contains("1.1 Sets") })
        editor.press(.character("l"))
        lines = editor.screen().lines
        #expect(lines.contains { $0.contains("▾ 1 Basics") } && lines.contains { $0.contains("1.2 Maps") && $0.contains("p7") })
        editor.press(.character("j"), .character("j"), .enter)
        #expect(editor.state.pageIndex == 6)
        #expect(editor.state.cursor == Point(x: 50, y: 500), "the entry's place on its page, where the cursor goes")
        #expect(editor.state.interaction.outlinePanel != nil, "the panel stays for the next entry")
        #expect(editor.screen().lines.contains { $0.contains("● ") && $0.contains("1.2 Maps") }, "the entry page 7 is in")
        editor.press(.character("h"))
        #expect(editor.state.interaction.outlinePanel?.list.selected == [0], "h on a child goes to its parent")
        editor.press(.character("h"))
        #expect(!editor.screen().lines.contains { $0.contains("1.2 Maps") })
        #expect(editor.screen().lines.contains { $0.contains("●") && $0.contains("1 Basics") }, "a folded parent stands for it")
        editor.press(.control("o"))
        #expect(editor.state.pageIndex == 0, "an outline entry is a jump")
        editor.press(.escape)
        #expect(editor.state.interaction.panel == nil)
    }

    /// Closed and opened again, the outline shows the entries as the reviewer left them, not as the file marks them.
    @Test func theOutlineKeepsWhatWasUnfoldedWhenOpenedAgain() {
        var editor = editorWithOutline()
        editor.press(.character("o"), .character("l"))
        editor.press(.character("j"), .character("j"), .character("j"), .character("h"))
        var lines = editor.screen().lines
        #expect(lines.contains { $0.contains("▾ 1 Basics") } && lines.contains { $0.contains("▸ 2 Spaces") })
        editor.press(.escape)
        #expect(editor.state.interaction.panel == nil)
        editor.press(.character("o"))
        lines = editor.screen().lines
        #expect(lines.contains { $0.contains("▾ 1 Basics") } && lines.contains { $0.contains("1.1 Sets") })
        #expect(lines.contains { $0.contains("▸ 2 Spaces") } && !lines.contains { $0.contains("2.1 Metric") })
    }

    @Test func anEntryWithoutAPlaceSaysSoAndNoOutlineSaysSo() {
        var editor = editorWithOutline()
        editor.press(.character("o"), .character("G"), .enter)
        #expect(editor.state.message == "Index does not lead to a page" && editor.state.pageIndex == 0)
        var bare = EditorHarness(pages: 3, columns: 100, rows: 30)
        bare.press(.character("o"))
        #expect(bare.state.message == "The outline is still being read")
        bare.send(.outlineRead([]))
        bare.press(.character("o"))
        #expect(bare.state.message == "This document has no outline" && bare.state.interaction.panel == nil)
    }

    @Test func theOutlineOpensOnTheEntryOfTheCurrentPage() {
        var editor = editorWithOutline()
        editor.command("11")
        editor.press(.character("o"))
        #expect(editor.state.interaction.outlinePanel?.list.selected == [1, 0])
    }

    static let links = [
        PageLink(rect: Rect(x: 100, y: 100, width: 80, height: 12), target: .destination(Destination(pageIndex: 4, top: 400))),
        PageLink(rect: Rect(x: 100, y: 300, width: 80, height: 12), target: .uri("https://example.org/a?b=1")),
        PageLink(rect: Rect(x: 100, y: 500, width: 80, height: 12), target: .named("LastPage")),
        PageLink(rect: Rect(x: 100, y: 600, width: 80, height: 12), target: .unsupported("launching calc.exe")),
    ]

    func editorWithLinks() -> EditorHarness {
        var editor = EditorHarness(pages: 8, columns: 100, rows: 30)
        editor.send(.linksRead(pageIndex: 0, links: Self.links))
        return editor
    }

    @Test func fLabelsTheLinksAndALabelFollowsItsLink() {
        var editor = editorWithLinks()
        editor.press(.character("f"))
        let screen = editor.screen()
        let labels = ["a", "s", "d", "f"].filter { label in screen.lines.prefix(28).contains { $0.contains(label) } }
        #expect(labels.count == 4)
        #expect(screen.text(ofRow: 29).hasPrefix("Follow: "))
        editor.press(.character("a"))
        #expect(editor.state.pageIndex == 4 && editor.state.cursor.y == 400)
        #expect(editor.state.interaction.overlays.isEmpty)
        editor.press(.control("o"))
        #expect(editor.state.pageIndex == 0, "Ctrl-O comes back from a link")
    }

    @Test func aWebLinkIsShownAndCopiedAndOpenedOnlyWithAnOpenCommand() {
        var editor = editorWithLinks()
        let effects = editor.press(.character("f"), .character("s"))
        #expect(effects == [.copyToClipboard("https://example.org/a?b=1")])
        #expect(editor.state.message == "Link: https://example.org/a?b=1 (copied; open_command in config.toml opens links)")
        #expect(editor.state.pageIndex == 0)
        editor.state.chrome.opensLinks = true
        #expect(editor.press(.character("f"), .character("s")) == [.copyToClipboard("https://example.org/a?b=1"), .openURI("https://example.org/a?b=1")])
    }

    @Test func onlyWebAddressesGoToTheOpenCommand() {
        for address in ["file:///etc/passwd", "/usr/bin/xterm", "javascript:alert(1)", "-n http://x", "http://a b", "http://x\u{1B}[31m"] {
            var editor = EditorHarness(pages: 2, columns: 100, rows: 30)
            editor.send(.linksRead(pageIndex: 0, links: [PageLink(rect: Rect(x: 100, y: 100, width: 80, height: 12), target: .uri(address))]))
            editor.state.chrome.opensLinks = true
            let copied = address.replacingOccurrences(of: "\u{1B}", with: "")
            #expect(editor.press(.character("f"), .character("a")) == [.copyToClipboard(copied)], "\(address) is not opened")
            #expect(editor.state.message?.contains("only http, https and mailto addresses are opened") == true)
        }
    }

    /// A link whose address carries a line feed and ESC would put a command on the clipboard that a paste into a shell
    /// runs: what is copied has no control character.
    @Test func aCopiedAddressCarriesNoControlCharacter() {
        var editor = EditorHarness(pages: 2, columns: 100, rows: 30)
        let hostile = "https://example.org/\necho owned\u{1B}[201~\r\u{9B}31m\u{202E}x\t\u{7F}"
        editor.send(.linksRead(pageIndex: 0, links: [PageLink(rect: Rect(x: 100, y: 100, width: 80, height: 12), target: .uri(hostile))]))
        editor.state.chrome.opensLinks = true
        let effects = editor.press(.character("f"), .character("a"))
        #expect(effects.first == .copyToClipboard("https://example.org/echo owned[201~31mx"))
    }

    @Test func namedActionsAndLinksRedlineDoesNotFollow() {
        var editor = editorWithLinks()
        editor.press(.character("f"), .character("f"))
        #expect(editor.state.message == "The link leads to launching calc.exe: Redline does not follow it")
        editor.press(.character("f"), .character("d"))
        #expect(editor.state.pageIndex == 7)
    }

    @Test func aLabelNoLinkHasCancelsAndEscCancels() {
        var editor = editorWithLinks()
        editor.press(.character("f"), .character("x"))
        #expect(editor.state.message == "No link is labelled x" && editor.state.interaction.overlays.isEmpty)
        editor.press(.character("f"), .escape)
        #expect(editor.state.interaction.overlays.isEmpty && editor.state.pageIndex == 0)
        var none = EditorHarness(pages: 2, columns: 100, rows: 30)
        none.send(.linksRead(pageIndex: 0, links: []))
        none.press(.character("f"))
        #expect(none.state.message == "No links in view on this page")
    }

    @Test func manyLinksGetLabelsOfTwoLettersAllDifferent() {
        var editor = EditorHarness(pages: 2, columns: 100, rows: 30)
        let many = (0..<40).map { PageLink(rect: Rect(x: 50 + Double($0 % 4) * 120, y: 50 + Double($0 / 4) * 60, width: 100, height: 10),
                                          target: .destination(Destination(pageIndex: 1, top: Double($0)))) }
        editor.send(.linksRead(pageIndex: 0, links: many))
        editor.press(.character("f"))
        let labels = EditorReducerProbe.labels(editor)
        #expect(labels.count == 40 && Set(labels).count == 40 && labels.allSatisfy { $0.count == 2 })
        editor.press(.character(Character(String(labels[37].first!))), .character(Character(String(labels[37].last!))))
        #expect(editor.state.pageIndex == 1 && editor.state.cursor.y == 37)
    }

    @Test func aClickOnALinkFollowsIt() {
        var editor = editorWithLinks()
        let viewport = editor.state.viewport(cellPixels: editor.environment.cellPixels)
        let cell = viewport.cell(for: Point(x: 120, y: 105))
        let area = editor.state.layout.pageArea
        editor.send(.mouse(MouseEvent(.press, column: area.column + cell.column, row: area.row + cell.row)))
        #expect(editor.state.pageIndex == 4)
    }
}

/// The labels as the hint overlay makes them, read off the screen's "Follow" state through the reducer's API.
enum EditorReducerProbe {
    static func labels(_ editor: EditorHarness) -> [String] {
        EditorReducer.hintedLinks(editor.state, editor.environment).map(\.label)
    }
}
