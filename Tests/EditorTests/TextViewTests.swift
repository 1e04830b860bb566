import Editor
import Foundation
import RedlineCore
import TerminalGrid
import Testing

/// The text view (`T`): the page's words in cells at their places, with the cursor, markup, search hits and the
/// selection working as over the picture.
@Suite struct TextViewTests {
    /// Two paragraphs of a letter page in 10 pt text: 5 pt a character (spaces included), a line every 12 pt.
    static func words() -> [PageWord] {
        let lines = [
            (72.0, "The quick brown fox jumps over the lazy dog again"),
            (84.0, "and once more the quick brown fox jumps over it"),
            (96.0, "while the dog sleeps in the warm afternoon sun"),
            (300.0, "A second paragraph starts lower on the page here"),
            (312.0, "and it ends on this line with the word Approved"),
        ]
        var words: [PageWord] = []
        for (number, (top, text)) in lines.enumerated() {
            var x = 72.0
            for word in text.split(separator: " ") {
                let width = Double(word.count) * 5
                words.append(PageWord(text: String(word), box: Rect(x: x, y: top, width: width, height: 10), line: number, block: 0))
                x += width + 5
            }
        }
        TextBlocks.assign(&words)
        return words
    }

    static func editorInTextView(words: [PageWord] = words(), columns: Int = 100, rows: Int = 40) -> EditorHarness {
        var editor = EditorHarness(pages: 3, columns: columns, rows: rows)
        editor.send(.wordsRead(pageIndex: 0, words: words))
        editor.press(.character("T"))
        return editor
    }

    /// A page kept from poppler (too costly to draw) has its words unread, not absent: the text view says it is not
    /// drawn, with why, never that the page has no text.
    @Test func aPageNotDrawnIsSaidAsSuchNotAsAPageWithoutText() {
        var editor = EditorHarness(pages: 3, columns: 120, rows: 40)
        editor.send(.pageNotDrawn(pageIndex: 0, reason: "it would take more than 20 million drawing steps"))
        editor.send(.wordsRead(pageIndex: 0, words: []))
        editor.press(.character("T"))
        #expect(editor.state.message == "Page 1 is not drawn or read: it would take more than 20 million drawing steps")
        let status = editor.screen().lines[38]
        #expect(status.contains("text view") && status.contains("not drawn") && !status.contains("no text"), "\(status)")
        editor.press(.pageDown)
        editor.send(.wordsRead(pageIndex: 1, words: []))
        #expect(editor.state.message?.contains("Page 2 has no text to show") == true, "a page read and empty is said as before")
    }

    /// Where a display-space point shows on screen.
    static func screenCell(_ editor: EditorHarness, _ point: Point) -> (column: Int, row: Int) {
        editor.state.viewport(cellPixels: editor.environment.cellPixels).cell(for: point)
    }

    /// A link's box often reaches up into the line above (poppler's boxes are taller than the words): in the text
    /// view its `f` label is on its words' row, over the word's first letter, not on the line above.
    @Test func aLinkLabelSitsOnItsWordsRow() throws {
        var editor = Self.editorInTextView()
        let word = try #require(Self.words().first { $0.text == "Approved" })
        let link = PageLink(rect: Rect(x: word.box.minX, y: word.box.minY - 9, width: word.box.width, height: word.box.height + 10),
                            target: .uri("https://example.org/approved"))
        editor.send(.linksRead(pageIndex: 0, links: [link]))
        editor.press(.character("f"))
        let screen = editor.screen()
        let cell = Self.screenCell(editor, Point(x: word.box.minX + 1, y: word.box.center.y))
        let top = Self.screenCell(editor, Point(x: word.box.minX + 1, y: link.rect.minY)).row
        #expect(top < cell.row, "the link's top is on the row above: the case at hand")
        let row = screen.text(ofRow: cell.row)
        #expect(screen[cell.column, cell.row].style == Theme.linkHint, "the label on the word's row: \(row)")
        #expect(screen[cell.column, top].style != Theme.linkHint, "not on the line above: \(screen.text(ofRow: top))")
    }

