import Editor
import RedlineCore
import TerminalGrid
import Testing

/// Marks (`m a`, `' a`) and the reading place a document opens at again, through the state machine.
@Suite struct MarksAndReadingPlaceTests {
    func editor(pages: Int = 12) -> EditorHarness { EditorHarness(pages: pages, columns: 80, rows: 30) }

    @Test func aMarkTakesThePlaceAndItsLetterGoesBackThere() {
        var editor = editor()
        editor.press(.character("5"), .character("G"), .character("z"), .character("j"), .character("j"))
        let marked = editor.state.view.place
        editor.press(.character("m"), .character("a"))
        #expect(editor.screen().lines.last?.hasPrefix("Mark a: page 5") == true)
        editor.press(.character("9"), .character("G"))
        #expect(editor.state.pageIndex == 8)
        editor.press(.character("'"), .character("a"))
        #expect(editor.state.view.place == marked, "the page and the part of it shown")
        #expect(editor.screen().lines.last?.hasPrefix("Mark a: page 5") == true)
        // `''` is back where the jump to the mark left, and `''` again comes back, as in vim; Ctrl-O too.
        editor.press(.character("'"), .character("'"))
        #expect(editor.state.pageIndex == 8)
        editor.press(.character("'"), .character("'"))
        #expect(editor.state.view.place == marked)
        editor.press(.character("'"), .character("'"))
        #expect(editor.state.pageIndex == 8)
        editor.press(.character("`"), .character("a"))
        #expect(editor.state.pageIndex == 4)
        editor.press(.control("o"))
        #expect(editor.state.pageIndex == 8)
    }

    @Test func anUnsetMarkOrAKeyThatIsNoLetterIsSaidAndChangesNothing() {
        var editor = editor()
        editor.press(.character("3"), .character("G"))
        editor.press(.character("'"))
        #expect(editor.screen().lines.contains { $0.contains("'") && $0.contains("page 3/12") }, "the waiting key is shown")
        editor.press(.character("q"))
        #expect(editor.screen().lines.last?.hasPrefix("No mark q: mq sets it") == true)
        #expect(editor.effects.isEmpty, "q after ' is a mark's letter, not quit")
        editor.press(.character("m"), .character("4"))
        #expect(editor.screen().lines.last?.hasPrefix("A mark is a letter") == true)
        editor.press(.character("m"), .escape)
        #expect(editor.state.view.marks.isEmpty && editor.state.pageIndex == 2)
        // Upper and lower case are two marks.
        editor.press(.character("m"), .character("A"), .character("G"), .character("m"), .character("a"))
        #expect(editor.state.view.marks[Character("A")]?.pageIndex == 2 && editor.state.view.marks[Character("a")]?.pageIndex == 11)
    }

    @Test func theReadingPlaceRoundTripsAndIsFittedToTheDocumentAsItIsNow() {
        var editor = editor()
        editor.press(.character("7"), .character("G"), .character("z"), .character("z"), .character("j"))
        editor.press(.character("m"), .character("b"), .character("2"), .character("G"), .character("m"), .character("c"))
        let place = editor.state.readingPlace
        #expect(place.pageIndex == 1 && place.zoom == 1.5 && Set(place.marks.keys) == ["b", "c"])

        var reopened = self.editor()
        reopened.send(.placeRestored(place))
        #expect(reopened.state.readingPlace == place)
        reopened.press(.character("'"), .character("b"))
        #expect(reopened.state.pageIndex == 6)

        // The file shrank to 4 pages since: the last page, mark b (page 7) dropped; numbers past their range come back
        // into it, and values that are no numbers leave what they would have set alone.
        var shorter = self.editor(pages: 4)
        var changed = place
        changed.pageIndex = 9
        changed.zoom = 1e300
        changed.scrollX = .nan
        changed.marks["é"] = .init(pageIndex: 0, scrollX: 0, scrollY: 0)
        changed.marks["ab"] = .init(pageIndex: 0, scrollX: 0, scrollY: 0)
        changed.marks["d"] = .init(pageIndex: -3, scrollX: 0, scrollY: 0)
        shorter.send(.placeRestored(changed))
        #expect(shorter.state.pageIndex == 3)
        #expect(shorter.state.zoom == 8)
        #expect(shorter.state.view.marks.keys.sorted() == ["c"])
        #expect(shorter.state.scroll.x.isFinite && shorter.state.scroll.y.isFinite)

        var text = self.editor()
        text.send(.placeRestored(ReadingPlace(pageIndex: 2, zoom: .infinity, showsText: true)))
        #expect(text.state.view.showsText && text.state.zoom == 1)
    }
}

