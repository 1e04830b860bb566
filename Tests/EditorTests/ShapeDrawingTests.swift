import Editor
import TerminalGrid
import RedlineCore
import Testing

/// The shape tools of ink mode, with the keyboard and the mouse, and the shapes as markup afterwards: selected,
/// nudged, resized, recoloured, undone, journaled.
@Suite struct ShapeDrawingTests {
    var shapes: (EditorHarness) -> [ShapeMarkup] {
        { editor in editor.state.markup.items.compactMap { if case .shape(let shape) = $0.content { shape } else { nil } } }
    }

    /// Ink mode at (100, 100), the tool's key, Space, the pen moved by (dx, dy) in 10 pt steps, Space.
    func dragWithKeys(_ editor: inout EditorHarness, tool: Character, dx: Int, dy: Int) {
        editor.state.cursor = Point(x: 100, y: 100)
        editor.press(.character("i"), .character(tool), .character(" "))
        for _ in 0..<abs(dx) { editor.press(dx > 0 ? .shiftRight : .shiftLeft) }
        for _ in 0..<abs(dy) { editor.press(dy > 0 ? .shiftDown : .shiftUp) }
        editor.press(.character(" "))
    }

    @Test(arguments: [("r", ShapeMarkup.Kind.rectangle), ("o", .ellipse), ("l", .line), ("a", .arrow)])
    func spaceAtOneCornerAndAgainAtTheOtherMakesTheShape(key: String, kind: ShapeMarkup.Kind) throws {
        var editor = EditorHarness()
        dragWithKeys(&editor, tool: Character(key), dx: 8, dy: 5)
        // Made as the pen comes up, each shape its own markup: no need to leave ink mode first.
        let shape = try #require(shapes(editor).first)
        #expect(shape.kind == kind)
        #expect(shape.points == [Point(x: 100, y: 100), Point(x: 180, y: 150)])
        #expect(shape.width == 2 && shape.color == .red && !shape.filled)
        // The next one is another markup.
        editor.press(.character(" "), .shiftLeft, .shiftLeft, .shiftUp, .character(" "), .escape)
        #expect(shapes(editor).count == 2)
        #expect(Set(editor.state.markup.items.map(\.id)).count == 2)
        // Each one undo step.
        editor.press(.character("u"))
        #expect(shapes(editor).count == 1)
    }

