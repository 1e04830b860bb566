import Foundation
import RedlineCore

public enum InkTool: String, Sendable, CaseIterable {
    /// `eraser` takes whole strokes; `partialEraser` only what it passes over (Xournal++'s standard eraser).
    case pen, highlighter, eraser, partialEraser
    /// The shape tools: a box or a line dragged from where the pen goes down to where it comes up; a polygon or
    /// polyline through corners placed one by one.
    case rectangle, ellipse, line, arrow, polygon, polyline
    /// A stamp's box: dragged, or the usual size where the pen goes down and comes up in one place.
    case stamp
    /// A sticky note, placed where the pen is, its words typed at once.
    case note
    /// A callout: text with a line and an arrow from its box to a spot, the spot placed first, then the words.
    case callout

    public var erases: Bool { self == .eraser || self == .partialEraser }

    /// Places markup at points (shapes, stamps, notes, callouts) rather than drawing strokes with the pen down.
    public var places: Bool { shapeKind != nil || self == .callout }

    /// The shape a shape tool draws.
    public var shapeKind: ShapeMarkup.Kind? { ShapeMarkup.Kind(rawValue: rawValue) }
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

    /// A shape tool's shape as it stands: from where the pen went down to the pen, or through the corners placed
    /// (`live`: and on to the pen, as it shows while the next corner is sought). Nil before the pen goes down, or
    /// while it encloses nothing.
    public func shape(_ style: InkStyle, live: Bool = false) -> ShapeMarkup? {
        guard let kind = tool.shapeKind, let placed = current, let first = placed.first else { return nil }
        var points = kind.takesCorners ? (placed.last == pen || !live ? placed : placed + [pen]) : [first, pen]
        // A stamp's box too small to hold its words is a click: the stamp at its usual size from there.
        if kind == .stamp, abs(pen.x - first.x) < 20 || abs(pen.y - first.y) < 10 {
            points = [first, Point(x: first.x + ShapeMarkup.usualStampSize.width, y: first.y + ShapeMarkup.usualStampSize.height)]
        }
        let shape = ShapeMarkup(kind: kind, points: points, width: style.shapeWidth, color: style.shapeColor, filled: style.shapeFilled,
                                stampName: style.stampName)
        return shape.drawsSomething ? shape : nil
    }

    /// What is being drawn, as the markup it will be: journaled against a crash, and shown (`live`: a polygon's
    /// next side to the pen too).
    public func pendingItem(_ style: InkStyle, live: Bool = false, text: TextStyle = TextStyle()) -> MarkupItem? {
        if tool == .callout {
            // Its line shows from the spot to the pen; nothing is journaled before its words are typed.
            guard live, let tip = current?.first else { return nil }
            return MarkupItem(id: id, pageIndex: pageIndex, content: .text(TextMarkup(origin: pen, text: "", fontSize: text.fontSize,
                                                                                     color: text.color, pointsAt: tip)))
        }
        if tool.shapeKind != nil { return shape(style, live: live).map { MarkupItem(id: id, pageIndex: pageIndex, content: .shape($0)) } }
        guard !tool.erases, !allStrokes.isEmpty else { return nil }
        return MarkupItem(id: id, pageIndex: pageIndex, content: .ink(style.markup(for: tool, strokes: allStrokes)))
    }
}

/// The width and colour each ink tool draws with; kept across ink sessions.
public struct InkStyle: Sendable, Hashable {
    public var penWidth = 2.0
    public var highlighterWidth = 14.0
    public var penColor: MarkupColor = .blue
    public var highlighterColor: MarkupColor = .yellow
    /// The shape tools' line and colour, and whether a rectangle, an ellipse or a polygon is filled.
    public var shapeWidth = 2.0
    public var shapeColor: MarkupColor = .red
    public var shapeFilled = false
    /// A note's icon colour, from the highlighter's light colours (its lines are black): yellow, as readers make notes.
    public var noteColor: MarkupColor = .yellow
    /// The stamp the stamp tool places: a standard one's name, or the reviewer's words (`:stamp WORDS`).
    public var stampName = ShapeMarkup.standardStamps[0]

    public init(palettes: MarkupPalettes = .standard) {
        penColor = palettes.text.contains(.blue) ? .blue : palettes.text[0]
        highlighterColor = palettes.highlighter[0]
        shapeColor = palettes.text.contains(.red) ? .red : palettes.text[0]
        noteColor = palettes.highlighter.contains(.yellow) ? .yellow : palettes.highlighter[0]
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
