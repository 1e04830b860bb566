import Foundation
import Editor
import RedlineCore
import TerminalGrid
import Testing

/// The annotations a file already has, edited on the page through the state machine: Tab reaches them after the
/// session's markup, arrows move them (a held key is one undo step), x deletes them with their thread, and what
/// the file forbids is refused with the reason.
@Suite struct FileAnnotationEditingTests {
    static func document(flags: Int = 4) -> [Annotation] {
        [
            Annotation(id: "square", pageIndex: 0, subtype: "Square", rect: Rect(x: 300, y: 400, width: 80, height: 40),
                       author: "Bob", contents: "Check this box", flags: flags, order: 0,
                       drawing: AnnotationDrawing(color: RGBColor(red: 255, green: 0, blue: 0), lineWidth: 2)),
            Annotation(id: "ink", pageIndex: 0, subtype: .ink, rect: Rect(x: 100, y: 100, width: 50, height: 30), author: "Eve",
                       flags: 4, order: 1, drawing: AnnotationDrawing(inkList: [[Point(x: 100, y: 100), Point(x: 150, y: 130)]])),
            Annotation(id: "reply", pageIndex: 0, subtype: .text, rect: Rect(x: 300, y: 400, width: 80, height: 40),
                       author: "Carol", contents: "Agreed", inReplyTo: "square", flags: 28, order: 2),
            Annotation(id: "link", pageIndex: 0, subtype: .link, rect: Rect(x: 10, y: 10, width: 50, height: 10), order: 3),
        ]
    }

    func editor(flags: Int = 4, allowsChanges: Bool = true) -> EditorHarness {
        var editor = EditorHarness(columns: 120, rows: 40, annotations: Self.document(flags: flags))
        editor.state.document.allowsAnnotationChanges = allowsChanges
        return editor
    }

    func annotation(_ id: AnnotationID, _ editor: EditorHarness) -> Annotation? {
        editor.state.annotations.first { $0.id == id }
    }

    @Test func tabReachesTheFilesAnnotationsAfterTheMarkupInReadingOrderPassingRepliesAndLinks() {
        var editor = editor()
        editor.placeText("Mine")
        editor.press(.escape)
        var stops: [String] = []
        for _ in 0..<4 {
            editor.press(.tab)
            stops.append(editor.state.interaction.selectedAnnotation?.rawValue ?? editor.state.selection.map { _ in "markup" } ?? "none")
        }
        #expect(stops == ["markup", "ink", "square", "markup"])
        editor.press(.tab, .tab)
        #expect(editor.state.message == "Square · by Bob · \"Check this box\"")
        editor.press(.escape)
        #expect(editor.state.interaction.selectedAnnotation == nil)
    }

    /// A journal holding only moves asks about them by number, restores them, and declined says changes, not markup.
    @Test func aJournalOfMovesIsNamedInTheRestoreQuestion() throws {
        var moving = editor()
        moving.press(.tab, .tab, .right, .down)
        let journaled = moving.state.edits
        try #require(!journaled.annotations.moved.isEmpty)

        var declining = editor()
        declining.send(.journalFound(journaled))
        #expect(declining.screen().lines.joined().contains("Unsaved changes (1 annotation change) from an earlier session"))
        declining.press(.character("n"))
        #expect(declining.state.message == "Earlier unsaved changes not restored")

        var restoring = editor()
        restoring.send(.journalFound(journaled))
        restoring.press(.character("y"))
        #expect(annotation("square", restoring)?.rect == Rect(x: 301, y: 401, width: 80, height: 40))
        #expect(restoring.state.message == "Restored the unsaved annotation changes")
    }

    /// Saving moves alone speaks of changes, not of markup that was never there.
    @Test func savingOnlyMovesSpeaksOfChangesNotMarkup() throws {
        var editor = editor()
        editor.press(.tab, .tab, .right)
        guard case .save(let request)? = editor.command("w!").first else { Issue.record("no save"); return }
        editor.send(.saveFinished(.failed(path: request.destination, reason: "No space left on device (while writing)")))
        #expect(editor.state.message == "Not saved: No space left on device (while writing) · \(request.destination.split(separator: "/").last!) · your changes are kept")
        editor.send(.saveFinished(.savedOverOriginal(path: request.destination, edits: request.edits, document: editor.state.document)))
        #expect(editor.state.message == "Saved over \(request.destination) · the changes are in the file now: undo starts here")
        #expect(editor.state.interaction.selectedAnnotation == nil)
    }

