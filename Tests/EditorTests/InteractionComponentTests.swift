import Editor
import Foundation
import RedlineCore
import TerminalGrid
import Testing

/// Calls seen by conditions and callbacks, in order: they run inside the reducer, on the test's thread.
final class CallLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    func add(_ entry: String) { lock.withLock { entries.append(entry) } }
    var all: [String] { lock.withLock { entries } }
    func clear() { lock.withLock { entries = [] } }
}

/// The interaction components in the reducer: switched off, composites, conditions in order, callbacks,
/// `canActivate`, the user's bindings before and beside a component, and the `try…` verbs.
@Suite struct InteractionComponentTests {
    /// A text markup at (200, 300) and an ink box from (100, 100), neither selected.
    func editorWithMarkup() -> EditorHarness {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 200, y: 300)
        editor.placeText("Note")
        editor.state.cursor = Point(x: 100, y: 100)
        editor.press(.character("i"), .character(" "))
        for _ in 0..<5 { editor.press(.shiftRight) }
        for _ in 0..<3 { editor.press(.shiftDown) }
        editor.press(.enter, .escape, .escape)
        return editor
    }

    func cell(_ editor: EditorHarness, _ point: Point) -> (column: Int, row: Int) {
        let area = editor.state.layout.pageArea
        let cell = editor.state.viewport(cellPixels: editor.environment.cellPixels).cell(for: point)
        return (area.column + cell.column, area.row + cell.row)
    }

    func click(_ editor: inout EditorHarness, at point: Point) {
        let (column, row) = cell(editor, point)
        editor.send(.mouse(MouseEvent(.press, column: column, row: row)))
        editor.send(.mouse(MouseEvent(.release, column: column, row: row)))
    }

    func kind(_ editor: EditorHarness) -> String? {
        editor.state.selection.flatMap { editor.state.markup.item($0) }.map {
            if case .ink = $0.content { "ink" } else { "text" }
        }
    }

    @Test func everythingIsEnabledByDefault() {
        var editor = editorWithMarkup()
        #expect(editor.environment.interactions.allInteractions.isEnabled)
        editor.press(.tab)
        #expect(editor.state.selection != nil)
        #expect(editor.state.message == nil)
    }

    @Test func aComponentSwitchedOffDoesNothingAndSaysWhichOnce() {
        var editor = editorWithMarkup()
        editor.environment.interactions.selectAnnotation.isEnabled = false
        editor.press(.tab)
        #expect(editor.state.selection == nil)
        #expect(editor.state.message?.contains("selectAnnotation is switched off") == true)
        editor.press(.tab)
        #expect(editor.state.selection == nil)
        #expect(editor.state.message == nil, "said once")
        click(&editor, at: Point(x: 205, y: 305))
        #expect(editor.state.selection == nil, "a click does not select either")
        // Other components go on working.
        editor.press(.character("F"))
        #expect(editor.state.chrome.hidesInterface)
    }

    @Test func deselectingIsAComponentToo() {
        var editor = editorWithMarkup()
        editor.press(.tab)
        let selected = editor.state.selection
        #expect(selected != nil)
        let deselect = editor.environment.interactions.deselectAnnotation
        deselect.isEnabled = false
        editor.press(.escape)
        #expect(editor.state.selection == selected, "Esc is refused")
        #expect(editor.state.message?.contains("deselectAnnotation is switched off") == true)
        click(&editor, at: Point(x: 400, y: 500))
        #expect(editor.state.selection == selected, "a click beside it is refused too")
        deselect.isEnabled = true
        deselect.addActivationCondition { context, point, space in
            // Esc asks at the markup's middle, in display points.
            space.kind == .display && context.annotation.map { $0.rect.contains(point) } == true
        }
        editor.press(.escape)
        #expect(editor.state.selection == nil)
    }

    @Test func editingYourOwnReplyIsEditAnnotations() {
        let note = Annotation(id: "n1", pageIndex: 0, subtype: .text, rect: Rect(x: 100, y: 100, width: 20, height: 20),
                              author: "Bob", contents: "Check this")
        let reply = Annotation(id: "r1", pageIndex: 0, subtype: .text, rect: Rect(x: 100, y: 100, width: 20, height: 20),
                               author: "Alice", contents: "Done", inReplyTo: "n1", replyType: .reply)
        var editor = EditorHarness(annotations: [note, reply])
        editor.environment.interactions.editAnnotation.addActivationCondition(.kindsNot(["note"]))
        editor.press(.character("a"), .character("j"))
        editor.press(.character("e"))
        #expect(editor.state.message?.contains("editAnnotation refused") == true, "\(editor.state.message ?? "")")
        #expect(editor.state.interaction.annotationPanel?.input == nil)
    }

    @Test func compositesSetAndAskEveryMember() {
        var editor = editorWithMarkup()
        let interactions = editor.environment.interactions
        interactions.allAnnotationInteractions.isEnabled = false
        for name in InteractionCompositeName.allAnnotationInteractions.members { #expect(!interactions[name].isEnabled) }
        #expect(interactions.smartZoom.isEnabled && interactions.selectText.isEnabled)
        #expect(!interactions.allInteractions.isEnabled, "a composite is enabled only when every member is")
        interactions.selectAnnotation.isEnabled = true
        #expect(!interactions.allAnnotationInteractions.isEnabled)
        interactions.allInteractions.isEnabled = false
        editor.press(.character("F"))
        #expect(!editor.state.chrome.hidesInterface)
        #expect(editor.state.message?.contains("toggleUserInterface") == true)
        interactions.allTextInteractions.isEnabled = true
        editor.send(.wordsRead(pageIndex: 0, words: [PageWord(text: "word", box: Rect(x: 90, y: 90, width: 30, height: 10), line: 0, block: 0)]))
        editor.press(.character("v"))
        #expect(editor.state.interaction.textSelection != nil)
        // A condition added to a composite goes to each member.
        interactions.allInteractions.isEnabled = true
        interactions.allTextInteractions.addActivationCondition { _, _, _ in false }
        editor.press(.escape)
        #expect(editor.state.interaction.textSelection != nil, "deselectText refused by the composite's condition")
    }

    @Test func conditionsRunInOrderUntilOneIsFalse() {
        var editor = editorWithMarkup()
        let log = CallLog()
        let select = editor.environment.interactions.selectAnnotation
        select.addActivationCondition(ActivationCondition("first") { _, _, _ in log.add("first"); return true })
        select.addActivationCondition(ActivationCondition("second") { context, _, _ in log.add("second \(context.annotation?.kind ?? "")"); return context.annotation?.kind != "text" })
        select.addActivationCondition(ActivationCondition("third") { _, _, _ in log.add("third"); return true })
        log.clear()
        click(&editor, at: Point(x: 205, y: 305))
        #expect(editor.state.selection == nil, "the text markup is refused")
        #expect(log.all == ["first", "second text"], "the third is never asked: \(log.all)")
        #expect(editor.state.message?.contains("condition 2 (second)") == true)
        log.clear()
        click(&editor, at: Point(x: 102, y: 102))
        #expect(kind(editor) == "ink")
        #expect(log.all == ["first", "second ink", "third"])
    }

    @Test func callbacksRunOnceJustBeforeTheChangeAndCannotStopIt() {
        var editor = editorWithMarkup()
        let log = CallLog()
        editor.press(.tab)
        let id = editor.state.selection!
        let before = editor.state.markup.item(id)!.bounds(measuredBy: editor.environment.measurer)
        editor.environment.interactions.transformAnnotation.addActivationCallback { context, point, space in
            // Sees the markup where it was: the nudge has not happened yet.
            log.add("moving from \(context.annotation!.rect.minX) at \(space.kind.rawValue) \(point.x)")
        }
        editor.press(.right)
        let after = editor.state.markup.item(id)!.bounds(measuredBy: editor.environment.measurer)
        #expect(abs(after.minX - before.minX - 1) < 1e-9, "moved 1 pt")
        #expect(log.all == ["moving from \(before.minX) at display \(before.center.x)"])
    }

    @Test func canActivateIgnoresIsEnabledButNotTheConditions() {
        let editor = editorWithMarkup()
        let select = editor.environment.interactions.selectAnnotation
        select.isEnabled = false
        select.addActivationCondition(.kindsNot(["ink"]))
        func attempt(at point: Point) -> InteractionAttempt {
            InteractionAttempt(key: .click, location: InteractionLocation(point, in: .display), state: editor.state, environment: editor.environment)
        }
        #expect(select.canActivate(at: Point(x: 205, y: 305), in: .display, on: attempt(at: Point(x: 205, y: 305))))
        #expect(!select.canActivate(at: Point(x: 102, y: 102), in: .display, on: attempt(at: Point(x: 102, y: 102))))
        #expect(!select.canActivate(at: Point(x: 500, y: 700), in: .display, on: attempt(at: Point(x: 500, y: 700))),
                "nothing to select there")
    }

    @Test func aBindingBeforeAComponentStopsItOnlyWhenItTakesTheKey() {
        var editor = editorWithMarkup()
        let log = CallLog()
        let takesInk = UserBinding("long press on ink", keys: [.click]) { attempt in
            let over = attempt.state.markup.items.first { if case .ink = $0.content { true } else { false } }!
            let point = attempt.space.convert(attempt.point, to: .display)
            let onInk = over.bounds(measuredBy: attempt.environment.measurer).insetBy(dx: -4, dy: -8).contains(point)
            log.add(onInk ? "took" : "declined")
            return onInk ? .handled : .declined
        }
        editor.environment.interactions.selectAnnotation.require(toFail: takesInk)
        #expect(editor.environment.interactions.selectAnnotation.contains(takesInk))
        click(&editor, at: Point(x: 102, y: 102))
        #expect(editor.state.selection == nil, "the binding took the click: selectAnnotation did not proceed")
        click(&editor, at: Point(x: 205, y: 305))
        #expect(kind(editor) == "text", "declined: the component proceeds")
        #expect(log.all == ["took", "declined"])
    }

    @Test func aBindingBesideAComponentRunsAndTheComponentProceeds() {
        var editor = editorWithMarkup()
        let log = CallLog()
        editor.send(.wordsRead(pageIndex: 0, words: SmartZoomTests.words))
        let observer = UserBinding("observe s", keys: [.character("s")]) { attempt in
            log.add("s at \(attempt.point.x)")
            return .handled
        }
        editor.environment.interactions.smartZoom.allowSimultaneousRecognition(with: observer)
        editor.state.cursor = Point(x: 180, y: 130)
        editor.press(.character("s"))
        #expect(editor.state.zoom > 1, "smart zoom happened")
        #expect(log.all == ["s at 180.0"])
    }

    @Test func aBindingCanReimplementAnInteractionOnAnotherKey() {
        var editor = editorWithMarkup()
        let interactions = editor.environment.interactions
        interactions.selectAnnotation.isEnabled = false
        interactions.selectAnnotation.addActivationCondition(.kindsNot(["ink"]))
        let selectOnS = UserBinding("S selects", keys: [.character("S")]) { attempt in
            attempt.canActivate(interactions.selectAnnotation)
                ? .perform([InteractionRequest(.selectAnnotation, at: attempt.location)]) : .declined
        }
        interactions.allInteractions.require(toFail: selectOnS)
        editor.state.cursor = Point(x: 205, y: 305)
        editor.press(.character("S"))
        #expect(kind(editor) == "text", "selected though selectAnnotation is off")
        editor.press(.escape)
        editor.state.cursor = Point(x: 102, y: 102)
        editor.press(.character("S"))
        #expect(editor.state.selection == nil, "the ink's condition still applies")
    }

    @Test func tryVerbsBoundToKeysIgnoreEnabledAndKeepConditions() throws {
        var editor = editorWithMarkup()
        editor.state.keymaps = try Keymaps.standard.remapped([
            Keymaps.Binding(context: "page", key: "C-s", command: "try-select-annotation", line: 3),
            Keymaps.Binding(context: "page", key: "Click", command: "try-smart-zoom", line: 4),
        ])
        editor.environment.interactions.selectAnnotation.isEnabled = false
        editor.environment.interactions.selectAnnotation.addActivationCondition(.kindsNot(["ink"]))
        editor.state.cursor = Point(x: 205, y: 305)
        editor.press(.control("s"))
        #expect(kind(editor) == "text")
        editor.press(.escape)
        editor.state.cursor = Point(x: 102, y: 102)
        editor.press(.control("s"))
        #expect(editor.state.selection == nil)
        editor.send(.wordsRead(pageIndex: 0, words: SmartZoomTests.words))
        click(&editor, at: Point(x: 180, y: 130))
        #expect(editor.state.zoom > 1, "a click bound to try-smart-zoom zooms")
        #expect(InteractionComponentName.smartZoom.contains(.click, keymaps: editor.state.keymaps))
        #expect(!InteractionComponentName.selectAnnotation.contains(.click, keymaps: editor.state.keymaps))
    }

    @Test func requestsFromCodeArePerformedThroughTheLoop() {
        var editor = editorWithMarkup()
        let delivered = CallLog()
        let interactions = editor.environment.interactions
        #expect(!interactions.tryToSelectAnnotation(at: Point(x: 205, y: 305), in: .display), "no editor running")
        interactions.deliver = { request in delivered.add("\(request.component.rawValue)") }
        #expect(interactions.tryToSelectAnnotation(at: Point(x: 205, y: 305), in: .display))
        #expect(delivered.all == ["selectAnnotation"])
        interactions.selectAnnotation.isEnabled = false
        editor.send(.interactionRequested(InteractionRequest(.selectAnnotation, at: InteractionLocation(Point(x: 205, y: 305), in: .display))))
        #expect(kind(editor) == "text")
    }

    @Test func containsTellsWhichKeysAComponentHas() {
        let interactions = Interactions()
        #expect(interactions.selectAnnotation.contains(.tab))
        #expect(interactions.selectAnnotation.contains(.click))
        #expect(!interactions.selectAnnotation.contains(.character("j")))
        #expect(interactions.fastScroll.contains(.wheelDown))
        #expect(!interactions.fastScroll.contains(.character("j")), "j scrolls; only the wheel is fast scroll")
        #expect(interactions.toggleUserInterface.contains(.character("F"), in: .outline))
        #expect(interactions.allTextInteractions.contains(.escape, in: .selection))
        #expect(!interactions.allTextInteractions.contains(.tab))
        #expect(interactions.allInteractions.contains(.character("s")))
    }
}
