import Foundation
import Editor
import RedlineCore
import TerminalGrid
import Testing

/// `v`, extending by words and lines, `y`, and the marks `H`, `U`, `S` make, with the words the runner reads.
@Suite struct TextSelectionTests {
    /// Two lines of three words and one line of two, 12 pt tall, at 72 pt from the left.
    static let words: [PageWord] = {
        var words: [PageWord] = []
        let lines = [["The", "quick", "fox"], ["jumps", "over", "dogs"], ["and", "cats"]]
        for (line, texts) in lines.enumerated() {
            var x = 72.0
            for text in texts {
                let width = Double(text.count) * 6
                words.append(PageWord(text: text, box: Rect(x: x, y: 100 + Double(line) * 16, width: width, height: 12), line: line, block: 0))
                x += width + 4
            }
        }
        return words
    }()

    func editor() -> EditorHarness {
        var editor = EditorHarness(pages: 3, columns: 100, rows: 30)
        editor.send(.wordsRead(pageIndex: 0, words: Self.words))
        editor.state.cursor = Point(x: 100, y: 104)
        return editor
    }

    var marks: (EditorHarness) -> TextMarks? {
        { editor in
            editor.state.markup.items(onPage: 0).compactMap { if case .textMarks(let marks) = $0.content { marks } else { nil } }.first
        }
    }