    @Test func everyWordIsReadableAtItsPlaceOnThePage() throws {
        let editor = Self.editorInTextView()
        let screen = editor.screen()
        #expect(editor.state.showsTextView)
        #expect(screen.text(ofRow: 38).contains("text view"), "the status line says which view shows")
        // A character a cell: each line of the page reads as one row, its words one blank apart.
        for (line, text) in ["The quick brown fox jumps over the lazy dog again", "while the dog sleeps in the warm afternoon sun",
                             "and it ends on this line with the word Approved"].enumerated() {
            let word = Self.words().first { $0.text == text.split(separator: " ").first.map(String.init) && $0.line == [0, 2, 4][line] }!
            let cell = Self.screenCell(editor, Point(x: word.box.minX + 1, y: word.box.center.y))
            let row = screen.text(ofRow: cell.row)
            let start = row.index(row.startIndex, offsetBy: cell.column)
            #expect(row[start...].hasPrefix(text), "row \(cell.row): \(row)")
        }
        // The gap between the paragraphs stays a gap.
        let above = Self.screenCell(editor, Point(x: 72, y: 101)).row, below = Self.screenCell(editor, Point(x: 72, y: 305)).row
        #expect(below - above > 10)
        #expect(((above + 1)..<below).allSatisfy { screen.text(ofRow: $0).trimmingCharacters(in: .whitespaces).isEmpty })
        // The page is paper: black on white, whatever the terminal's own colours.
        let fox = Self.screenCell(editor, Point(x: 92, y: 77))
        #expect(screen[fox.column, fox.row].style.foreground == .black && screen[fox.column, fox.row].style.background == .brightWhite)
    }

