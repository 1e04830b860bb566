import Foundation
import TestSupport
import Testing

/// What a terminal actually shows, in each colour mode: the pane's colours decoded from `capture-pane -e`
/// and judged as a reader would (is the page there, can the text be read, which row is selected).
@Suite(.serialized) struct ScreenColoursInTerminalTests {
    struct Mode: CustomTestStringConvertible, Sendable {
        let name: String
        let term: String
        let colorTerm: String
        var testDescription: String { name }
    }

    static let modes = [
        Mode(name: "truecolor", term: "xterm-256color", colorTerm: "truecolor"),
        Mode(name: "256 colours", term: "tmux-256color", colorTerm: ""),
        Mode(name: "16 colours (screen)", term: "screen", colorTerm: ""),
    ]
    static let columns = 120, rows = 40

    func open(_ document: String, _ mode: Mode, arguments: String = "") throws -> TmuxSession {
        let folder = TemporaryFolder()
        let copy = folder.file((document as NSString).lastPathComponent)
        try FileManager.default.copyItem(atPath: document, toPath: copy)
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(copy)' \(arguments)", columns: Self.columns,
                                   rows: Self.rows, environment: ["TERM": mode.term, "COLORTERM": mode.colorTerm])
        tmux.keep(folder)
        return tmux
    }

    func capture(_ tmux: TmuxSession) throws -> ScreenColours {
        try tmux.waitUntilIdle()
        return ScreenColours(capture: try tmux.screenWithColours(), columns: Self.columns)
    }

    /// The paper: the bounding box of light cells in the page area.
    func paper(_ screen: ScreenColours) -> (left: Int, top: Int, right: Int, bottom: Int)? {
        var box: (Int, Int, Int, Int)?
        for row in 0..<(Self.rows - 2) {
            for column in 0..<Self.columns where screen[column, row].background.luminance > 0.5 {
                box = box.map { (min($0.0, column), min($0.1, row), max($0.2, column), max($0.3, row)) } ?? (column, row, column, row)
            }
        }
        return box.map { (left: $0.0, top: $0.1, right: $0.2, bottom: $0.3) }
    }

    /// Whether poppler draws text within a cell of this one, the paper `box` standing for a US Letter page.
    static func popplerHasText(_ render: RenderedPage, _ box: (left: Int, top: Int, right: Int, bottom: Int), _ column: Int, _ row: Int) -> Bool {
        let (width, height) = (Double(box.right - box.left + 1), Double(box.bottom - box.top + 1))
        let x0 = Int(Double(column - box.left - 1) / width * 612), x1 = Int(Double(column - box.left + 2) / width * 612)
        let y0 = Int(Double(row - box.top - 1) / height * 792), y1 = Int(Double(row - box.top + 2) / height * 792)
        for y in max(0, y0)..<min(render.height, y1) {
            for x in max(0, x0)..<min(render.width, x1) where render.rgb(x, y).red < 128 { return true }
        }
        return false
    }

    @Test(arguments: modes) func thePageShowsItsTextWherePopplerDrawsIt(mode: Mode) throws {
        let document = TestPaths.fixture("white-and-black-pages.pdf")
        let tmux = try open(document, mode)
        try tmux.waitFor("page 1/2")
        let screen = try capture(tmux)
        let box = try #require(paper(screen), "no paper on screen in \(mode.name)")
        let render = try PopplerRender.page(1, of: document)
        let (width, height) = (Double(box.right - box.left + 1), Double(box.bottom - box.top + 1))
        #expect(abs(width / height - 612.0 / 792 * 2) < 0.3, "the paper has the page's shape (cells are twice as tall as wide)")

        func popplerHasText(_ column: Int, _ row: Int) -> Bool { Self.popplerHasText(render, box, column, row) }
        var dark: [(Int, Int)] = [], light = 0
        for row in box.top...box.bottom {
            // The outermost columns are the paper's edges, drawn half against the backdrop.
            for column in (box.left + 1)..<box.right {
                let ink = screen.ink(column, row)
                // The cursor is a coloured cell of Redline's own.
                if ink.saturation > 80 { continue }
                if ink.luminance < 0.2 { dark.append((column, row)) } else if ink.luminance > 0.6 { light += 1 }
            }
        }
        #expect(dark.count >= 60, "\(mode.name): only \(dark.count) dark cells on a page of twelve lines of text")
        #expect(light >= 500, "\(mode.name): only \(light) light cells of paper")
        let misplaced = dark.filter { !popplerHasText($0.0, $0.1) }
        #expect(misplaced.count * 20 <= dark.count,
                "\(mode.name): \(misplaced.count) of \(dark.count) dark cells where poppler draws no text: \(misplaced.prefix(10))")
    }

    /// `I`: where the paper was, dark cells; where poppler draws text, light ones; in the text view, light words on
    /// dark paper, readable.
    @Test(arguments: modes) func aDarkPageShowsLightTextWherePopplerDrawsIt(mode: Mode) throws {
        let document = TestPaths.fixture("white-and-black-pages.pdf")
        let tmux = try open(document, mode)
        try tmux.waitFor("page 1/2")
        let box = try #require(paper(try capture(tmux)), "no paper on screen in \(mode.name)")
        try tmux.send("I")
        try tmux.waitFor("Dark page")
        let screen = try capture(tmux)
        let render = try PopplerRender.page(1, of: document)
        func popplerHasText(_ column: Int, _ row: Int) -> Bool { Self.popplerHasText(render, box, column, row) }
        var light: [(Int, Int)] = [], dark = 0
        for row in box.top...box.bottom {
            for column in (box.left + 1)..<box.right {
                let cell = screen[column, row]
                // The lighter of the cell's two colours: what a light letter on dark paper shows; 0.2 is four times the paper.
                let shown = cell.character == " " || cell.foreground.luminance < cell.background.luminance ? cell.background : cell.foreground
                if shown.saturation > 80 { continue }
                if shown.luminance > 0.2 { light.append((column, row)) } else if cell.background.luminance < 0.05 { dark += 1 }
            }
        }
        #expect(dark >= 500, "\(mode.name): only \(dark) dark cells where the paper was")
        #expect(light.count >= 60, "\(mode.name): only \(light.count) light cells on a page of twelve lines of text")
        let misplaced = light.filter { !popplerHasText($0.0, $0.1) }
        #expect(misplaced.count * 20 <= light.count,
                "\(mode.name): \(misplaced.count) of \(light.count) light cells where poppler draws no text: \(misplaced.prefix(10))")

        try tmux.send("T")
        try tmux.waitFor("text view")
        let text = try capture(tmux)
        let letters = text.textCells(rows: 0..<(Self.rows - 2))
        #expect(letters.count >= 100, "\(mode.name): \(letters.count) letters in the text view")
        let unreadable = letters.filter { $0.cell.background.luminance > 0.3 || $0.cell.foreground.contrast(with: $0.cell.background) < 4.5 }
        #expect(unreadable.isEmpty, "\(mode.name): \(unreadable.prefix(5).map { "\($0.cell.foreground) on \($0.cell.background)" })")
    }

    /// In the text view, words under a highlight sit on a colour of their own, even a pale one in eight colours
    /// (where it turned the paper's white), and stay readable on it: a pale yellow, red, blue and green highlight
    /// on four lines of the sample.
    @Test(arguments: modes) func paleHighlightsShowInTheTextViewInEveryMode(mode: Mode) throws {
        let folder = TemporaryFolder()
        let xfdf = folder.file("pale.xfdf"), highlighted = folder.file("highlighted.pdf")
        // The lines' PDF boxes (poppler's bounding boxes of their first words), each with its pale colour.
        let lines: [(words: String, bottom: Int, colour: String)] = [("This document comes", 657, "#FFFF84"), ("Press t to type", 641, "#FFC8C8"),
                                                                  ("change its size", 625, "#C8C8FF"), ("Page 2 holds", 593, "#C8FFC8")]
        let elements = lines.enumerated().map { index, line in
            let (b, t) = (line.bottom, line.bottom + 12)
            return "<highlight page=\"0\" rect=\"70,\(b),200,\(t)\" name=\"H\(index)\" color=\"\(line.colour)\" coords=\"70,\(t),200,\(t),70,\(b),200,\(b)\"/>"
        }
        try ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xfdf xmlns=\"http://ns.adobe.com/xfdf/\"><annots>\n" + elements.joined(separator: "\n")
             + "\n</annots></xfdf>\n").write(toFile: xfdf, atomically: true, encoding: .utf8)
        let imported = try ProcessRunner.run(TestPaths.redline, ["xfdf", "import", TestPaths.sample, xfdf, "--output", highlighted])
        try #require(imported.status == 0, "\(imported.stderr)")
        let tmux = try open(highlighted, mode, arguments: "--graphics symbols")
        try tmux.waitFor("page 1/")
        try tmux.send("T")
        try tmux.waitFor("This document comes")
        let screen = try capture(tmux)
        let text = screen.rows.map { String($0.map(\.character)) }
        for line in lines {
            let row = try #require(text.firstIndex { $0.contains(line.words) }, "\(mode.name): \(line.words) not on screen")
            let column = text[row].distance(from: text[row].startIndex, to: text[row].range(of: line.words)!.lowerBound)
            let word = screen[column, row]
            // The paper: the same row past the highlight's end, a cell without a word.
            let paper = try #require((column + 40..<Self.columns).map { screen[$0, row] }.first { $0.character == " " && $0.background.luminance > 0.5 })
            #expect(word.background != paper.background, "\(mode.name) \(line.colour): the highlight is the paper's \(paper.background)")
            #expect(word.foreground.contrast(with: word.background) >= 4.5,
                    "\(mode.name) \(line.colour): \(word.foreground) on \(word.background)")
        }
    }

    /// Every letter and digit Redline writes, on every kind of screen, against WCAG's 4.5:1.
    @Test(arguments: modes) func everyTextRedlineDrawsIsReadable(mode: Mode) throws {
        let tmux = try open(TestPaths.fixture("pdfcpu_text_annotations.pdf"), mode)
        try tmux.waitFor("page 1/1")
        var screens: [(String, ScreenColours)] = [("page and status line", try capture(tmux))]
        try tmux.send("a")
        try tmux.waitFor("Annotations ·")
        try tmux.send("j")
        screens.append(("annotation panel", try capture(tmux)))
        try tmux.send("Enter")
        screens.append(("annotation thread", try capture(tmux)))
        try tmux.send("Escape", "Escape")
        try tmux.send("F1")
        try tmux.waitFor("Redline keys")
        screens.append(("help", try capture(tmux)))
        try tmux.send("Escape", "b", "B")
        try tmux.waitFor("Bookmarks ·")
        screens.append(("bookmark panel", try capture(tmux)))
        try tmux.send("Escape", "t")
        try tmux.type("Checked")
        try tmux.send("Enter", "q")
        try tmux.waitFor("Unsaved changes")
        screens.append(("question", try capture(tmux)))
        for (name, screen) in screens {
            let cells = screen.textCells()
            #expect(cells.count > 20, "\(mode.name) \(name): hardly any text")
            let unreadable = cells.filter { $0.cell.foreground.contrast(with: $0.cell.background) < 4.5 }
            #expect(unreadable.isEmpty, """
                \(mode.name) \(name): \(unreadable.count) text cells below 4.5:1, e.g. \
                \(unreadable.prefix(5).map { "'\($0.cell.character)' at \($0.column),\($0.row): \($0.cell.foreground) on \($0.cell.background)" })
                """)
        }
    }

    /// The row keys act on must stand out from the rest of its panel.
    @Test(arguments: modes) func theSelectedRowOfEachPanelStandsOut(mode: Mode) throws {
        let tmux = try open(TestPaths.fixture("pdfcpu_text_annotations.pdf"), mode)
        try tmux.waitFor("page 1/1")
        try tmux.send("a")
        try tmux.waitFor("Annotations ·")
        try tmux.send("j", "j")
        try check(try capture(tmux), panelTitle: "Annotations ·", mode: mode)
        // Two bookmarks in a four-page document: one selected, one not.
        let bookmarks = try open(TestPaths.sample, mode)
        try bookmarks.waitFor("page 1/4")
        try bookmarks.send("b", "NPage")
        try bookmarks.waitFor("page 2/4")
        try bookmarks.send("b", "B")
        try bookmarks.waitFor("Bookmarks ·")
        try check(try capture(bookmarks), panelTitle: "Bookmarks ·", mode: mode)
    }

    func check(_ screen: ScreenColours, panelTitle: String, mode: Mode) throws {
        let titleRow = try #require(screen.rows.firstIndex { String($0.map(\.character)).contains(panelTitle) })
        let titleColumn = try #require(String(screen.rows[titleRow].map(\.character)).range(of: panelTitle)).lowerBound
        let column = String(screen.rows[titleRow].map(\.character)).distance(
            from: String(screen.rows[titleRow].map(\.character)).startIndex, to: titleColumn)
        // Each panel row's background, where it has text.
        var backgrounds: [Int: ScreenColours.RGB] = [:]
        for (_, row, _) in screen.textCells(rows: (titleRow + 1)..<(Self.rows - 2)) {
            backgrounds[row] = screen[column, row].background
        }
        // The panel's own background is the title's.
        let usual = screen[column, titleRow].background
        let selected = backgrounds.filter { $0.value != usual }
        #expect(backgrounds.count > selected.count, "\(mode.name) \(panelTitle): every row looks selected")
        #expect(!selected.isEmpty, "\(mode.name) \(panelTitle): no row stands out: \(backgrounds.sorted { $0.key < $1.key }) column \(column)")
        for (row, background) in selected {
            #expect(background.contrast(with: usual) >= 3,
                    "\(mode.name) \(panelTitle): row \(row) is \(background) against \(usual)")
        }
    }

    /// The cursor marks where markup goes: it must be seen on white paper and on black.
    @Test(arguments: modes) func theCursorIsVisibleOnWhiteAndOnBlackPaper(mode: Mode) throws {
        let tmux = try open(TestPaths.fixture("white-and-black-pages.pdf"), mode)
        try tmux.waitFor("page 1/2")
        try checkCursor(try capture(tmux), paper: "white", mode: mode)
        try tmux.send("NPage")
        try tmux.waitFor("page 2/2")
        try checkCursor(try capture(tmux), paper: "black", mode: mode)
    }

    func checkCursor(_ screen: ScreenColours, paper: String, mode: Mode) throws {
        var cursor: (Int, Int)?
        for row in 0..<(Self.rows - 2) {
            for column in 0..<Self.columns where screen[column, row].character == "+" { cursor = (column, row) }
        }
        let (column, row) = try #require(cursor, "\(mode.name): no cursor on \(paper) paper")
        let cell = screen[column, row]
        // The paper around it: the cells two to the right and two below.
        let around = [screen[column + 2, row].background, screen[column, row + 2].background, screen[column + 3, row + 3].background]
        for surrounding in around {
            #expect(cell.background.contrast(with: surrounding) >= 3,
                    "\(mode.name): cursor \(cell.background) beside \(paper) paper \(surrounding)")
        }
        #expect(cell.foreground.contrast(with: cell.background) >= 4.5, "\(mode.name): the cursor's mark is faint")
    }
}