    @Test func vStartsAtTheWordUnderTheCursorAndWordsAndLinesExtendIt() {
        var editor = editor()
        editor.press(.character("v"))
        #expect(editor.state.interaction.textSelection == TextSelection(pageIndex: 0, anchor: 1, head: 1), "\"quick\" is under the cursor")
        editor.press(.character("w"))
        #expect(editor.state.interaction.textSelection?.range == 1...2)
        editor.press(.down)
        #expect(editor.state.interaction.textSelection?.head == 5, "the line below, nearest the column: \"dogs\"")
        editor.press(.character("b"))
        #expect(editor.state.interaction.textSelection?.range == 1...4)
        #expect(editor.screen().text(ofRow: 29).hasPrefix("Selected 4 words: "))
        let scene = editor.state.scene(environment: editor.environment)
        #expect(scene.marks.filter { $0.kind == .selectedText }.map(\.rect) == [
            Rect(x: 94, y: 100, width: 52, height: 12), Rect(x: 72, y: 116, width: 58, height: 12),
        ], "one tinted box per line, from the first word to the last")
        editor.press(.escape)
        #expect(editor.state.interaction.textSelection == nil && editor.state.focus == .page)
    }

    @Test func yCopiesTheWordsWithALineBreakBetweenLines() {
        var editor = editor()
        let effects = editor.press(.character("v"), .character("w"), .character("j"), .character("y"))
        #expect(effects == [.copyToClipboard("quick fox\njumps over dogs")])
        #expect(editor.state.interaction.textSelection == nil)
    }

    @Test func hHighlightsExactlyTheWordsBoxesAndUUndoesIt() {
        var editor = editor()
        editor.press(.character("v"), .character("w"), .character("j"))
        let effects = editor.press(.character("H"))
        #expect(effects == [.journalChanged])
        let made = marks(editor)
        #expect(made?.kind == .highlight && made?.color == .yellow)
        #expect(made?.rects == [Rect(x: 94, y: 100, width: 52, height: 12), Rect(x: 72, y: 116, width: 86, height: 12)])
        #expect(editor.state.message == "Highlighted 5 words")
        #expect(editor.state.selection == nil, "the mark is not selected: J next scrolls, it does not move the mark")
        editor.press(.character("J"))
        #expect(marks(editor)?.rects == made?.rects, "the mark stays on its words")
        editor.press(.tab)
        #expect(editor.screen().text(ofRow: 28).contains("selected highlight 2 lines yellow"))
        editor.press(.character("u"))
        #expect(marks(editor) == nil)
    }

    @Test func underlineAndStrikeOutAndTheirColour() {
        var editor = editor()
        editor.press(.character("v"), .character("U"))
        #expect(marks(editor)?.kind == .underline && marks(editor)?.color == .red)
        editor.press(.tab, .character("c"))
        let recoloured = marks(editor)?.color
        #expect(recoloured != .red)
        editor.press(.escape, .character("v"), .character("j"), .character("S"))
        let struck = editor.state.markup.items(onPage: 0).compactMap { if case .textMarks(let m) = $0.content, m.kind == .strikeOut { m } else { nil } }
        #expect(struck.first?.color == .red, "each kind keeps its own colour")
        editor.press(.tab, .tab, .character("+"))
        #expect(editor.state.message?.contains("follows its words") == true)
    }

    /// `Z`: a wavy line under the words, saved as a Squiggly annotation by `:wa` and drawn as Redline draws a file's.
    @Test func aSquigglyUnderTheWords() throws {
        var editor = editor()
        editor.press(.character("v"), .character("w"), .character("Z"))
        let squiggly = try #require(marks(editor))
        #expect(squiggly.kind == .squiggly && squiggly.color == .red)
        #expect(editor.state.message == "Squiggle under 2 words")
        let item = try #require(editor.state.markup.items(onPage: 0).first)
        let annotation = MarkupAnnotations.annotation(for: item, author: "a", at: PDFDate(Date(), timeZone: .current),
                                                      onPage: Size(width: 612, height: 792), measuredBy: editor.environment.measurer)
        #expect(annotation.subtype == .squiggly && annotation.drawing.quads.count == 1)
        // Read back from the annotation, it is the same marks; drawn, a zigzag along the words' foot.
        let readBack: TextMarks.Kind? = MarkupAnnotations.item(for: annotation).flatMap { item -> TextMarks.Kind? in
            if case .textMarks(let marks) = item.content { return marks.kind }
            return nil
        }
        #expect(readBack == .squiggly)
        let drawing = try #require(item.outlinedDrawing)
        let points = drawing.outlines[0].segments.compactMap { if case .line(let p) = $0 { p } else { nil } }
        #expect(Set(points.map(\.y)).count == 2 && points.allSatisfy { $0.y <= squiggly.rects[0].maxY && $0.y >= squiggly.rects[0].maxY - squiggly.rects[0].height / 5 })
    }

    @Test func aDragOverTheTextSelectsTheWordsBetween() {
        var editor = editor()
        let viewport = editor.state.viewport(cellPixels: editor.environment.cellPixels)
        let area = editor.state.layout.pageArea
        func cell(_ point: Point) -> (Int, Int) {
            let cell = viewport.cell(for: point)
            return (area.column + cell.column, area.row + cell.row)
        }
        let start = cell(Point(x: 74, y: 104)), end = cell(Point(x: 150, y: 120))
        editor.send(.mouse(MouseEvent(.press, column: start.0, row: start.1)))
        editor.send(.mouse(MouseEvent(.drag, column: end.0, row: end.1)))
        editor.send(.mouse(MouseEvent(.release, column: end.0, row: end.1)))
        let selection = editor.state.interaction.textSelection
        #expect(selection?.anchor == 0 && (selection?.head ?? 0) >= 3, "\(String(describing: selection))")
    }

    @Test func aPageWithoutTextSaysSo() {
        var editor = EditorHarness(pages: 2, columns: 100, rows: 30)
        editor.send(.wordsRead(pageIndex: 0, words: []))
        editor.press(.character("v"))
        #expect(editor.state.message == "This page has no text to select (a scan without text?)")
    }

    @Test func textMarksGoThroughTheMarkupFileAndBack() throws {
        let marks = TextMarks(kind: .strikeOut, rects: [Rect(x: 72, y: 100, width: 50, height: 12)], color: .blue)
        let layer = MarkupLayer(items: [MarkupItem(id: MarkupID(.init()), pageIndex: 0, content: .textMarks(marks))])
        let decoded = try MarkupFile.decode(MarkupFile.encode(layer))
        #expect(decoded.items.map(\.content) == [.textMarks(marks)])
        #expect(throws: MarkupFileError.self) {
            try MarkupFile.decode(Data(#"{"version":1,"items":[{"page":1,"kind":"highlight","rects":[[1,2,-3,4]]}]}"#.utf8))
        }
    }
}
