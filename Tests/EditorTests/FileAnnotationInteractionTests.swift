import Editor
import Foundation
import RedlineCore
import TerminalGrid
import Testing

/// The interaction components govern the file's annotations as they govern the session's markup: every way to
/// select, move, restyle, reword, delete or let go of one asks its component, a refusal leaves it as it was and
/// is said, and every activation and refusal is reported for `--events`.
@Suite struct FileAnnotationInteractionTests {
    /// Bob's square and Eve's ink on page 1, a square of Alice's (the reviewer) on page 2.
    static func document() -> [Annotation] {
        [
            Annotation(id: "bob", pageIndex: 0, subtype: "Square", rect: Rect(x: 300, y: 400, width: 80, height: 40), author: "Bob",
                       contents: "Check", flags: 4, order: 0, drawing: AnnotationDrawing(color: RGBColor(red: 255, green: 0, blue: 0), lineWidth: 2)),
            Annotation(id: "note", pageIndex: 0, subtype: .freeText, rect: Rect(x: 100, y: 100, width: 80, height: 20), author: "Eve",
                       contents: "Typed", flags: 4, order: 1, drawing: AnnotationDrawing(color: RGBColor(red: 0, green: 0, blue: 0), fontSize: 12)),
            Annotation(id: "mine", pageIndex: 1, subtype: "Square", rect: Rect(x: 300, y: 400, width: 80, height: 40), author: "Alice",
                       flags: 4, order: 2, drawing: AnnotationDrawing(color: RGBColor(red: 255, green: 0, blue: 0), lineWidth: 2)),
        ]
    }

    func editor() -> EditorHarness {
        var editor = EditorHarness(columns: 120, rows: 40, annotations: Self.document())
        editor.environment.interactions.reportsActivations = true
        return editor
    }

    func selected(_ editor: EditorHarness) -> String? { editor.state.interaction.selectedAnnotation?.rawValue }

    func rect(_ id: AnnotationID, _ editor: EditorHarness) -> Rect? { editor.state.annotations.first { $0.id == id }?.rect }

    /// What the effects report for `--events`.
    static func reports(_ effects: [EditorEffect]) -> [InteractionReport] {
        effects.compactMap { if case .interactionReported(let report) = $0 { report } else { nil } }
    }

    @discardableResult
    func click(_ editor: inout EditorHarness, at point: Point) -> [EditorEffect] {
        let area = editor.state.layout.pageArea
        let cell = editor.state.viewport(cellPixels: editor.environment.cellPixels).cell(for: point)
        return editor.send(.mouse(MouseEvent(.press, column: area.column + cell.column, row: area.row + cell.row)))
            + editor.send(.mouse(MouseEvent(.release, column: area.column + cell.column, row: area.row + cell.row)))
    }

    @discardableResult
    func drag(_ editor: inout EditorHarness, from start: Point, to end: Point) -> [EditorEffect] {
        let area = editor.state.layout.pageArea
        let viewport = editor.state.viewport(cellPixels: editor.environment.cellPixels)
        let (a, b) = (viewport.cell(for: start), viewport.cell(for: end))
        return editor.send(.mouse(MouseEvent(.press, column: area.column + a.column, row: area.row + a.row)))
            + editor.send(.mouse(MouseEvent(.drag, column: area.column + b.column, row: area.row + b.row)))
            + editor.send(.mouse(MouseEvent(.release, column: area.column + b.column, row: area.row + b.row)))
    }

    /// Tab passes over what selecting refuses, and each one passed over is reported refused for `--events`, with
    /// the annotation it was about, while the message line stays the selection's. Forward and back alike.
    @Test func tabReportsWhatItPassesOver() {
        var editor = editor()
        editor.environment.interactions.selectAnnotation.addActivationCondition(.kindsNot(["free-text"]))
        var effects = editor.press(.tab)
        #expect(selected(editor) == "bob")
        var refused = Self.reports(effects).filter { $0.outcome == .refused }
        #expect(refused.map { $0.annotation?.id } == ["note"], "the box before Bob's square, passed over")
        #expect(refused.first?.reason == "condition 1 (kinds_not)")
        #expect(Self.reports(effects).contains { $0.outcome == .activated && $0.annotation?.id == "bob" })
        #expect(editor.state.message?.contains("refused") != true, "the line says the selection, not the skip")
        effects = editor.press(.backTab)
        refused = Self.reports(effects).filter { $0.outcome == .refused }
        #expect(selected(editor) == "bob", "Bob's square is the only one Tab stops at")
        #expect(refused.map { $0.annotation?.id } == ["note"], "passed over again on the way round")
    }