/// `I`: the page dark, in the picture's scene and the text view's cells.
@Suite struct DarkPageTests {
    @Test func iTurnsThePageDarkAndBackAndTheSceneSaysSo() {
        var editor = EditorHarness(pages: 2, columns: 80, rows: 30)
        #expect(editor.state.scene(environment: editor.environment).recolor == nil)
        editor.press(.character("I"))
        #expect(editor.state.scene(environment: editor.environment).recolor == .standard)
        #expect(editor.screen().lines.last?.hasPrefix("Dark page: lightness turned over, hues kept") == true)
        editor.state.chrome.recolor = PageRecolor(dark: 0x102030, light: 0xF0E0D0)
        #expect(editor.state.scene(environment: editor.environment).recolor == PageRecolor(dark: 0x102030, light: 0xF0E0D0))
        editor.press(.character("I"))
        #expect(editor.state.scene(environment: editor.environment).recolor == nil)
    }

    @Test func cellsTurnAsThePageDoesAndTheSixteenColoursStayPaletteColours() {
        var grid = CellGrid(columns: 3, rows: 1)
        grid[0, 0] = Cell("a", style: CellStyle(foreground: .black, background: .brightWhite))
        grid[1, 0] = Cell("b", style: CellStyle(foreground: .rgb(red: 0, green: 0, blue: 0), background: .rgb(red: 255, green: 255, blue: 255)))
        grid[2, 0] = Cell("c", style: CellStyle(foreground: .red, background: .white))
        var few = grid
        grid.recolor(in: CellRect(column: 0, row: 0, width: 3, height: 1), .standard)
        #expect(grid[0, 0].style.foreground == .rgb(red: 0xE8, green: 0xE6, blue: 0xE3), "the configured light, not the palette's")
        #expect(grid[0, 0].style.background == .rgb(red: 0x1C, green: 0x1C, blue: 0x1E))
        few.recolor(in: CellRect(column: 0, row: 0, width: 3, height: 1), .standard, keepingPalette: true)
        #expect(few[0, 0].style.foreground == .brightWhite && few[0, 0].style.background == .black)
        #expect(few[2, 0].style.foreground == .red && few[2, 0].style.background == .black, "light grey paper of eight colours goes black")
        grid = few
        #expect(grid[1, 0].style.foreground == .rgb(red: 0xE8, green: 0xE6, blue: 0xE3))
        #expect(grid[1, 0].style.background == .rgb(red: 0x1C, green: 0x1C, blue: 0x1E))
    }
}

/// Page labels in the editor: the status line, `:label`, the outline.
@Suite struct PageLabelEditingTests {
    func editor() -> EditorHarness {
        var editor = EditorHarness(pages: 12, columns: 100, rows: 30)
        // Roman front matter after a cover, arabic body, an appendix A-1…, a back cover.
        editor.state.document.pageLabels = PageLabels([
            .init(firstPage: 1, style: .lowerRoman), .init(firstPage: 4, style: .decimal),
            .init(firstPage: 9, style: .decimal, prefix: "A-", start: 1), .init(firstPage: 11, style: nil, prefix: "Back cover"),
        ])
        return editor
    }

    @Test func theStatusLineShowsTheLabelAndTheCommandLineGoesToOne() {
        var editor = editor()
        #expect(editor.screen().lines[28].hasPrefix(" page 1/12 "), "the cover has no label")
        editor.command("iii")
        #expect(editor.state.pageIndex == 3)
        #expect(editor.screen().lines[28].hasPrefix(" page 4/12 (iii)"))
        editor.command("5")
        #expect(editor.state.pageIndex == 8, "the page printed 5")
        editor.command("A-2")
        #expect(editor.state.pageIndex == 10)
        editor.command("12")
        #expect(editor.state.pageIndex == 11, "no page prints 12: the twelfth page")
        editor.press(.control("o"))
        #expect(editor.state.pageIndex == 10, "a label's page is a jump")
        editor.command("xx")
        #expect(editor.screen().lines.last?.hasPrefix("No page is labelled xx, and no command is called :xx") == true)
    }

    @Test func aDocumentLetteredAToZStillQuitsWithQ() {
        var editor = EditorHarness(pages: 20, columns: 100, rows: 30)
        editor.state.document.pageLabels = PageLabels([.init(firstPage: 0, style: .lowerLetters)])
        editor.command("h")
        #expect(editor.state.pageIndex == 0, ":h is help, not page h")
        editor.press(.escape)
        editor.command("c")
        #expect(editor.state.pageIndex == 2)
        #expect(editor.command("q").contains(.quit))
    }
}
