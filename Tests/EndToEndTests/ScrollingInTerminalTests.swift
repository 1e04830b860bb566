import Foundation
import TestSupport
import Testing

/// Reading a page at 400% in the real terminal. The fixture's two black bands (a vertical one at
/// x 100–112 pt, a horizontal one 300–312 pt from the top) show which part of the page is in view: after
/// each key they must have moved across the screen as a reader of zathura or mupdf expects.
@Suite(.serialized) struct ScrollingInTerminalTests {
    static let columns = 120, rows = 40

    struct Bands {
        /// Screen row and column where the bands start, if in view.
        var row: Double?
        var column: Double?
        var page: String
    }

    func bands(_ tmux: TmuxSession) throws -> Bands {
        try tmux.waitUntilIdle()
        let screen = ScreenColours(capture: try tmux.screenWithColours(), columns: Self.columns)
        let area = 0..<(Self.rows - 2)
        // Cells the capture left out (cleared to the line's end with one erase) are not counted, and the bands
        // are found by their first row and column, which are always drawn as characters.
        func dark(_ column: Int, _ row: Int) -> Bool { !screen[column, row].guessed && screen.ink(column, row).luminance < 0.1 }
        // A row of the horizontal band is dark almost all across; a column of the vertical band all down.
        let bandRows = area.filter { row in (0..<Self.columns).filter { dark($0, row) }.count > Self.columns * 3 / 4 }
        let bandColumns = (0..<Self.columns).filter { column in area.filter { dark(column, $0) }.count > area.count * 3 / 4 }
        func first(_ values: [Int]) -> Double? { values.first.map(Double.init) }
        let status = String(screen.rows[Self.rows - 2].map(\.character))
        let page = status.range(of: #"page \d+/\d+"#, options: .regularExpression).map { String(status[$0]) } ?? "?"
        return Bands(row: first(bandRows), column: first(bandColumns), page: page)
    }

    func zoomedDocument() throws -> TmuxSession {
        let folder = TemporaryFolder()
        let document = folder.file("bands.pdf")
        try FileManager.default.copyItem(atPath: TestPaths.fixture("banded-pages.pdf"), toPath: document)
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", columns: Self.columns, rows: Self.rows,
                                   environment: ["COLORTERM": "truecolor"])
        tmux.keep(folder)
        try tmux.waitFor("page 1/2")
        for _ in 0..<5 { try tmux.send("z") }
        try tmux.waitFor("zoom 400%")
        return tmux
    }

    @Test func jAndKScrollWithinThePageAndHAndLSideways() throws {
        let tmux = try zoomedDocument()
        // 400% of a page that fits 38 rows is 152 rows tall: the band, 300 pt down, is below the screen.
        let start = try bands(tmux)
        #expect(start.row == nil && start.page == "page 1/2", "\(start)")
        let startColumn = try #require(start.column, "the vertical band is in view at the left")
        for _ in 0..<8 { try tmux.send("j") }
        let scrolled = try bands(tmux)
        #expect(scrolled.page == "page 1/2", "j stays on the page while it can scroll")
        let row = try #require(scrolled.row, "eight j (24 rows) bring the band into view")
        try tmux.send("j")
        let further = try #require(try bands(tmux).row)
        #expect(abs((row - further) - 3) <= 1, "j scrolls three rows: the band went from \(row) to \(further)")
        try tmux.send("k")
        #expect(abs(try #require(try bands(tmux).row) - row) <= 1, "k scrolls back")
        try tmux.send("Down")
        #expect(abs((row - (try #require(try bands(tmux).row))) - 3) <= 1, "Down scrolls like j when nothing is selected")
        try tmux.send("Up")
        try tmux.send("l")
        let sideways = try bands(tmux)
        let column = try #require(sideways.column)
        #expect(abs((startColumn - column) - 6) <= 1, "l scrolls six columns: the band went from \(startColumn) to \(column)")
        try tmux.send("h")
        #expect(abs(try #require(try bands(tmux).column) - startColumn) <= 1, "h scrolls back")
    }

    @Test func spaceScrollsAScreenAndGoesOnToTheNextPageAtTheFoot() throws {
        let tmux = try zoomedDocument()
        try tmux.send("l", "l")
        let column = try #require(try bands(tmux).column)
        // 152 rows at 37 a screen: the band (rows ~57–60 of the page) shows after the first Space.
        try tmux.send("Space")
        let first = try bands(tmux)
        let row = try #require(first.row, "\(first)")
        #expect(first.page == "page 1/2")
        #expect(abs((57.5 - 37) - row) <= 2, "one screen less a row down, the band is at row \(row)")
        // Three more screens reach the foot; the next Space is the next page, at its top.
        for _ in 0..<3 { try tmux.send("Space") }
        #expect(try bands(tmux).page == "page 1/2")
        try tmux.send("Space")
        let next = try bands(tmux)
        #expect(next.page == "page 2/2" && next.row == nil, "\(next)")
        #expect(abs(try #require(next.column) - column) <= 1, "the next page keeps the horizontal position")
        // Backspace at the top goes back to the previous page's foot.
        try tmux.send("BSpace")
        let back = try bands(tmux)
        #expect(back.page == "page 1/2" && back.row == nil, "\(back)")
    }

    @Test func pagingKeysKeepTheHorizontalPosition() throws {
        let tmux = try zoomedDocument()
        try tmux.send("l", "l", "l")
        let column = try #require(try bands(tmux).column)
        try tmux.send("NPage")
        try tmux.waitFor("page 2/2")
        #expect(abs(try #require(try bands(tmux).column) - column) <= 1)
        try tmux.send("PPage")
        try tmux.waitFor("page 1/2")
        #expect(abs(try #require(try bands(tmux).column) - column) <= 1)
    }
}