    @Test func theShapeShowsWhileThePenMovesAndIsJournaledBeforeItIsMade() throws {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 100, y: 100)
        editor.press(.character("i"), .character("o"), .character(" "), .shiftRight, .shiftRight, .shiftDown)
        #expect(editor.state.markup.isEmpty)
        let shown = editor.state.scene(environment: editor.environment).markup
        guard case .shape(let live)? = shown.last?.content else { Issue.record("no shape shown"); return }
        #expect(live.kind == .ellipse && live.points == [Point(x: 100, y: 100), Point(x: 120, y: 110)])
        guard case .shape(let journaled)? = editor.state.journalEdits.markup.items.first?.content else { Issue.record("not journaled"); return }
        #expect(journaled == live)
        #expect(editor.screen().lines.joined(separator: "\n").contains("shape ellipse 2pt red, pen down"))
    }

    @Test func aPolygonTakesACornerAtEachSpaceAndEnterClosesIt() throws {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 100, y: 100)
        editor.press(.character("i"), .character("P"), .character(" "))
        editor.press(.shiftRight, .shiftRight, .character(" "))
        editor.press(.shiftDown, .shiftDown, .character(" "))
        // u takes the last corner back; placing it again elsewhere.
        editor.press(.character("u"), .shiftDown, .character(" "))
        #expect(editor.screen().lines.joined(separator: "\n").contains("3 corners"))
        editor.press(.enter)
        let polygon = try #require(shapes(editor).first)
        #expect(polygon.kind == .polygon)
        #expect(polygon.points == [Point(x: 100, y: 100), Point(x: 120, y: 100), Point(x: 120, y: 130)])
        // A polyline the same way; Enter ends it with the corners placed, not where the pen went after them.
        editor.press(.character("Y"), .character(" "), .shiftLeft, .character(" "), .shiftDown, .enter)
        #expect(shapes(editor).last?.kind == .polyline && shapes(editor).last?.points == [Point(x: 120, y: 130), Point(x: 110, y: 130)])
        // Esc in the middle of one drops it, as in Acrobat; Esc again leaves ink mode.
        editor.press(.character(" "), .shiftRight, .character(" "), .escape)
        #expect(shapes(editor).count == 2 && editor.state.message == "Shape dropped (Esc again leaves ink mode)")
        guard case .inking = editor.state.focus else { Issue.record("left ink mode"); return }
        editor.press(.escape)
        #expect(editor.state.focus == .page)
    }

    @Test func aShapeThatEnclosesNothingIsNotKeptAndTheMessageSaysWhy() {
        var editor = EditorHarness()
        editor.press(.character("i"), .character("r"), .character(" "), .character(" "))
        #expect(editor.state.markup.isEmpty)
        #expect(editor.state.message == "A rectangle needs room: move the pen before lifting it (or drag)")
        editor.press(.character("P"), .character(" "), .shiftRight, .character(" "), .enter)
        #expect(editor.state.markup.isEmpty)
        #expect(editor.state.message?.hasPrefix("A polygon needs 3 corners or more") == true)
        // Corners on one line, or a line of no length, draw nothing either.
        editor.press(.character(" "), .shiftRight, .character(" "), .shiftRight, .character(" "), .enter)
        editor.press(.character("a"), .character(" "), .character(" "))
        #expect(editor.state.markup.isEmpty)
        #expect(editor.state.message == "An arrow needs room: move the pen before lifting it (or drag)")
    }

    @Test func fillWidthAndColourApplyToTheNextShapes() throws {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 100, y: 100)
        editor.press(.character("i"), .character("r"), .character("f"), .character("+"), .character("c"))
        editor.press(.character(" "), .shiftRight, .shiftDown, .character(" "))
        let filled = try #require(shapes(editor).first)
        #expect(filled.filled && filled.width == 3 && filled.color == .purple)
        // A line is never filled, whatever the setting.
        editor.press(.character("l"), .character(" "), .shiftRight, .character(" "))
        #expect(shapes(editor).last.map { !$0.filled && $0.kind == .line } == true)
    }

    @Test func pressDragReleaseDrawsABoxAndClicksPlaceAPolygonsCorners() throws {
        var editor = EditorHarness()
        editor.press(.character("i"), .character("r"))
        editor.send(.mouse(MouseEvent(.press, column: 20, row: 5)))
        editor.send(.mouse(MouseEvent(.drag, column: 25, row: 7)))
        editor.send(.mouse(MouseEvent(.drag, column: 30, row: 10)))
        editor.send(.mouse(MouseEvent(.release, column: 30, row: 10)))
        let viewport = editor.state.viewport(cellPixels: .standard)
        let box = try #require(shapes(editor).first)
        #expect(viewport.cell(for: box.points[0]) == (20, 5) && viewport.cell(for: box.points[1]) == (30, 10))
        editor.press(.character("P"))
        for (column, row) in [(20, 15), (30, 15), (25, 20)] {
            editor.send(.mouse(MouseEvent(.press, column: column, row: row)))
            editor.send(.mouse(MouseEvent(.release, column: column, row: row)))
        }
        #expect(shapes(editor).count == 1, "a polygon is made when Enter ends it")
        editor.press(.enter)
        let polygon = try #require(shapes(editor).last)
        #expect(polygon.kind == .polygon && polygon.points.map { viewport.cell(for: $0) }.map { [$0.column, $0.row] } == [[20, 15], [30, 15], [25, 20]])
    }

    @Test func aShapeIsSelectedNudgedResizedAndRecolouredLikeOtherMarkup() throws {
        var editor = EditorHarness()
        dragWithKeys(&editor, tool: "r", dx: 8, dy: 5)
        editor.press(.escape, .tab)
        let id = try #require(editor.state.selection)
        #expect(editor.screen().lines.joined(separator: "\n").contains("rectangle 2pt red"))
        editor.press(.right, .shiftDown, .character("+"), .character("c"))
        guard case .shape(let moved)? = editor.state.markup.item(id)?.content else { Issue.record("gone"); return }
        #expect(moved.points == [Point(x: 101, y: 110), Point(x: 181, y: 160)])
        #expect(moved.width == 3 && moved.color == .purple)
        // Enter writes a comment on it (MarkupCommentTests); Esc leaves that.
        editor.press(.enter)
        guard case .commenting = editor.state.focus else { Issue.record("no comment: \(editor.state.focus)"); return }
        editor.press(.escape, .character("x"))
        #expect(shapes(editor).isEmpty)
        editor.press(.character("u"))
        #expect(shapes(editor).first == moved)
    }
}

