import Editor
import RedlineCore
import TerminalGrid
import Testing

/// Sticky notes: `n` in ink mode, Space or a click places one where the pen is and opens its words at once; Enter
/// or Esc comes back to the pen. Afterwards a note is markup like any other, saved as a Text annotation.
@Suite struct StickyNoteTests {
    var notes: (EditorHarness) -> [(MarkupItem, ShapeMarkup)] {
        { editor in editor.state.markup.items.compactMap { item in
            if case .shape(let shape) = item.content, shape.kind == .note { (item, shape) } else { nil }
        } }
    }

    @Test func spacePlacesANoteAndItsWordsAreTypedAtOnce() throws {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 100, y: 100)
        editor.press(.character("i"), .character("n"))
        #expect(editor.screen().lines.joined(separator: "\n").contains("Note: Space places it, then type its words"))
        editor.press(.character(" "))
        guard case .commenting(let draft) = editor.state.focus else { Issue.record("no words asked for: \(editor.state.focus)"); return }
        // Shown where it will be while its words are typed, made when they are kept.
        #expect(notes(editor).isEmpty)
        guard case .shape(let shown)? = editor.state.scene(environment: editor.environment).markup.last?.content else {
            Issue.record("the note is not shown"); return
        }
        #expect(shown.kind == .note && shown.box == Rect(x: 100, y: 100, width: 20, height: 20) && shown.color == .yellow)
        editor.type("Check the figure")
        // Journaled while typed, as every comment is.
        #expect(editor.state.journalEdits.markup.item(draft.markup)?.comment == "Check the figure")
        editor.press(.enter)
        let (item, note) = try #require(notes(editor).first)
        #expect(note.box == Rect(x: 100, y: 100, width: 20, height: 20) && note.color == .yellow)
        #expect(editor.state.markup.item(item.id)?.comment == "Check the figure")
        #expect(editor.state.message == "Note kept: :wa saves it in the file, where other readers show it in a popup")
        // Back in ink mode with the note tool: the next Space places another.
        guard case .inking(let session) = editor.state.focus else { Issue.record("not back in ink mode: \(editor.state.focus)"); return }
        #expect(session.tool == .note)
        // Esc drops a note being placed, as Okular's Cancel does; Enter with no words places it without them.
        editor.press(.shiftRight, .shiftRight, .shiftRight, .character(" "))
        editor.type("Second")
        editor.press(.escape)
        #expect(notes(editor).count == 1 && editor.state.message == "Note dropped")
        editor.press(.character(" "), .enter)
        #expect(notes(editor).count == 2 && notes(editor).last?.0.comment == nil)
        #expect(editor.state.message == "Note placed without words: Enter on it (Tab selects it) types them")
        // Placing a note with its words is one undo step.
        editor.press(.escape, .character("u"))
        #expect(notes(editor).count == 1)
        editor.press(.character("u"))
        #expect(notes(editor).isEmpty)
    }

    @Test func aClickPlacesANoteWhereThePointerIs() throws {
        var editor = EditorHarness()
        editor.press(.character("i"), .character("n"))
        editor.send(.mouse(MouseEvent(.press, column: 20, row: 5)))
        editor.send(.mouse(MouseEvent(.release, column: 20, row: 5)))
        guard case .commenting = editor.state.focus else { Issue.record("no words asked for"); return }
        editor.press(.enter)
        let (_, note) = try #require(notes(editor).first)
        let viewport = editor.state.viewport(cellPixels: .standard)
        #expect(viewport.cell(for: note.points[0]) == (20, 5))
    }

    @Test func aNoteNearTheEdgeIsPlacedOnThePageAndColoursStepThroughTheLightOnes() throws {
        var editor = EditorHarness()
        let size = editor.state.pageSize
        editor.state.cursor = Point(x: size.width - 5, y: size.height - 5)
        editor.press(.character("i"), .character("n"), .character("c"), .character(" "), .enter)
        let (_, note) = try #require(notes(editor).first)
        #expect(note.box == Rect(x: size.width - 20, y: size.height - 20, width: 20, height: 20))
        #expect(note.color == MarkupColor.yellow.next(in: MarkupPalettes.standard.highlighter))
        #expect(note.color != .yellow)
    }

    @Test func aSelectedNoteMovesGrowsWithinWhatReadersDrawAndTakesNewWords() throws {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 100, y: 100)
        editor.press(.character("i"), .character("n"), .character(" "))
        editor.type("Old")
        editor.press(.enter, .escape, .tab)
        let (item, _) = try #require(notes(editor).first)
        #expect(editor.state.selection == item.id)
        #expect(editor.screen().lines.joined().contains("selected note yellow \"Old\""))
        editor.press(.right, .character("+"))
        #expect(notes(editor).first?.1.box == Rect(x: 101, y: 100, width: 24, height: 24))
        for _ in 0..<10 { editor.press(.character("+")) }
        #expect(notes(editor).first?.1.box.map(\.width) == 40)
        #expect(editor.state.message == "The note is already as large as it goes (40 pt)")
        for _ in 0..<10 { editor.press(.character("-")) }
        #expect(notes(editor).first?.1.box.map(\.width) == 12)
        // Emptied, the words go and the note stays.
        editor.press(.enter, .control("u"), .enter)
        #expect(notes(editor).count == 1 && notes(editor).first?.0.comment == nil)
        #expect(editor.state.message == "The note's words removed: the note stays (x deletes it)")
        editor.press(.enter)
        editor.type("New words")
        editor.press(.enter)
        #expect(notes(editor).first?.0.comment == "New words")
        #expect(editor.state.selection == item.id, "a note edited from its selection stays selected")
    }

    @Test func aNoteIsSavedAsATextAnnotationWithItsWordsAndReadBackFromTheMarkupFile() throws {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 100, y: 100)
        editor.press(.character("i"), .character("n"), .character(" "))
        editor.type("Line one")
        editor.press(.enter, .escape)
        let (item, note) = try #require(notes(editor).first)
        let annotation = MarkupAnnotations.annotation(for: item, author: "ann", at: PDFDate(.now, timeZone: .gmt),
                                                      measuredBy: editor.environment.measurer)
        #expect(annotation.subtype == .text && annotation.contents == "Line one" && annotation.drawing.icon == "Note")
        #expect(annotation.rect == note.box && annotation.drawing.color == MarkupColor.yellow.rgb)
        #expect(AnnotationSketch(annotation) == note.sketch, "drawn as every reader draws the annotation it is saved as")
        let file = MarkupFile.encode(editor.state.markup)
        #expect(try MarkupFile.decode(file) == editor.state.markup)
        #expect(editor.state.markup.commentsLostByFlattening(keeping: ":wa") == "1 comment is not in a flattened copy: :wa keeps it")
    }
}

