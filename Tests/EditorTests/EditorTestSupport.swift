import Editor
import Foundation
import RedlineCore
import TerminalGrid

/// Widths proportional to the number of characters: placement rules without a font. Like DejaVu Sans, it has no
/// glyph for CJK ideographs (from U+3000).
struct FixedMeasurer: TextMeasuring {
    func metrics(of text: String, fontSize: Double) -> TextMetrics {
        TextMetrics(width: Double(text.count) * fontSize * 0.5, ascent: fontSize * 0.8, descent: fontSize * 0.2)
    }

    func missingCharacters(in text: String) -> [Character] {
        var seen = Set<Character>()
        return text.filter { $0.unicodeScalars.first!.value >= 0x3000 && seen.insert($0).inserted }.map { $0 }
    }
}

/// An editor on a document of letter pages, driven by events as the runner would.
struct EditorHarness {
    var state: EditorState
    let environment: EditorEnvironment
    private(set) var effects: [EditorEffect] = []
    /// Every event sent, with its stamp: replaying them on the first state gives the same state.
    private(set) var recorded: [(EditorEvent, EventStamp)] = []
    let initialState: EditorState
    /// What the ids this harness mints derive from: editors sharing a document each mint their own, as every
    /// runner's random seeds do.
    var seedBase: UInt64 = 7
    /// The wall-clock time events carry: fixed unless a test moves it on.
    var time = Self.now

    static let now = PDFDate(year: 2026, month: 11, day: 22, hour: 10, minute: 30, offsetMinutes: 60)

    init(pages: Int = 3, columns: Int = 80, rows: Int = 30, rotation: PageRotation = .none,
         annotations: [Annotation] = [], reviewer: Reviewer = Reviewer(author: "Alice"), path: String = "/docs/contract.pdf") {
        environment = EditorEnvironment(measurer: FixedMeasurer())
        let page = PageGeometry(mediaBox: PDFBox(x1: 0, y1: 0, x2: 612, y2: 792), rotation: rotation)
        state = EditorState(documentPath: path,
                            document: DocumentDescription(pages: Array(repeating: page, count: pages), annotations: annotations),
                            columns: columns, rows: rows, reviewer: reviewer)
        initialState = state
    }

    /// A fixed clock and a seed numbered per harness: new ids and dates are the same on every run, whatever
    /// other tests run beside this one. Events are a second apart unless a test says otherwise.
    func stamp(_ number: Int, milliseconds: Int64? = nil) -> EventStamp {
        EventStamp(time: time, seed: StableUUID.derived(seed: seedBase, item: "event \(number)"),
                   milliseconds: milliseconds ?? Int64(number) * 1000)
    }

    @discardableResult
    mutating func send(_ event: EditorEvent, atMillisecond milliseconds: Int64? = nil) -> [EditorEffect] {
        let stamp = stamp(recorded.count + 1, milliseconds: milliseconds)
        recorded.append((event, stamp))
        let produced = EditorReducer.reduce(&state, event, at: stamp, environment: environment)
        effects += produced
        return produced
    }

    mutating func clearEffects() { effects = [] }

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
