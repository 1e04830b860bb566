import Foundation
import RedlineCore

public enum InkTool: String, Sendable, CaseIterable {
    /// `eraser` takes whole strokes; `partialEraser` only what it passes over (Xournal++'s standard eraser).
    case pen, highlighter, eraser, partialEraser

    public var erases: Bool { self == .eraser || self == .partialEraser }
}

/// Ink mode: a pen cursor that draws while lowered. The strokes drawn in a row make one ink markup,
/// committed when the user leaves ink mode or changes the tool, width or colour.
public struct InkSession: Sendable, Equatable {
    /// The id the markup being drawn will have.
    public var id: MarkupID
    public var pageIndex: Int
    public var pen: Point
    public var tool: InkTool = .pen
    /// Finished strokes of the markup being drawn.
    public var strokes: [[Point]] = []
    /// The stroke being drawn while the pen is down.
    public var current: [Point]?
    /// The operation an eraser's pass made, grown by each step while the pen stays down: one undo step a pass.
    public var erasingPass: UUID?

    public init(id: MarkupID, pageIndex: Int, pen: Point) {
        self.id = id
        self.pageIndex = pageIndex
        self.pen = pen
    }

    public var isPenDown: Bool { current != nil }

    public var allStrokes: [[Point]] { strokes + (current.map { [$0] } ?? []) }
}

/// The width and colour each ink tool draws with; kept across ink sessions.
public struct InkStyle: Sendable, Hashable {
    public var penWidth = 2.0
    public var highlighterWidth = 14.0
    public var penColor: MarkupColor = .blue
    public var highlighterColor: MarkupColor = .yellow

    public init(palettes: MarkupPalettes = .standard) {
        penColor = palettes.text.contains(.blue) ? .blue : palettes.text[0]
        highlighterColor = palettes.highlighter[0]
    }

    static let penSteps: [Double] = [0.5, 1, 1.5, 2, 3, 4, 5, 6, 8, 10, 12]
    static let highlighterSteps: [Double] = [4, 6, 8, 10, 12, 14, 16, 20, 24, 28, 32, 36]

    /// The markup a tool's strokes become.
    func markup(for tool: InkTool, strokes: [[Point]]) -> InkMarkup {
        tool == .highlighter
            ? InkMarkup(strokes: strokes, width: highlighterWidth, color: highlighterColor, opacity: InkMarkup.highlighterOpacity)
            : InkMarkup(strokes: strokes, width: penWidth, color: penColor, opacity: 1)
    }

    /// How close the eraser must come to a stroke's path to take it.
    var eraserRadius: Double { max(2, penWidth) }

    static func step(_ width: Double, up: Bool, highlighter: Bool) -> Double {
        let steps = highlighter ? highlighterSteps : penSteps
        let next = up ? steps.first { $0 > width + 1e-9 } : steps.last { $0 < width - 1e-9 }
        return next ?? (up ? steps.last! : steps.first!)
    }
}