    @Test func theArrowsMoveTheCursorByACharacterAndALine() throws {
        var editor = Self.editorInTextView()
        let start = editor.state.cursor
        let before = Self.screenCell(editor, start)
        editor.press(.right, .right, .down)
        let after = Self.screenCell(editor, editor.state.cursor)
        #expect(after.column == before.column + 2 && after.row == before.row + 1)
        #expect(abs(editor.state.cursor.x - start.x - 10) < 0.01 && abs(editor.state.cursor.y - start.y - 12) < 0.01,
                "a cell is the page's character (5 pt) by its line (12 pt)")
    }

    @Test func textTypedBesideAWordIsShownAndSavedBesideIt() throws {
        var editor = Self.editorInTextView()
        // The cursor onto the row of "Approved", one blank after it, as a user would with the arrows.
        let approved = try #require(Self.words().first { $0.text == "Approved" })
        let target = Self.screenCell(editor, Point(x: approved.box.maxX + 5, y: approved.box.center.y))
        var cursor = Self.screenCell(editor, editor.state.cursor)
        while cursor.row < target.row { editor.press(.down); cursor = Self.screenCell(editor, editor.state.cursor) }
        while cursor.column < target.column { editor.press(.right); cursor = Self.screenCell(editor, editor.state.cursor) }
        editor.placeText("OK")
        let row = editor.screen().text(ofRow: target.row)
        #expect(row.contains("word Approved OK"), "\(row)")
        let text = try #require(editor.state.markup.items(onPage: 0).compactMap { if case .text(let text) = $0.content { text } else { nil } }.first)
        #expect(abs(text.origin.x - (approved.box.maxX + 5)) <= 5, "beside the word on the page too: \(text.origin)")
        #expect(text.origin.y >= approved.box.minY - 12 && text.origin.y <= approved.box.maxY)
    }

    /// `/dog` Enter, its hits on page 1 found: the two "dog"s of `words()`.
    static func searchForDog(_ editor: inout EditorHarness) throws -> [PageWord] {
        editor.press(.character("/"))
        editor.type("dog")
        let request = try #require(editor.press(.enter).compactMap { if case .search(let request) = $0 { request } else { nil } }.first)
        let dogs = words().filter { $0.text == "dog" }
        editor.send(.searchProgressed(id: request.id, pages: [SearchedPage(pageIndex: 0, hits: dogs.map { SearchHit(pageIndex: 0, boxes: [$0.box]) }),
                                                             SearchedPage(pageIndex: 1, hits: []), SearchedPage(pageIndex: 2, hits: [])],
                                      finished: true))
        return dogs
    }

    @Test func searchHitsAndSelectedWordsAreTintedOverTheirWords() throws {
        var editor = Self.editorInTextView()
        let dogs = try Self.searchForDog(&editor)
        let screen = editor.screen()
        for (index, dog) in dogs.enumerated() {
            let cell = Self.screenCell(editor, Point(x: dog.box.minX + 1, y: dog.box.center.y))
            let style = screen[cell.column + 1, cell.row].style
            #expect(screen[cell.column + 1, cell.row].character == "o")
            #expect(style.background == (index == 0 ? .blue : .brightYellow), "hit \(index): \(style)")
        }
        // Words selected with v are tinted as they grow.
        editor.press(.escape)
        editor.state.cursor = Point(x: 74, y: 85)
        editor.press(.character("v"), .character("w"))
        let selected = editor.screen()
        let and = Self.screenCell(editor, Point(x: 74, y: 85))
        // The cursor stands on the selection's head, "once": its other letters and the blank before it are tinted.
        #expect([0, 1, 2, 3, 5, 6, 7].allSatisfy { selected[and.column + $0, and.row].style.background == .cyan })
        #expect(selected[and.column + 4, and.row].style == Theme.cursor && selected[and.column + 4, and.row].character == "o")
        #expect(selected[and.column + 9, and.row].style.background == .brightWhite, "'more' is not selected")
    }

    @Test func inkShowsOnTheCellsItCrosses() throws {
        var editor = Self.editorInTextView()
        editor.state.cursor = Point(x: 72, y: 77)
        // A pen stroke along the first line, 50 pt: ten cells.
        editor.press(.character("i"), .character(" "))
        for _ in 0..<5 { editor.press(.shiftRight) }
        editor.press(.escape)
        let screen = editor.screen()
        let start = Self.screenCell(editor, Point(x: 72, y: 77))
        let crossed = (start.column..<start.column + 10).filter { screen[$0, start.row].style.background != .brightWhite }
        #expect(crossed.count >= 9, "\(crossed)")
        #expect(screen[start.column + 1, start.row].character == "h", "the word stays readable under the stroke")
    }

    /// The text view has no picture for poppler to draw the file's annotations into: it draws them itself, a text
    /// box's words where it starts and an ink over the cells it crosses, in a plain session and in a shared one
    /// whose file (a document fetched from the server) holds the shared annotations.
    @Test(arguments: [false, true])
    func theFilesAnnotationsAreDrawnInTheTextView(shared: Bool) throws {
        let box = Annotation(id: "box", pageIndex: 0, subtype: .freeText, rect: Rect(x: 300, y: 150, width: 60, height: 14), author: "Eve",
                             contents: "Reviewed", flags: 4, order: 0, drawing: AnnotationDrawing(color: RGBColor(red: 0, green: 0, blue: 1), fontSize: 10))
        var stroke = AnnotationDrawing(color: RGBColor(red: 1, green: 0, blue: 0), lineWidth: 2)
        stroke.inkList = [[Point(x: 72, y: 77), Point(x: 122, y: 77)]]
        let ink = Annotation(id: "ink", pageIndex: 0, subtype: .ink, rect: Rect(x: 71, y: 76, width: 52, height: 2), author: "Eve",
                             contents: nil, flags: 4, order: 1, drawing: stroke)
        var editor = EditorHarness(pages: 3, columns: 100, rows: 40, annotations: [box, ink])
        if shared { EditorReducer.startSharing(&editor.state, document: "doc") }
        editor.send(.wordsRead(pageIndex: 0, words: Self.words()))
        editor.press(.character("T"))
        let screen = editor.screen()
        let start = Self.screenCell(editor, Point(x: 301, y: 151))
        #expect(screen.text(ofRow: start.row).contains("Reviewed"), "\(screen.text(ofRow: start.row))")
        let line = Self.screenCell(editor, Point(x: 72, y: 77))
        let crossed = (line.column..<line.column + 10).filter { screen[$0, line.row].style.background != .brightWhite }
        #expect(crossed.count >= 9, "the ink crosses the first line's cells: \(crossed)")
        #expect(screen[line.column + 1, line.row].character == "h", "the word stays readable under the stroke")
    }

    @Test func aPageWithoutTextSaysSoAndKeepsItsPicture() throws {
        var editor = Self.editorInTextView()
        editor.send(.wordsRead(pageIndex: 1, words: []))
        editor.press(.pageDown)
        #expect(!editor.state.showsTextView)
        #expect(editor.state.message?.contains("Page 2 has no text") == true)
        #expect(editor.screen().text(ofRow: 38).contains("no text: picture"))
        editor.press(.pageUp)
        #expect(editor.state.showsTextView, "the view stays on for the pages that have text")
        editor.press(.character("T"))
        #expect(!editor.state.showsTextView)
    }

    @Test func zoomKeysSayTheyBelongToThePicture() throws {
        var editor = Self.editorInTextView()
        editor.press(.character("z"))
        #expect(editor.state.zoom == 1)
        #expect(editor.state.message?.contains("T for the picture") == true)
    }

    @Test func aLongPageScrollsAndTheCursorStaysInView() throws {
        var editor = Self.editorInTextView(rows: 20)
        for _ in 0..<40 { editor.press(.down) }
        let cell = Self.screenCell(editor, editor.state.cursor)
        #expect(cell.row >= 0 && cell.row < 18, "the view follows the cursor: row \(cell.row)")
        #expect(editor.state.scroll.y > 0)
        let screen = editor.screen()
        #expect(screen[cell.column, cell.row].character == "+")
    }

    @Test func controlCharactersInThePagesTextShowInert() throws {
        var words = Self.words()
        words[0].text = "\u{1B}]0;owned\u{07}"
        let screen = Self.editorInTextView(words: words).screen()
        #expect(!screen.cells.contains { $0.character == "\u{1B}" || $0.character == "\u{07}" })
        #expect((0..<screen.rows).contains { screen.text(ofRow: $0).contains("\\x1B]0;owned\\x07") })
    }

    @Test func scrollingPastTheFootOfALongPageTurnsToTheNext() throws {
        var editor = Self.editorInTextView(rows: 20)
        editor.send(.wordsRead(pageIndex: 1, words: Self.words()))
        for _ in 0..<200 where editor.state.pageIndex == 0 { editor.press(.character("j")) }
        #expect(editor.state.pageIndex == 1, "j at the text view's foot turns the page")
        editor.press(.character("k"))
        #expect(editor.state.pageIndex == 0, "and k at the top turns back")
        for _ in 0..<200 where editor.state.pageIndex == 0 { editor.press(.character(" ")) }
        #expect(editor.state.pageIndex == 1, "Space too")
    }

    @Test func aClickOnAWordAtThePageAreasSideIsOnTheWordNotAPageTurn() throws {
        var editor = Self.editorInTextView(columns: 100)
        let the = try #require(Self.words().first)
        let cell = Self.screenCell(editor, Point(x: the.box.minX + 1, y: the.box.center.y))
        #expect(cell.column < 100 / 5, "the line starts in the left fifth")
        editor.send(.mouse(MouseEvent(.press, column: cell.column, row: cell.row)))
        editor.send(.mouse(MouseEvent(.release, column: cell.column, row: cell.row)))
        #expect(editor.state.pageIndex == 0)
        #expect(Self.screenCell(editor, editor.state.cursor) == cell, "the cursor is on the word clicked")
    }

    @Test func whileTypingTheCaretFollowsTheTypedText() throws {
        var editor = Self.editorInTextView()
        editor.state.cursor = Point(x: 72, y: 130)
        let start = Self.screenCell(editor, editor.state.cursor)
        editor.press(.character("t"))
        editor.type("abc")
        let screen = editor.screen()
        #expect(screen.text(ofRow: start.row).dropFirst(start.column).hasPrefix("abc▏"))
    }

    @Test func textTypedAtTheCursorSitsOnTheLineNotHalfALineBelow() throws {
        // Lines whose middle lies low in their row: the row's top is the line's top, where the cursor goes.
        var words = Self.words()
        for index in words.indices { words[index].box.origin.y += 5 }
        var editor = Self.editorInTextView(words: words)
        let approved = try #require(words.first { $0.text == "Approved" })
        editor.state.cursor = Point(x: approved.box.minX + 1, y: approved.box.center.y)
        editor.press(.right)
        #expect(abs(editor.state.cursor.y - approved.box.minY) < 0.01, "the cursor at the line's top: \(editor.state.cursor)")
    }

    @Test func aTurnedPagesTextSaysSoAndShowsItsPicture() throws {
        // Words running down the screen: a page turned a quarter, its text upright on paper.
        let words = Self.words().map { word in
            PageWord(text: word.text, box: Rect(x: 500 - word.box.minY, y: word.box.minX, width: word.box.height, height: word.box.width),
                     line: word.line, block: word.block)
        }
        let editor = Self.editorInTextView(words: words)
        #expect(!editor.state.showsTextView)
        #expect(editor.state.message?.contains("runs up or down the screen") == true)
        #expect(editor.screen().text(ofRow: 38).contains("turned text: picture"))
    }

    @Test func aHitWithinAWordIsTintedOnItsOwnLettersAndAClickPutsTheCursorAtTheLetter() throws {
        var editor = Self.editorInTextView(columns: 100)
        // "lazy" in the first line: a hit on "laz", the first three of its four letters.
        let lazy = try #require(Self.words().first { $0.text == "lazy" })
        editor.press(.character("/"))
        editor.type("laz")
        let request = try #require(editor.press(.enter).compactMap { if case .search(let request) = $0 { request } else { nil } }.first)
        let hit = Rect(x: lazy.box.minX, y: lazy.box.minY, width: lazy.box.width * 0.7, height: lazy.box.height)
        editor.send(.searchProgressed(id: request.id, pages: [SearchedPage(pageIndex: 0, hits: [SearchHit(pageIndex: 0, boxes: [hit])]),
                                                             SearchedPage(pageIndex: 1, hits: []), SearchedPage(pageIndex: 2, hits: [])],
                                      finished: true))
        let cell = Self.screenCell(editor, Point(x: lazy.box.minX + 1, y: lazy.box.center.y))
        editor.state.cursor = Point(x: 0, y: 0)
        let screen = editor.screen()
        #expect((0...2).allSatisfy { screen[cell.column + $0, cell.row].style.background == .blue })
        #expect(screen[cell.column + 3, cell.row].style.background == .brightWhite, "the y is not part of the hit")
        // A click on the z: the cursor at that cell's top-left, the z's place on the page.
        editor.send(.mouse(MouseEvent(.press, column: cell.column + 2, row: cell.row)))
        editor.send(.mouse(MouseEvent(.release, column: cell.column + 2, row: cell.row)))
        let corner = editor.state.viewport(cellPixels: editor.environment.cellPixels).point(forCellColumn: cell.column + 2, row: cell.row)
        #expect(editor.state.cursor == corner)
    }

    @Test func theCursorStopsAtThePagesLeftEdgeInView() throws {
        var editor = Self.editorInTextView(columns: 100)
        for _ in 0..<40 { editor.press(.left) }
        let cell = Self.screenCell(editor, editor.state.cursor)
        #expect(cell.column == 0 && editor.state.cursor.x == 0, "column 0 is the page's left edge, in view")
        #expect(editor.screen()[0, cell.row].style == Theme.cursor || editor.screen()[0, cell.row].character == "+")
    }

    @Test func thePenGoesACellAtATime() throws {
        var editor = Self.editorInTextView()
        editor.state.cursor = Point(x: 72, y: 72)
        let start = Self.screenCell(editor, editor.state.cursor)
        editor.press(.character("i"), .character(" "), .right, .right, .down)
        let pen = Self.screenCell(editor, editor.state.cursor)
        #expect(pen.column == start.column + 2 && pen.row == start.row + 1, "\(start) → \(pen)")
    }

    @Test func typingPastTheScreensRightEdgeScrollsTheCaretIntoView() throws {
        var editor = Self.editorInTextView(columns: 60)
        editor.state.cursor = Point(x: 300, y: 130)
        editor.press(.character("t"))
        editor.type("a note that runs on past the edge")
        let caret = Self.screenCell(editor, editor.state.cursor)
        let screen = editor.screen()
        let row = screen.text(ofRow: caret.row)
        #expect(row.contains("past the edge▏"), "\(row)")
    }

    /// A filled shape tints the cells of its inside, the words kept readable, as the picture shows it filled: a
    /// circle larger than the view, its outline out of sight, still shows where it lies; a filled triangle tints
    /// its inside and not the paper beside it.
    @Test func filledShapesTintTheirInsideEvenWhenTheirOutlineIsOutOfView() throws {
        let green = RGBColor(red: 0, green: 200, blue: 0), blue = RGBColor(red: 0, green: 0, blue: 255)
        let circle = Annotation(id: "circle", pageIndex: 0, subtype: "Circle", rect: Rect(x: -400, y: -300, width: 1400, height: 1400),
                                author: "Eve", contents: nil, flags: 4, order: 0,
                                drawing: AnnotationDrawing(color: blue, lineWidth: 1, interiorColor: green))
        let triangle = Annotation(id: "triangle", pageIndex: 1, subtype: "Polygon", rect: Rect(x: 60, y: 60, width: 220, height: 220),
                                  author: "Eve", contents: nil, flags: 4, order: 1,
                                  drawing: AnnotationDrawing(color: blue, lineWidth: 1,
                                                             vertices: [Point(x: 72, y: 72), Point(x: 272, y: 72), Point(x: 72, y: 272)],
                                                             interiorColor: green))
        var editor = EditorHarness(pages: 3, columns: 100, rows: 40, annotations: [circle, triangle])
        editor.send(.wordsRead(pageIndex: 0, words: Self.words()))
        editor.press(.character("T"))
        var screen = editor.screen()
        let word = Self.screenCell(editor, Point(x: 72, y: 77))
        let tint = screen[word.column + 1, word.row].style.background
        #expect(tint != .brightWhite && tint != TerminalColor.rgb(red: 0, green: 0, blue: 255) && screen[word.column + 1, word.row].character == "h",
                "the circle's inside is tinted under the words, which stay readable: \(tint)")
        let far = Self.screenCell(editor, Point(x: 400, y: 450))
        #expect(screen[far.column, far.row].style.background == tint, "the whole view lies inside the circle")

        editor.press(.pageDown)
        editor.send(.wordsRead(pageIndex: 1, words: Self.words()))
        screen = editor.screen()
        let inside = Self.screenCell(editor, Point(x: 110, y: 150)), beside = Self.screenCell(editor, Point(x: 240, y: 200))
        #expect(screen[inside.column, inside.row].style.background == tint, "inside the triangle")
        #expect(screen[beside.column, beside.row].style.background == .brightWhite, "beyond its long side, the paper")
        let edge = Self.screenCell(editor, Point(x: 172, y: 72))
        #expect(screen[edge.column, edge.row].style.background == TerminalColor.rgb(red: 0, green: 0, blue: 255), "its outline over the tint")

        // Search hits inside a filled shape show over its tint, as on bare paper.
        editor.press(.pageUp)
        let dogs = try Self.searchForDog(&editor)
        screen = editor.screen()
        let hit = Self.screenCell(editor, Point(x: dogs[1].box.minX + 1, y: dogs[1].box.center.y))
        #expect(screen[hit.column + 1, hit.row].style.background == .brightYellow, "a hit inside the circle shows: \(screen[hit.column + 1, hit.row].style)")
    }

    /// A dark fill (navy, near-black) tints the words under it light enough for black words to read at 4.5:1 or more.
    @Test(arguments: [RGBColor(red: 0x20, green: 0x20, blue: 0x20), RGBColor(red: 0, green: 0, blue: 0x80), RGBColor(red: 0, green: 0, blue: 255)])
    func wordsUnderADarkFillStayReadable(fill: RGBColor) throws {
        let box = Annotation(id: "box", pageIndex: 0, subtype: "Square", rect: Rect(x: 60, y: 60, width: 300, height: 60), author: "Eve",
                             contents: nil, flags: 4, order: 0, drawing: AnnotationDrawing(color: fill, lineWidth: 1, interiorColor: fill))
        var editor = EditorHarness(pages: 3, columns: 100, rows: 40, annotations: [box])
        editor.send(.wordsRead(pageIndex: 0, words: Self.words()))
        editor.press(.character("T"))
        let screen = editor.screen()
        let word = Self.screenCell(editor, Point(x: 80, y: 90))
        let cell = screen[word.column, word.row]
        guard case .rgb(let red, let green, let blue) = cell.style.background else {
            Issue.record("a tint, not \(cell.style.background)")
            return
        }
        func linear(_ value: UInt8) -> Double {
            let c = Double(value) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let luminance = 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
        #expect(cell.style.foreground == .black && (luminance + 0.05) / 0.05 >= 4.5, "black on \(red),\(green),\(blue)")
    }

    @Test func hitsAndMarkupOutOfViewOnEverySideAreDrawnWithoutHarm() throws {
        // A hit on "dog" of the first line and on "Approved" of the last, a note far right: the view is scrolled
        // and narrowed so each lies above, below or beside the page area in turn.
        var editor = Self.editorInTextView(columns: 30, rows: 8)
        let words = Self.words()
        editor.press(.character("/"))
        editor.type("x")
        let request = try #require(editor.press(.enter).compactMap { if case .search(let request) = $0 { request } else { nil } }.first)
        let boxes = words.filter { ["dog", "Approved", "again"].contains($0.text) }.map(\.box)
        editor.send(.searchProgressed(id: request.id, pages: [SearchedPage(pageIndex: 0, hits: boxes.map { SearchHit(pageIndex: 0, boxes: [$0]) }),
                                                             SearchedPage(pageIndex: 1, hits: []), SearchedPage(pageIndex: 2, hits: [])],
                                      finished: true))
        editor.state.cursor = Point(x: 500, y: 96)
        editor.placeText("far right")
        for scroll in [Point(x: 0, y: 0), Point(x: 0, y: 200), Point(x: 0, y: 1000), Point(x: 1000, y: 72), Point(x: 200, y: 0)] {
            editor.state.scroll = scroll
            let screen = editor.screen()
            #expect(screen.rows == 8)
        }
    }
}
