import Foundation
import Editor
import RedlineCore
import TerminalGrid
import Testing

@Suite struct EditorViewTests {
    @Test func statusLineShowsFilePageZoomToolSelectionAndUnsavedState() {
        var editor = EditorHarness(pages: 7, columns: 140, rows: 20)
        editor.press(.character("j"))
        editor.placeText("Approved")
        let status = editor.screen().text(ofRow: 18).trimmingCharacters(in: .whitespaces)
        #expect(status == #"page 2/7  │  [modified]  │  selected "Approved" 14pt red  │  text 14pt red  │  zoom 100%  │  contract.pdf"#)
    }

    @Test func messageLineShowsTheCommandBeingTypedAndQuestions() {
        var editor = EditorHarness()
        editor.press(.character(":"))
        editor.type("w out.pdf")
        #expect(editor.screen().text(ofRow: 29).trimmingCharacters(in: .whitespaces) == ":w out.pdf▏")
        editor.press(.escape)
        editor.placeText("x")
        editor.press(.character("q"))
        #expect(editor.screen().text(ofRow: 29).trimmingCharacters(in: .whitespaces)
                == "Unsaved changes: y saves a marked copy and quits · n quits unsaved · c cancels")
    }

    @Test func theCursorIsACrosshairCellWhereNewMarkupGoes() {
        var editor = EditorHarness()
        editor.state.cursor = Point(x: 300, y: 400)
        let viewport = editor.state.viewport(cellPixels: .standard)
        let cell = viewport.cell(for: editor.state.cursor)
        #expect(editor.screen()[cell.column, cell.row].character == "+")
    }

    @Test func thePicturesCellsFillThePageArea() {
        let editor = EditorHarness(columns: 40, rows: 12)
        let picture = CellGrid(columns: 40, rows: 10, filling: Cell("▚", style: CellStyle(foreground: .indexed(200))))
        let screen = editor.screen(picture: picture)
        #expect(screen[0, 0].character == "▚")
        #expect(screen[39, 9].style.foreground == .indexed(200))
    }

    @Test func helpOverlayListsTheKeysAndAnyKeyClosesIt() {
        var editor = EditorHarness(columns: 240, rows: 70)
        editor.press(.function(1))
        // Everything the overlay shows while j scrolls it to its end.
        var lines = editor.screen().lines.joined(separator: "\n")
        #expect(lines.contains("Redline keys"))
        for _ in 0..<200 {
            editor.press(.character("j"))
            lines += editor.screen().lines.joined(separator: "\n")
        }
        #expect(lines.contains("Questions") && lines.contains("delete the last word"))
        #expect(lines.contains("nudge the selection 10 pt"))
        #expect(lines.contains("set a review state"))
        #expect(lines.contains("save NAME-marked.pdf beside the original"))
        editor.press(.character("q"))
        #expect(editor.state.focus == .page)
        #expect(editor.state.pageIndex == 0)
    }

    @Test func aSmallTerminalScrollsTheHelpToItsLastKey() {
        var editor = EditorHarness(columns: 80, rows: 24)
        editor.press(.function(1))
        #expect(!editor.screen().lines.joined().contains("go to page N"))
        for _ in 0..<300 { editor.press(.character("j")) }
        #expect(editor.screen().lines.joined().contains("go to page N"))
        editor.press(.escape)
        #expect(editor.state.focus == .page)
    }

    @Test func repairedDocumentsSaySoInTheMessageLine() {
        let page = PageGeometry(mediaBox: PDFBox(x1: 0, y1: 0, x2: 612, y2: 792))
        let state = EditorState(documentPath: "/x/bad.pdf",
                                document: DocumentDescription(pages: [page], repairs: ["xref table was rebuilt"]),
                                columns: 80, rows: 24)
        let screen = EditorView.draw(state, environment: EditorEnvironment(measurer: FixedMeasurer()), picture: nil)
        #expect(screen.text(ofRow: 23).hasPrefix("Repaired on open: xref table was rebuilt"))
    }

    /// Arrows stop at the page's edge; the cursor must still show there, at the bottom and right edges too.
    @Test func theCursorShowsOnEveryEdgeOfThePage() {
        for keys in [[Key](repeating: .down, count: 200), [Key](repeating: .right, count: 200),
                     [Key](repeating: .down, count: 200) + [Key](repeating: .right, count: 200), [Key](repeating: .up, count: 200)] {
            var editor = EditorHarness(columns: 120, rows: 40)
            for key in keys { editor.press(key) }
            let screen = editor.screen()
            let cursors = (0..<screen.rows).flatMap { row in (0..<screen.columns).filter { screen[$0, row].style == Theme.cursor } }
            #expect(cursors.count == 1, "cursor at \(editor.state.cursor) shows in \(cursors.count) cells")
        }
    }
}
