import Editor
import TerminalGrid
import RedlineCore
import Testing

/// The status line at every width: the page and unsaved work always show, then the selection, the tool,
/// and the file name last; a field that does not fit whole ends in "…", never cut mid-word silently.
@Suite struct StatusLineTests {
    func statusLine(columns: Int) -> String {
        var editor = EditorHarness(columns: columns, rows: 24, path: "/docs/quarterly-report-with-a-rather-long-name.pdf")
        editor.placeText("Approved by the committee")
        return editor.screen().lines[22]
    }

    @Test(arguments: [40, 50, 60, 80, 100, 120, 200])
    func theMostImportantFieldsAlwaysFit(columns: Int) {
        let line = statusLine(columns: columns)
        #expect(line.contains("page 1/3"), "\(columns) columns: \(line)")
        #expect(line.contains("[modified]"), "\(columns) columns: \(line)")
        #expect(line.contains("selected \"Ap"), "\(columns) columns: \(line)")
        // Every field is whole, or visibly shortened.
        let fields = line.trimmingCharacters(in: .whitespaces).components(separatedBy: "│")
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let whole = ["page 1/3", "[modified]", "text 14pt red", "zoom 100%", "quarterly-report-with-a-rather-long-name.pdf"]
        for field in fields where !field.hasPrefix("selected") {
            #expect(whole.contains(field) || field.hasSuffix("…"), "\(columns) columns: cut field \"\(field)\" in \(line)")
        }
    }

    @Test func theFileNameGoesFirstWhenSpaceRunsOut() {
        #expect(statusLine(columns: 200).contains("quarterly-report"))
        let narrow = statusLine(columns: 100)
        #expect(narrow.contains("text 14pt red"), "\(narrow)")
        #expect(!narrow.contains("quarterly-report-with-a-rather-long-name.pdf"), "\(narrow)")
    }
}
