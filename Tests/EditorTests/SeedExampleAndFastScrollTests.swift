import Editor
import Foundation
import RedlineCore
import TerminalGrid
import Testing

/// The seed's four customisations with the conditions config.toml writes, fast scroll, the reports `--events`
/// writes, and the coordinate spaces conditions convert between.
@Suite struct SeedExampleAndFastScrollTests {
    let support = InteractionComponentTests()

    @Test func inkIsNotSelectableButTextIs() {
        var editor = support.editorWithMarkup()
        editor.environment.interactions.selectAnnotation.addActivationCondition(.kindsNot(["ink"]))
        support.click(&editor, at: Point(x: 102, y: 102))
        #expect(editor.state.selection == nil)
        #expect(support.cell(editor, editor.state.cursor) == support.cell(editor, Point(x: 102, y: 102)), "the click placed the cursor instead")
        editor.press(.tab)
        #expect(support.kind(editor) == "text", "Tab passes over the ink to the text")
        editor.press(.tab)
        #expect(support.kind(editor) == "text", "and stays on it: nothing else can be selected")
    }

    @Test func nothingInsideAPDFRectangleIsTransformed() {
        var editor = support.editorWithMarkup()
        // PDF user space has y up: [0, 0, 400, 200] is the page's lower left, display y 592 to 792.
        editor.environment.interactions.transformAnnotation.addActivationCondition(.point(inside: PDFBox(x1: 0, y1: 0, x2: 400, y2: 200), false))
        editor.state.cursor = Point(x: 100, y: 650)
        editor.placeText("Low")
        let low = editor.state.selection!
        let origin = editor.selectedText!.origin
        editor.press(.right)
        #expect(editor.state.message?.contains("transformAnnotation refused") == true)
        editor.press(.character("+"))
        #expect(editor.selectedText!.origin == origin && editor.selectedText!.fontSize == TextMarkup.defaultFontSize)
        editor.press(.escape)
        support.click(&editor, at: Point(x: 205, y: 305))
        editor.press(.right)
        #expect(editor.selectedText!.origin.x == 201, "the markup above the rectangle moves")
        #expect(editor.state.markup.item(low) != nil)
    }

    @Test func textMarkupIsNotEditableButRepliesFollowTheirOwnConditions() {
        var editor = support.editorWithMarkup()
        editor.environment.interactions.editAnnotation.addActivationCondition(.kindsNot(["text"]))
        support.click(&editor, at: Point(x: 205, y: 305))
        editor.press(.enter)
        if case .typing = editor.state.focus { Issue.record("the text markup went into editing") }
        #expect(editor.state.message?.contains("editAnnotation refused") == true)
    }

    @Test func linksAreFollowedOnTheFirstPageOnly() {
        var editor = EditorHarness(pages: 3)
        editor.environment.interactions.openLinkAnnotation.addActivationCondition(.pages([0]))
        let link = PageLink(rect: Rect(x: 250, y: 380, width: 100, height: 20), target: .destination(Destination(pageIndex: 2)))
        editor.send(.linksRead(pageIndex: 0, links: [link]))
        editor.send(.linksRead(pageIndex: 1, links: [link]))
        editor.press(.pageDown)
        support.click(&editor, at: Point(x: 300, y: 390))
        #expect(editor.state.pageIndex == 1, "not followed on page 2")
        #expect(editor.state.message?.contains("openLinkAnnotation refused") == true)
        editor.press(.character("f"), .character("a"))
        #expect(editor.state.pageIndex == 1, "nor by its label")
        editor.press(.escape, .pageUp)
        support.click(&editor, at: Point(x: 300, y: 390))
        #expect(editor.state.pageIndex == 2, "followed on page 1")
        // A key at the cursor finds the link a click on the cursor's cell finds, inside its box or not.
        editor.state.keymaps.bind(.control("l"), to: .tryOpenLink, in: .page)
        editor.press(.pageUp, .pageUp)
        editor.state.cursor = Point(x: 300, y: 378)
        editor.press(.control("l"))
        #expect(editor.state.pageIndex == 2, "the cursor's cell overlaps the link")
    }