    /// `author = "self"` on moving: the reviewer's own square moves, another reviewer's does not, by keys or by the
    /// mouse, and the refusal is said and reported with the annotation it was about.
    @Test func aConditionOnMovingHoldsForTheFilesAnnotations() {
        var editor = editor()
        editor.environment.interactions.transformAnnotation.addActivationCondition(.author(.self))
        editor.press(.tab)
        #expect(selected(editor) == "note")
        editor.press(.tab)
        #expect(selected(editor) == "bob")
        var effects = editor.press(.right)
        #expect(editor.state.message?.contains("transformAnnotation refused by its condition 1 (author)") == true)
        effects += editor.press(.shiftDown)
        let kept = Rect(x: 300, y: 400, width: 80, height: 40)
        #expect(rect("bob", editor) == kept, "another reviewer's square stays")
        effects += drag(&editor, from: Point(x: 340, y: 420), to: Point(x: 240, y: 320))
        #expect(rect("bob", editor) == kept, "nor by a drag")
        effects += editor.press(.character("+"))
        #expect(rect("bob", editor) == kept)
        let refused = Self.reports(effects).filter { $0.outcome == .refused && $0.component == .transformAnnotation }
        #expect(refused.count == 4, "two keys, a drag, a size step")
        for report in refused {
            #expect(report.annotation?.id == "bob")
            #expect(report.annotation?.isMarkup == false)
            #expect(report.annotation?.author == "Bob")
        }

        editor.press(.escape, .pageDown)
        editor.press(.tab)
        #expect(selected(editor) == "mine")
        let moved = editor.press(.right)
        #expect(rect("mine", editor) == Rect(x: 301, y: 400, width: 80, height: 40), "the reviewer's own square moves")
        #expect(Self.reports(moved).map(\.outcome) == [.activated])
    }

    /// `pages_not = [1]` on selecting: Tab passes over the file's annotations on page 1, a click does not select them,
    /// and on page 2 both work.
    @Test func aConditionOnSelectingHoldsForTheFilesAnnotations() {
        var editor = editor()
        editor.environment.interactions.selectAnnotation.addActivationCondition(.pagesNot([0]))
        editor.press(.tab)
        #expect(selected(editor) == nil)
        #expect(editor.state.message?.contains("selectAnnotation refused by its condition 1 (pages_not)") == true)
        click(&editor, at: Point(x: 340, y: 420))
        #expect(selected(editor) == nil)
        editor.press(.escape, .pageDown)
        editor.press(.tab)
        #expect(selected(editor) == "mine")
        editor.press(.escape)
        click(&editor, at: Point(x: 340, y: 420))
        #expect(selected(editor) == "mine")
    }

    /// Switched off, each component stops what it governs on the file's annotations too.
    @Test func componentsSwitchedOffStopTheirInteractionsOnTheFilesAnnotations() {
        // Editing: words, colour and deletion.
        var editing = editor()
        editing.environment.interactions.editAnnotation.isEnabled = false
        editing.press(.tab)
        #expect(selected(editing) == "note")
        editing.press(.enter)
        #expect(editing.state.interaction.panel == nil, "no edit line opens")
        #expect(editing.state.message == "editAnnotation is switched off (said once)")
        editing.press(.character("c"), .character("x"))
        #expect(editing.state.annotations.first { $0.id == "note" }?.drawing.color == RGBColor(red: 0, green: 0, blue: 0))
        #expect(editing.state.annotations.contains { $0.id == "note" }, "not deleted")
        // The list's delete asks it too.
        editing.press(.character("a"))
        editing.press(.character("x"))
        #expect(editing.state.annotations.contains { $0.id == "note" } && editing.state.annotations.contains { $0.id == "bob" })

        // Letting go.
        var deselecting = editor()
        deselecting.environment.interactions.deselectAnnotation.isEnabled = false
        deselecting.press(.tab)
        deselecting.press(.escape)
        #expect(selected(deselecting) == "note", "Esc keeps it")
        click(&deselecting, at: Point(x: 500, y: 700))
        #expect(selected(deselecting) == "note", "a click beside keeps it")

        // Selecting, and the composite.
        var selecting = editor()
        selecting.environment.interactions.allAnnotationInteractions.isEnabled = false
        selecting.press(.tab)
        click(&selecting, at: Point(x: 340, y: 420))
        #expect(selected(selecting) == nil)
    }

    /// One rule for markup and annotations: `c` and `x` on the session's markup ask editAnnotation as on the file's.
    @Test func colourAndDeletionAskEditAnnotationForMarkupToo() {
        var editor = editor()
        editor.placeText("Mine")
        editor.press(.escape, .tab)
        let id = try! #require(editor.state.selection)
        editor.environment.interactions.editAnnotation.isEnabled = false
        let before = editor.state.markup.item(id)
        editor.press(.character("c"), .character("x"))
        #expect(editor.state.markup.item(id) == before)
    }

    /// Either/or: "my own anywhere, or others' on page 1 only" as one condition with alternatives.
    @Test func alternativesLetOneOfSeveralRulesAllow() {
        var editor = editor()
        let othersOnPageOne = ActivationCondition.all([.author(.others), .pages([0])], name: "alternative")
        editor.environment.interactions.transformAnnotation.addActivationCondition(.any([.author(.self), othersOnPageOne]))
        editor.press(.tab, .tab, .right)
        #expect(rect("bob", editor) == Rect(x: 301, y: 400, width: 80, height: 40), "Bob's, on page 1")
        editor.press(.escape, .pageDown)
        editor.press(.tab, .right)
        #expect(rect("mine", editor) == Rect(x: 301, y: 400, width: 80, height: 40), "Alice's own, on page 2")
    }
}