    @Test func arrowsMoveTheSelectedAnnotationWithItsRepliesAndAHeldKeyIsOneUndo() throws {
        var editor = editor()
        editor.press(.tab, .tab)
        try #require(editor.state.interaction.selectedAnnotation == "square")
        editor.press(.right, .right, .right, .character("J"))
        let moved = try #require(annotation("square", editor))
        #expect(moved.rect == Rect(x: 303, y: 410, width: 80, height: 40))
        #expect(editor.state.message == "Square · by Bob · \"Check this box\" · moved 3 pt right, 10 pt down",
                "the message line still names what moves, and says how far")
        #expect(annotation("reply", editor)?.rect == moved.rect, "the reply goes with what it answers")
        #expect(editor.state.isDirty)
        #expect(editor.state.scene(environment: editor.environment).highlight == moved.rect, "the outline follows")
        editor.press(.character("u"))
        #expect(annotation("square", editor)?.rect == Rect(x: 300, y: 400, width: 80, height: 40), "one undo takes the whole run back")
        #expect(editor.state.message == "Undone: the move of the square")
        #expect(!editor.state.isDirty)
        _ = editor.send(.keyPressed(.control("r")))
        #expect(annotation("square", editor)?.rect == Rect(x: 303, y: 410, width: 80, height: 40), "redo puts it back")
    }

    /// A click selects an annotation of the file as it selects markup; a drag moves it with the pointer, its reply
    /// along, as one step to undo; a click beside it lets it go.
    @Test func theMouseSelectsAndDragsAnAnnotationOfTheFile() throws {
        var editor = editor()
        let viewport = editor.state.viewport(cellPixels: .standard)
        let start = viewport.cell(for: Point(x: 340, y: 420))
        editor.send(.mouse(MouseEvent(.press, column: start.column, row: start.row)))
        #expect(editor.state.interaction.selectedAnnotation == "square")
        #expect(editor.state.message == "Square · by Bob · \"Check this box\"")
        editor.send(.mouse(MouseEvent(.drag, column: start.column + 3, row: start.row + 1)))
        editor.send(.mouse(MouseEvent(.drag, column: start.column + 6, row: start.row + 2)))
        editor.send(.mouse(MouseEvent(.release, column: start.column + 6, row: start.row + 2)))
        let span = viewport.pointsPerCell
        let moved = try #require(annotation("square", editor))
        #expect(abs(moved.rect.minX - (300 + 6 * span.width)) < 1e-6 && abs(moved.rect.minY - (400 + 2 * span.height)) < 1e-6,
                "\(moved.rect)")
        #expect(annotation("reply", editor)?.rect == moved.rect)
        #expect(editor.state.message?.hasPrefix("Square · by Bob · \"Check this box\" · moved ") == true, "\(editor.state.message ?? "")")
        editor.press(.character("u"))
        #expect(annotation("square", editor)?.rect == Rect(x: 300, y: 400, width: 80, height: 40), "one drag, one undo")
        let beside = viewport.cell(for: Point(x: 200, y: 600))
        editor.send(.mouse(MouseEvent(.press, column: beside.column, row: beside.row)))
        editor.send(.mouse(MouseEvent(.drag, column: beside.column + 2, row: beside.row)))
        editor.send(.mouse(MouseEvent(.release, column: beside.column + 2, row: beside.row)))
        #expect(editor.state.interaction.selectedAnnotation == nil)
        #expect(annotation("square", editor)?.rect == Rect(x: 300, y: 400, width: 80, height: 40), "a drag elsewhere moves nothing")
    }

    /// `c` recolours the selected annotation of the file, `+` and `-` step a text box's size, Enter edits a text
    /// box's or a note's words on the annotation list's edit line; each is one undo step, and the page shows it.
    @Test func colourSizeAndWordsOfAnAnnotationOfTheFile() throws {
        let box = Annotation(id: "box", pageIndex: 0, subtype: .freeText, rect: Rect(x: 100, y: 600, width: 120, height: 20),
                             author: "Dan", contents: "Old words", flags: 4, order: 4,
                             drawing: AnnotationDrawing(color: RGBColor(red: 255, green: 0, blue: 0), fontSize: 12))
        var editor = EditorHarness(columns: 120, rows: 40, annotations: Self.document() + [box])
        editor.press(.tab, .tab, .tab)
        try #require(editor.state.interaction.selectedAnnotation == "box")
        editor.press(.character("c"))
        let recoloured = try #require(annotation("box", editor)?.drawing.color)
        #expect(recoloured != RGBColor(red: 255, green: 0, blue: 0))
        #expect(editor.state.message?.hasPrefix("FreeText") == true || editor.state.message?.contains("Dan") == true, "\(editor.state.message ?? "")")
        let outlined = try #require(editor.state.scene(environment: editor.environment).highlight)
        editor.press(.character("+"))
        #expect(annotation("box", editor)?.drawing.fontSize == 14)
        let grown = try #require(editor.state.scene(environment: editor.environment).highlight)
        #expect(grown.width > outlined.width && grown.height > outlined.height, "the outline follows the bigger words: \(outlined) to \(grown)")
        #expect(editor.state.scene(environment: editor.environment).annotationEdits.restyled["box"]?.fontSize == 14, "the page shows it")
        editor.press(.enter)
        guard case .annotations(let panel)? = editor.state.interaction.panel, case .edit("box", let text)? = panel.input else {
            Issue.record("the edit line opens with its words"); return
        }
        #expect(text == "Old words")
        editor.press(.control("u"))
        for character in "New words" { editor.press(.character(character)) }
        editor.press(.enter)
        #expect(annotation("box", editor)?.contents == "New words")
        #expect(editor.state.message == "Text changed")
        #expect(editor.state.scene(environment: editor.environment).annotationEdits.changedContents["box"]?.contents == "New words")
        editor.press(.escape)
        editor.press(.character("u"))
        #expect(annotation("box", editor)?.contents == "Old words", "one undo, the words")
        editor.press(.character("u"), .character("u"))
        #expect(annotation("box", editor)?.drawing == box.drawing, "two more, the size and the colour")
        #expect(!editor.state.isDirty)

        // A square has no size, and the locked refuse.
        editor.press(.escape, .tab, .tab)
        try #require(editor.state.interaction.selectedAnnotation == "square")
        editor.press(.character("+"))
        #expect(editor.state.message == "Not changed: annotation \"square\" is a square: its size stays as it is")
        // Its comment (its popup's text) is edited as a note's words are.
        editor.press(.enter)
        guard case .edit("square", _)? = editor.state.interaction.annotationPanel?.input else {
            Issue.record("no edit line for the square's comment: \(String(describing: editor.state.message))"); return
        }
    }

    /// A filled text box keeps its /Rect and readers wrap its words inside it: words (or a size) it will likely not
    /// hold are kept, with a warning, since nothing else would tell the reviewer that readers cut them.
    @Test func wordsAFilledBoxMayNotHoldAreKeptWithAWarning() throws {
        var drawing = AnnotationDrawing(color: RGBColor(red: 0, green: 0, blue: 255), fontSize: 12)
        drawing.background = RGBColor(red: 255, green: 255, blue: 0)
        let box = Annotation(id: "filled", pageIndex: 0, subtype: .freeText, rect: Rect(x: 100, y: 600, width: 100, height: 20),
                             author: "Dan", contents: "Short", flags: 4, order: 4, drawing: drawing)
        var editor = EditorHarness(columns: 120, rows: 40, annotations: Self.document() + [box])
        editor.press(.tab, .tab, .tab)
        try #require(editor.state.interaction.selectedAnnotation == "filled")
        editor.press(.enter, .control("u"))
        for character in "Still short" { editor.press(.character(character)) }
        editor.press(.enter)
        #expect(editor.state.message == "Text changed")
        editor.press(.enter, .control("u"))
        for character in "Many more words than a box this small could ever hold" { editor.press(.character(character)) }
        editor.press(.enter)
        #expect(annotation("filled", editor)?.contents == "Many more words than a box this small could ever hold")
        #expect(editor.state.message == "Text changed · its box grows down to hold every line (readers wrap the words inside it)")
        editor.press(.character("+"))
        #expect(editor.state.message?.hasSuffix("14 pt · its box grows down to hold every line (readers wrap the words inside it)") == true,
                "\(editor.state.message ?? "")")
    }

    /// A text box without words has nothing to show in a new colour or size: the refusal says so, and how to give it
    /// words, which then take a colour.
    @Test func anEmptyTextBoxSaysWhyItKeepsItsLook() throws {
        let empty = Annotation(id: "empty", pageIndex: 0, subtype: .freeText, rect: Rect(x: 100, y: 600, width: 20, height: 12),
                               author: "Dan", flags: 4, order: 4, drawing: AnnotationDrawing(fontSize: 12))
        var editor = EditorHarness(columns: 120, rows: 40, annotations: Self.document() + [empty])
        editor.press(.tab, .tab, .tab)
        try #require(editor.state.interaction.selectedAnnotation == "empty")
        editor.press(.character("c"))
        #expect(editor.state.message == "Not changed: annotation \"empty\" is an empty text box: its colour stays as it is until it has words (Enter gives it some)")
        editor.press(.character("+"))
        #expect(editor.state.message == "Not changed: annotation \"empty\" is an empty text box: its size stays as it is until it has words (Enter gives it some)")
        #expect(!editor.state.isDirty)
        editor.press(.enter)
        for character in "Words" { editor.press(.character(character)) }
        editor.press(.enter)
        editor.press(.character("c"))
        #expect(annotation("empty", editor)?.contents == "Words", "\(editor.state.message ?? "")")
        #expect(annotation("empty", editor)?.drawing.color != nil, "with words it takes a colour: \(editor.state.message ?? "")")
    }

    /// A text box stays on the page: a size step or words that would take it past the edge are refused, and the edit
    /// line stays open; what is being typed there is in the crash journal; the edit line opened from the page closes
    /// when the edit ends and leaves the keys to the page; a restore question counts new looks.
    @Test func aTextBoxOfTheFileStaysOnThePageAndItsWordsAreJournaled() throws {
        let box = Annotation(id: "box", pageIndex: 0, subtype: .freeText, rect: Rect(x: 420, y: 600, width: 120, height: 20),
                             author: "Dan", contents: "Near the edge", flags: 4, order: 4,
                             drawing: AnnotationDrawing(color: RGBColor(red: 255, green: 0, blue: 0), fontSize: 12))
        var editor = EditorHarness(columns: 120, rows: 40, annotations: Self.document() + [box])
        editor.press(.tab, .tab, .tab)
        try #require(editor.state.interaction.selectedAnnotation == "box")
        for _ in 0..<8 { editor.press(.character("+")) }
        let size = try #require(annotation("box", editor)?.drawing.fontSize)
        #expect(size > 12 && size < 48, "grew while it fitted: \(size)")
        #expect(editor.state.message?.hasPrefix("Not changed: at ") == true && editor.state.message?.hasSuffix("would reach past the page's edge (move the box first)") == true,
                "\(editor.state.message ?? "")")
        editor.press(.enter)
        editor.press(.control("u"))
        for character in "Words far too long to stay on this page at all" { editor.press(.character(character)) }
        let typing = editor.state.journalEdits.annotations.changedContents["box"]?.contents
        #expect(typing == "Words far too long to stay on this page at all", "the words being typed are journaled")
        editor.press(.enter)
        #expect(editor.state.message?.contains("would reach past the page's edge") == true, "\(editor.state.message ?? "")")
        #expect(editor.state.interaction.annotationPanel?.input != nil, "the edit line stays open to shorten them")
        let bottom = editor.screen().text(ofRow: 39)
        #expect(bottom.hasPrefix("Edit text: ") && bottom.contains("at all▏") && bottom.contains("would reach past the page's edge"),
                "the edit line says why beside the words: \(bottom)")
        editor.press(.backspace)
        #expect(!editor.screen().text(ofRow: 39).contains("Not changed"), "typing on, the refusal gives way to the keys")
        editor.press(.control("u"))
        for character in "Short" { editor.press(.character(character)) }
        editor.press(.enter)
        #expect(annotation("box", editor)?.contents == "Short")
        #expect(editor.state.interaction.panel == nil, "back to the page")
        editor.press(.character("c"))
        #expect(annotation("box", editor)?.drawing.color != RGBColor(red: 255, green: 0, blue: 0), "the page has the keys again")

        var restoring = EditorHarness(columns: 120, rows: 40, annotations: Self.document() + [box])
        restoring.send(.journalFound(editor.state.edits))
        #expect(restoring.screen().lines.joined().contains("Unsaved changes (2 annotation changes)"), "the words and the new look")
    }

    @Test func anAnnotationStaysOnItsPage() throws {
        var editor = editor()
        editor.press(.tab)
        try #require(editor.state.interaction.selectedAnnotation == "ink")
        for _ in 0..<30 { editor.press(.character("H"), .character("K")) }
        #expect(annotation("ink", editor)?.rect.minX == 0 && annotation("ink", editor)?.rect.minY == 0)
        #expect(annotation("ink", editor)?.drawing.inkList == [[Point(x: 0, y: 0), Point(x: 50, y: 30)]], "its ink goes along")
        #expect(editor.state.message == "Ink · by Eve · moved 100 pt left, 100 pt up · at the page's edge", "an arrow that cannot move it says why")
    }

    /// Tab keeps the order of where the file has the annotations: moving the first below the second does not make
    /// the next Tab skip the second.
    @Test func tabKeepsItsOrderWhenAnAnnotationMoves() throws {
        let circle = Annotation(id: "circle", pageIndex: 0, subtype: "Circle", rect: Rect(x: 100, y: 600, width: 40, height: 40),
                                author: "Dan", flags: 4, order: 4)
        var editor = EditorHarness(columns: 120, rows: 40, annotations: Self.document() + [circle])
        editor.press(.tab)
        try #require(editor.state.interaction.selectedAnnotation == "ink")
        for _ in 0..<40 { editor.press(.character("J")) }
        #expect((annotation("ink", editor)?.rect.minY ?? 0) > 400, "moved below the square")
        editor.press(.tab)
        #expect(editor.state.interaction.selectedAnnotation == "square")
    }

    /// After `x`, Tab goes on to what followed the deleted annotation, as it would have before.
    @Test func tabAfterADeletionGoesOnFromWhereTheAnnotationStood() throws {
        let circle = Annotation(id: "circle", pageIndex: 0, subtype: "Circle", rect: Rect(x: 100, y: 600, width: 40, height: 40),
                                author: "Dan", flags: 4, order: 4)
        var editor = EditorHarness(columns: 120, rows: 40, annotations: Self.document() + [circle])
        editor.press(.tab, .tab)
        try #require(editor.state.interaction.selectedAnnotation == "square")
        editor.press(.character("x"), .tab)
        #expect(editor.state.interaction.selectedAnnotation == "circle")
        editor.press(.character("x"), .tab)
        #expect(editor.state.interaction.selectedAnnotation == "ink", "past the last, round to the first")
        editor.press(.escape, .tab)
        #expect(editor.state.interaction.selectedAnnotation == "ink", "with nothing deleted, Tab starts at the first")
        // S-Tab after `x` goes back to what stood before the deleted one.
        var back = EditorHarness(columns: 120, rows: 40, annotations: Self.document() + [circle])
        back.press(.tab, .tab, .tab)
        try #require(back.state.interaction.selectedAnnotation == "circle")
        back.press(.character("x"), .backTab)
        #expect(back.state.interaction.selectedAnnotation == "square")
    }

    @Test func deletingTakesTheThreadAndUndoBringsItBack() throws {
        var editor = editor()
        editor.press(.tab, .tab, .character("x"))
        #expect(annotation("square", editor) == nil && annotation("reply", editor) == nil)
        #expect(editor.state.message == "Deleted the square with 1 reply (u undoes)")
        #expect(editor.state.scene(environment: editor.environment).annotationEdits.deleted == ["square", "reply"],
                "the page is drawn without them")
        editor.press(.character("u"))
        #expect(annotation("square", editor) != nil && annotation("reply", editor) != nil)
    }

    @Test(arguments: [(64, "read-only"), (128, "locked")])
    func readOnlyAndLockedAnnotationsRefuseToMove(flags: Int, word: String) throws {
        var editor = editor(flags: 4 | flags)
        editor.press(.tab, .tab)
        #expect(editor.state.message?.hasSuffix(word) == true, "\(editor.state.message ?? "")")
        editor.press(.right)
        #expect(editor.state.message?.hasPrefix("Not moved: annotation \"square\" is \(word)") == true, "\(editor.state.message ?? "")")
        editor.press(.character("x"))
        #expect(editor.state.message?.hasPrefix("Not deleted: annotation \"square\" is \(word)") == true, "\(editor.state.message ?? "")")
        #expect(annotation("square", editor)?.rect == Rect(x: 300, y: 400, width: 80, height: 40) && !editor.state.isDirty)
    }

    @Test func aDocumentThatForbidsAnnotationChangesSaysSo() {
        var editor = editor(allowsChanges: false)
        editor.press(.tab, .right)
        #expect(editor.state.message == "Not moved: contract.pdf: the document's permissions do not allow changing annotations")
        #expect(!editor.state.isDirty)
    }

    @Test func aMoveSurvivesTheJournal() throws {
        var editor = editor()
        editor.press(.tab, .tab, .right, .down)
        let journaled = editor.state.journalOperations
        let data = try JSONEncoder().encode(journaled)
        let restored = try JSONDecoder().decode([DocumentOperation].self, from: data)
        var replayed = DocumentEdits()
        for operation in restored { replayed.apply(operation, bookmarkBase: BookmarkList()) }
        #expect(replayed.annotations.applied(to: Self.document()).first { $0.id == "square" }?.rect == Rect(x: 301, y: 401, width: 80, height: 40))
    }
}
