import Foundation
import TestSupport
import Testing

/// `/`, `n` and Ctrl-O on the real binary, in a 117-page book (pdflatex, German): the page landed on is the one
/// pdftotext finds the phrase on, and the hit is tinted on screen.
@Suite(.serialized) struct SearchInTerminalTests {
    static let book = TestPaths.fixture("pypdf_GeoTopo-komprimiert.pdf")
    static let columns = 120, rows = 40

    func openBook() throws -> TmuxSession {
        let folder = TemporaryFolder()
        let document = folder.file("book.pdf")
        try FileManager.default.copyItem(atPath: Self.book, toPath: document)
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", columns: Self.columns, rows: Self.rows,
                                   environment: ["COLORTERM": "truecolor", "XDG_STATE_HOME": folder.file("state")])
        tmux.keep(folder)
        try tmux.waitFor("page 1/117")
        return tmux
    }

    /// Cells tinted as the current hit is: orange, whatever the page's text colour was.
    func orangeCells(_ tmux: TmuxSession) throws -> Int {
        try tmux.waitUntilIdle()
        let screen = ScreenColours(capture: try tmux.screenWithColours(), columns: Self.columns)
        return screen.rows.prefix(Self.rows - 2).flatMap { $0 }.filter { cell in
            [cell.foreground, cell.background].contains { $0.red > 200 && (90...190).contains($0.green) && $0.blue < 90 }
        }.count
    }

    @Test func aPhraseDeepInTheBookIsFoundOnThePagePdftotextFindsItOn() throws {
        let phrase = "Tori können"
        let pages = try (1...117).filter { try PopplerText.text(in: Self.book, page: $0).contains(phrase) }
        #expect(pages == [40], "the independent reader finds the phrase on page 40 only")
        let tmux = try openBook()
        #expect(try orangeCells(tmux) == 0)
        try tmux.send("/")
        try tmux.type(phrase)
        try tmux.send("Enter")
        try tmux.waitFor("page 40/117")
        try tmux.waitFor("hit 1 of 1")
        #expect(try orangeCells(tmux) > 0, "the hit is tinted on the page")
        try tmux.send("C-o")
        try tmux.waitFor("page 1/117")
        #expect(try orangeCells(tmux) == 0, "no hit on page 1")
        try tmux.send("n")
        try tmux.waitFor("page 40/117")
        try tmux.send("Escape")
        try tmux.waitUntilIdle()
        #expect(try orangeCells(tmux) == 0, "Esc hides the hits")
        try tmux.send("/")
        try tmux.type("Nirgendwo zu finden")
        try tmux.send("Enter")
        try tmux.waitFor("Not found: \"Nirgendwo zu finden\"")
        #expect(try tmux.screen().contains("page 40/117"), "nothing moves")
    }

    @Test func nWalksTheHitsInPageOrderAndTheCountIsPdftotexts() throws {
        let word = "Homotopie"
        let pages = try (1...117).map { try PopplerText.text(in: Self.book, page: $0).components(separatedBy: word).count - 1 }
        let expected = pages.reduce(0, +)
        let firstPages = pages.enumerated().filter { $0.element > 0 }.map { $0.offset + 1 }
        let tmux = try openBook()
        try tmux.send("/")
        try tmux.type(word)
        try tmux.send("Enter")
        try tmux.waitFor("hit 1 of \(expected)")
        #expect(try tmux.screen().contains("page \(firstPages[0])/117"))
        try tmux.send("n")
        let second = firstPages[pages[firstPages[0] - 1] > 1 ? 0 : 1]
        try tmux.waitFor("hit 2 of \(expected)")
        #expect(try tmux.screen().contains("page \(second)/117"))
        try tmux.send("N", "N")
        try tmux.waitFor("hit \(expected) of \(expected)")
        #expect(try tmux.screen().contains("page \(firstPages.last!)/117"), "N before the first goes round to the last")
    }
}