    @Test func aClickInThePageAreasSideFifthsTurnsThePage() {
        var editor = EditorHarness(pages: 3)
        let area = editor.state.layout.pageArea
        let right = MouseEvent(.press, column: area.column + area.width - 2, row: area.row + 5)
        editor.send(.mouse(right))
        #expect(editor.state.pageIndex == 0, "the page turns when the button comes up")
        editor.send(.mouse(MouseEvent(.release, column: right.column, row: right.row)))
        #expect(editor.state.pageIndex == 1)
        editor.send(.mouse(MouseEvent(.press, column: area.column + 1, row: area.row + 5)))
        editor.send(.mouse(MouseEvent(.release, column: area.column + 1, row: area.row + 5)))
        #expect(editor.state.pageIndex == 0)
        // The middle three fifths place the cursor.
        editor.send(.mouse(MouseEvent(.press, column: area.column + area.width / 2, row: area.row + 5)))
        editor.send(.mouse(MouseEvent(.release, column: area.column + area.width / 2, row: area.row + 5)))
        #expect(editor.state.pageIndex == 0)
        // A drag from the side selects instead.
        editor.send(.mouse(right))
        editor.send(.mouse(MouseEvent(.drag, column: right.column - 3, row: right.row + 1)))
        editor.send(.mouse(MouseEvent(.release, column: right.column - 3, row: right.row + 1)))
        #expect(editor.state.pageIndex == 0)
        editor.environment.interactions.reportsActivations = true
        editor.send(.mouse(right))
        let turned = editor.send(.mouse(MouseEvent(.release, column: right.column, row: right.row)))
        #expect(turned.contains { if case .interactionReported(let report) = $0 { report.via == "Click" && report.component == .fastScroll } else { false } })
        #expect(editor.state.pageIndex == 1)
        editor.press(.pageUp)
        editor.environment.interactions.fastScroll.isEnabled = false
        editor.send(.mouse(right))
        editor.send(.mouse(MouseEvent(.release, column: right.column, row: right.row)))
        #expect(editor.state.pageIndex == 0)
        #expect(editor.state.message?.contains("fastScroll is switched off") == true)
    }

    @Test func theWheelScrollsAZoomedPageThenFastScrollTurnsIt() {
        var editor = EditorHarness(pages: 3)
        editor.press(.character("z"), .character("z"))
        editor.send(.mouse(MouseEvent(.scrollDown, column: 40, row: 10)))
        #expect(editor.state.pageIndex == 0 && editor.state.scroll.y > 0, "scrolled within the zoomed page")
        for _ in 0..<200 where editor.state.pageIndex == 0 { editor.send(.mouse(MouseEvent(.scrollDown, column: 40, row: 10))) }
        #expect(editor.state.pageIndex == 1, "then on to the next page")
        editor.environment.interactions.fastScroll.isEnabled = false
        editor.press(.character("G"))
        for _ in 0..<200 { editor.send(.mouse(MouseEvent(.scrollUp, column: 40, row: 10))) }
        #expect(editor.state.pageIndex == 2 && editor.state.scroll.y == 0, "the wheel scrolls to the top and turns no page")
        editor.press(.character("k"))
        #expect(editor.state.pageIndex == 1, "keys still turn pages")
    }

    @Test func reportsSayWhatWasActivatedOrRefusedWithThePointInEverySpace() throws {
        var editor = support.editorWithMarkup()
        let interactions = editor.environment.interactions
        interactions.reportsActivations = true
        interactions.selectAnnotation.addActivationCondition(ActivationCondition("no ink") { context, _, _ in context.annotation?.kind != "ink" })
        let (column, row) = support.cell(editor, Point(x: 102, y: 102))
        let effects = editor.send(.mouse(MouseEvent(.press, column: column, row: row)))
        let reports = effects.compactMap { if case .interactionReported(let report) = $0 { report } else { nil } }
        let refused = try #require(reports.first)
        #expect(refused.component == .selectAnnotation && refused.outcome == .refused && refused.reason == "condition 1 (no ink)")
        #expect(refused.via == "Click" && refused.space == .cells && refused.page == 1)
        #expect(refused.point.cells == Point(x: Double(column) + 0.5, y: Double(row) + 0.5))
        #expect(abs(refused.point.pdf.y - (792 - refused.point.display.y)) < 1e-9, "PDF user space has y up")
        #expect(refused.annotation?.kind == "ink")
        editor.state.cursor = Point(x: 180, y: 130)
        editor.send(.wordsRead(pageIndex: 0, words: SmartZoomTests.words))
        let zoom = editor.press(.character("s")).compactMap { if case .interactionReported(let report) = $0 { report } else { nil } }
        #expect(zoom.map(\.outcome) == [.activated] && zoom.first?.targetRect?.minX == 72 && zoom.first?.via == "s")
    }

    @Test func pointsConvertBetweenCellsDisplayAndPDFOnARotatedCroppedPage() {
        var editor = EditorHarness(pages: 1, rotation: .quarter)
        editor.press(.character("z"))
        let attempt = InteractionAttempt(key: .click, location: InteractionLocation(Point(x: 100, y: 50), in: .display),
                                         state: editor.state, environment: editor.environment)
        let space = attempt.space
        let pdf = space.convert(Point(x: 100, y: 50), to: .pdf)
        // A quarter turn shows the page's left edge at the top: display (100, 50) is user (50, 100).
        #expect(abs(pdf.x - 50) < 1e-9 && abs(pdf.y - 100) < 1e-9, "\(pdf)")
        let cells = space.convert(Point(x: 100, y: 50), to: .cells)
        let back = space.as(.cells).convert(cells, to: .display)
        #expect(abs(back.x - 100) < 1e-9 && abs(back.y - 50) < 1e-9)
        let viewport = editor.state.viewport(cellPixels: editor.environment.cellPixels)
        let area = editor.state.layout.pageArea
        let expected = viewport.cell(for: Point(x: 100, y: 50))
        #expect(Int(cells.x) == area.column + expected.column && Int(cells.y) == area.row + expected.row)
        #expect(space.as(.pdf).convert(pdf, to: .display) == space.convert(Point(x: 100, y: 50), to: .display))
    }
}
