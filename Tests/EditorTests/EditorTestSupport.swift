import Editor
import Foundation
import RedlineCore
import TerminalGrid

/// Widths proportional to the number of characters: placement rules without a font.
struct FixedMeasurer: TextMeasuring {
    func metrics(of text: String, fontSize: Double) -> TextMetrics {
        TextMetrics(width: Double(text.count) * fontSize * 0.5, ascent: fontSize * 0.8, descent: fontSize * 0.2)
    }
}

/// An editor on a document of letter pages, driven by events as the runner would.
struct EditorHarness {
    var state: EditorState
    /// A fixed clock and ids numbered per harness: new annotations are stamped the same on every run, whatever
    /// other tests run beside this one.
    let environment: EditorEnvironment
    private(set) var effects: [EditorEffect] = []

    static let now = PDFDate(year: 2026, month: 11, day: 22, hour: 10, minute: 30, offsetMinutes: 60)

    init(pages: Int = 3, columns: Int = 80, rows: Int = 30, rotation: PageRotation = .none,
         annotations: [Annotation] = [], reviewer: Reviewer = Reviewer(author: "Alice")) {
        let ids = Counter()
        environment = EditorEnvironment(measurer: FixedMeasurer(), now: { EditorHarness.now },
                                        newAnnotationID: { AnnotationID("new-\(ids.next())") })
        let page = PageGeometry(mediaBox: PDFBox(x1: 0, y1: 0, x2: 612, y2: 792), rotation: rotation)
        state = EditorState(documentPath: "/docs/contract.pdf",
                            document: DocumentDescription(pages: Array(repeating: page, count: pages), annotations: annotations),
                            columns: columns, rows: rows, reviewer: reviewer)
    }

    @discardableResult
    mutating func send(_ event: EditorEvent) -> [EditorEffect] {
        let produced = EditorReducer.reduce(&state, event, environment: environment)
        effects += produced
        return produced
    }

    @discardableResult
    mutating func press(_ keys: Key...) -> [EditorEffect] {
        keys.flatMap { send(.keyPressed($0)) }
    }

    @discardableResult
    mutating func type(_ text: String) -> [EditorEffect] {
        text.flatMap { send(.keyPressed(.character($0))) }
    }

    /// Runs a `:` command, as typing `:`, the command and Enter would.
    @discardableResult
    mutating func command(_ line: String) -> [EditorEffect] {
        press(.character(":"))
        type(line)
        return press(.enter)
    }

    /// Types a text markup at the cursor and commits it.
    mutating func placeText(_ text: String) {
        press(.character("t"))
        type(text)
        press(.enter)
    }

    var selectedText: TextMarkup? {
        guard let id = state.selection, case .text(let text)? = state.markup.item(id)?.content else { return nil }
        return text
    }

    func screen(picture: CellGrid? = nil) -> CellGrid {
        EditorView.draw(state, environment: environment, picture: picture)
    }
}

/// Numbers for new annotation ids, one counter per harness.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