/// Callouts: `C` in ink mode, Space at the spot the line points to, Space where the words go, then the words;
/// a text markup with its line and arrow afterwards, saved as a FreeText callout.
@Suite struct CalloutTests {
    var texts: (EditorHarness) -> [(MarkupItem, TextMarkup)] {
        { editor in editor.state.markup.items.compactMap { item in if case .text(let text) = item.content { (item, text) } else { nil } } }
    }

    @Test func theSpotThenThePlaceThenTheWordsMakeACallout() throws {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 100, y: 100)
        editor.press(.character("i"), .character("C"))
        #expect(editor.screen().lines.joined(separator: "\n").contains("Callout: Space at the spot, again where its words go"))
        editor.press(.character(" "))
        #expect(editor.screen().lines.joined(separator: "\n").contains("callout 14pt red, spot placed"))
        editor.press(.shiftRight, .shiftRight, .shiftRight, .shiftRight, .shiftDown, .shiftDown)
        // The line shows from the spot to the pen before the words are typed; nothing is journaled yet.
        let shown = editor.state.scene(environment: editor.environment).markup
        guard case .text(let live)? = shown.last?.content else { Issue.record("no line shown"); return }
        #expect(live.pointsAt == Point(x: 100, y: 100) && live.origin == Point(x: 140, y: 120))
        #expect(editor.state.journalEdits.markup.isEmpty)
        editor.press(.character(" "))
        guard case .typing = editor.state.focus else { Issue.record("no words asked for: \(editor.state.focus)"); return }
        editor.type("Why?")
        editor.press(.enter)
        let (_, text) = try #require(texts(editor).first)
        #expect(text.text == "Why?" && text.pointsAt == Point(x: 100, y: 100) && text.origin == Point(x: 140, y: 120))
        let measured = text.calloutLine(measuredBy: editor.environment.measurer)
        let line = try #require(measured)
        #expect(line[0] == Point(x: 100, y: 100))
        #expect(abs(line[1].x - (140 - TextMarkup.calloutGap)) < 1e-9, "the line leaves the box's left side, facing the spot: \(line)")
        // Back in ink mode with the callout tool; Esc in the middle of the next drops it.
        guard case .inking(let session) = editor.state.focus else { Issue.record("not back in ink mode"); return }
        #expect(session.tool == .callout)
        editor.press(.character(" "), .escape)
        #expect(editor.state.message == "Callout dropped (Esc again leaves ink mode)")
        editor.press(.character(" "), .shiftDown, .character(" "))
        editor.type("Gone")
        editor.press(.escape)
        #expect(texts(editor).count == 1 && editor.state.message == "Callout dropped")
        editor.press(.escape, .character("u"))
        #expect(texts(editor).isEmpty, "one undo step")
    }

    /// Words typed past the page's edge are pulled back onto it; the spot the callout points at stays where it was put.
    @Test func wordsPulledBackOntoThePageLeaveTheSpotWhereItWas() throws {
        var editor = EditorHarness()
        let size = editor.state.pageSize
        editor.state.cursor = Point(x: size.width - 60, y: 200)
        editor.press(.character("i"), .character("C"), .character(" "), .shiftDown, .shiftDown, .character(" "))
        editor.type("these words are far too long to fit here")
        editor.press(.enter)
        let (_, text) = try #require(texts(editor).first)
        #expect(text.pointsAt == Point(x: size.width - 60, y: 200))
        let box = text.textBox(measuredBy: editor.environment.measurer)
        #expect(box.maxX <= size.width - MarkupAnnotations.margin + 1e-9 && box.minX < size.width - 60, "\(box)")
    }

    @Test func aDragFromTheSpotToTheWordsPlaceMakesOne() throws {
        var editor = EditorHarness()
        editor.press(.character("i"), .character("C"))
        editor.send(.mouse(MouseEvent(.press, column: 20, row: 5)))
        editor.send(.mouse(MouseEvent(.drag, column: 30, row: 10)))
        editor.send(.mouse(MouseEvent(.release, column: 40, row: 12)))
        editor.type("Here")
        editor.press(.enter)
        let (_, text) = try #require(texts(editor).first)
        let viewport = editor.state.viewport(cellPixels: .standard)
        #expect(viewport.cell(for: try #require(text.pointsAt)) == (20, 5) && viewport.cell(for: text.origin) == (40, 12))
    }

    @Test func aCalloutMovesWholeKeepsItsSpotWhenItsWordsChangeAndIsSavedAsAFreeTextCallout() throws {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 100, y: 100)
        editor.press(.character("i"), .character("C"), .character(" "), .shiftRight, .shiftRight, .shiftRight, .shiftRight, .shiftRight, .character(" "))
        editor.type("Old")
        editor.press(.enter, .escape, .tab)
        #expect(editor.screen().lines.joined().contains("\"Old\" 14pt red callout"))
        editor.press(.right, .down)
        #expect(texts(editor).first?.1.pointsAt == Point(x: 101, y: 101) && texts(editor).first?.1.origin == Point(x: 151, y: 101))
        editor.press(.enter, .control("u"))
        editor.type("New words")
        editor.press(.enter)
        let (item, text) = try #require(texts(editor).first)
        #expect(text.text == "New words" && text.pointsAt == Point(x: 101, y: 101))
        let measurer = editor.environment.measurer
        let annotation = MarkupAnnotations.annotation(for: item, author: "ann", at: PDFDate(.now, timeZone: .gmt), measuredBy: measurer)
        #expect(annotation.subtype == .freeText && annotation.contents == "New words")
        #expect(annotation.drawing.intent == "FreeTextCallout" && annotation.drawing.lineEndings == ["OpenArrow"])
        #expect(annotation.drawing.callout == text.calloutLine(measuredBy: measurer))
        // /RD leaves the words' box (and the margin) inside /Rect, which holds the line and its arrow too.
        let fringe = annotation.drawing.fringe
        let inner = Rect(x: annotation.rect.minX + fringe[0], y: annotation.rect.minY + fringe[1],
                         width: annotation.rect.width - fringe[0] - fringe[2], height: annotation.rect.height - fringe[1] - fringe[3])
        let words = text.textBox(measuredBy: measurer).insetBy(dx: -MarkupAnnotations.margin, dy: -MarkupAnnotations.margin)
        #expect(abs(inner.minX - words.minX) < 1e-9 && abs(inner.maxY - words.maxY) < 1e-9 && abs(inner.maxX - words.maxX) < 1e-9)
        let line = text.calloutSketch(measuredBy: measurer)
        #expect(line.map { annotation.rect.contains($0.bounds) } == true)
        let file = MarkupFile.encode(editor.state.markup)
        #expect(try MarkupFile.decode(file) == editor.state.markup)
    }
}