/// A comment written on one's own ink, mark or shape (Enter on it, as on a highlight in Acrobat): its annotation's
/// /Contents once saved.
@Suite struct MarkupCommentTests {
    func drawnRectangle() -> EditorHarness {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 100, y: 100)
        editor.press(.character("i"), .character("r"), .character(" "), .shiftRight, .shiftDown, .character(" "), .escape, .tab)
        return editor
    }

    @Test func enterOnASelectedShapeWritesACommentOnIt() throws {
        var editor = drawnRectangle()
        let id = try #require(editor.state.selection)
        editor.press(.enter)
        editor.type("Rewrite this")
        #expect(editor.screen().lines.contains { $0.hasPrefix("Comment: Rewrite this") })
        // Journaled while typed.
        #expect(editor.state.journalEdits.markup.item(id)?.comment == "Rewrite this")
        #expect(editor.state.markup.item(id)?.comment == nil)
        editor.press(.enter)
        #expect(editor.state.markup.item(id)?.comment == "Rewrite this")
        #expect(editor.screen().lines.joined().contains("selected rectangle 2pt red \"Rewrite this\""))
        // Moving and recolouring keep it; undo takes each step back, the comment last.
        editor.press(.right, .character("c"))
        #expect(editor.state.markup.item(id)?.comment == "Rewrite this")
        editor.press(.character("u"), .character("u"), .character("u"))
        #expect(editor.state.markup.item(id)?.comment == nil)
        editor.press(.control("r"))
        #expect(editor.state.markup.item(id)?.comment == "Rewrite this")
    }

    @Test func escLeavesTheCommentAsItWasAndAnEmptyOneRemovesIt() throws {
        var editor = drawnRectangle()
        let id = try #require(editor.state.selection)
        editor.press(.enter)
        editor.type("First")
        editor.press(.enter, .enter)
        editor.type(" and more")
        editor.press(.escape)
        #expect(editor.state.markup.item(id)?.comment == "First")
        editor.press(.enter, .control("u"), .enter)
        #expect(editor.state.markup.item(id)?.comment == nil)
        #expect(editor.state.message == "Comment removed")
    }

    @Test func aTextMarkupIsEditedNotCommented() throws {
        var editor = EditorHarness()
        editor.placeText("Words")
        editor.press(.enter)
        guard case .typing = editor.state.focus else { Issue.record("not editing the text: \(editor.state.focus)"); return }
    }

    @Test func theCommentIsTheAnnotationsContentsAndTheMarkupFilesComment() throws {
        var editor = drawnRectangle()
        editor.press(.enter)
        editor.type("Line one")
        editor.press(.enter)
        let item = try #require(editor.state.markup.items.first)
        let annotation = MarkupAnnotations.annotation(for: item, author: "ann", at: PDFDate(.now, timeZone: .gmt), measuredBy: editor.environment.measurer)
        #expect(annotation.contents == "Line one" && annotation.subtype == .square)
        let file = MarkupFile.encode(editor.state.markup)
        #expect(try MarkupFile.decode(file) == editor.state.markup)
        #expect(editor.state.markup.commentsLostByFlattening(keeping: ":wa") == "1 comment is not in a flattened copy: :wa keeps it")
    }
}

/// Stamps: `s` in ink mode, again for the next standard one, `:stamp WORDS` for the reviewer's own.
@Suite struct StampTests {
    var stamps: (EditorHarness) -> [ShapeMarkup] {
        { editor in editor.state.markup.items.compactMap { if case .shape(let shape) = $0.content, shape.kind == .stamp { shape } else { nil } } }
    }

    @Test func spaceTwiceInPlacePutsTheStampAtItsUsualSizeAndSStepsThroughTheStandardOnes() throws {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 100, y: 100)
        editor.press(.character("i"), .character("s"))
        #expect(editor.screen().lines.joined().contains("stamp APPROVED red, pen up"))
        editor.press(.character("s"), .character(" "), .character(" "))
        let stamp = try #require(stamps(editor).first)
        #expect(stamp.stampName == "NotApproved" && stamp.box == Rect(x: 100, y: 100, width: 150, height: 40))
        // A box of one's own, dragged with the keys.
        editor.press(.character(" "), .shiftRight, .shiftRight, .shiftRight, .shiftRight, .shiftRight, .shiftDown, .shiftDown, .character(" "))
        #expect(stamps(editor).last?.box == Rect(x: 100, y: 100, width: 50, height: 20))
        // Near the page's edge it is kept on the page.
        editor.state.cursor = Point(x: 600, y: 780)
        editor.press(.escape, .character("i"), .character("s"), .character(" "), .character(" "))
        let edge = try #require(stamps(editor).last?.box)
        #expect(edge.maxX <= editor.state.pageSize.width && edge.maxY <= editor.state.pageSize.height && edge.width == 150)
    }

    @Test func theStampCommandTakesTheReviewersOwnWords() throws {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 100, y: 100)
        editor.command("stamp Seen by QA")
        #expect(editor.screen().lines.joined().contains("stamp SEEN BY QA red, pen up"))
        editor.press(.character(" "), .character(" "), .escape)
        #expect(stamps(editor).first?.stampName == "Seen_by_QA")
        editor.command("stamp")
        #expect(editor.state.message?.hasPrefix("A stamp needs words") == true)
    }
}

extension StampTests {
    @Test func aStampsNameIsCheckedAsTheFileWillHoldIt() throws {
        var editor = EditorHarness()
        editor.command("stamp " + String(repeating: "Z", count: 81))
        #expect(editor.state.message?.hasPrefix("Not taken: the stamp's name is too long") == true)
        editor.command("stamp not  approved")
        #expect(editor.screen().lines.joined().contains("stamp NOT APPROVED red"))
        editor.press(.character(" "), .character(" "), .escape)
        #expect(stamps(editor).first?.stampName == "NotApproved", "a standard stamp's words are its name")
    }

    @Test func plusAndMinusGrowAndShrinkASelectedStampWhole() throws {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 100, y: 100)
        editor.press(.character("i"), .character("s"), .character(" "), .character(" "), .escape, .tab, .character("+"))
        #expect(stamps(editor).first?.box == Rect(x: 100, y: 100, width: 187.5, height: 50))
        #expect(stamps(editor).first?.width == 2, "its frame stays as it was")
        editor.press(.character("-"), .character("-"))
        #expect(stamps(editor).first?.box == Rect(x: 100, y: 100, width: 120, height: 32))
    }
}
