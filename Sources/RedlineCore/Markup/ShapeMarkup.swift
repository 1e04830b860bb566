/// A shape drawn over the page, as Acrobat's and Okular's drawing tools make them: a rectangle or an ellipse in a
/// box, a line, an arrow, a polygon or a polyline through corners, in display space. Saved flattened, or as the
/// Square, Circle, Line, Polygon or PolyLine annotation readers know, drawn by the sketch that draws those
/// annotations from their keys, so the screen, a flattened page and the annotation's appearance show the same.
public struct ShapeMarkup: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case rectangle, ellipse, line, arrow, polygon, polyline
        /// A box holding a stamp's words (Approved, Draft, Confidential… or the reviewer's own), as Acrobat stamps.
        case stamp
        /// A sticky note: an icon on the page whose words (the item's comment) readers show in a popup.
        case note

        /// Drawn through corners placed one by one, not dragged from one corner to another.
        public var takesCorners: Bool { self == .polygon || self == .polyline }

        /// A rectangle, an ellipse or a polygon can be filled; lines cannot.
        public var canBeFilled: Bool { self == .rectangle || self == .ellipse || self == .polygon }

        /// How many points make one: two corners of a box or two ends, else at least this many corners.
        public var leastPoints: Int { self == .polygon ? 3 : 2 }

        /// The annotation each kind is saved as, and read back from.
        public var subtype: AnnotationSubtype {
            switch self {
            case .rectangle: .square
            case .ellipse: .circle
            case .line, .arrow: .line
            case .polygon: .polygon
            case .polyline: .polyLine
            case .stamp: .stamp
            case .note: .text
            }
        }
    }

    /// The pen's widths: `+` and `-` step a shape's line as they step the pen.
    public static let widths = InkMarkup.penWidths

    /// The standard stamps (ISO 32000-1 table 181), the most used first.
    public static let standardStamps = ["Approved", "NotApproved", "Draft", "Final", "Confidential", "ForComment", "ForPublicRelease",
                                        "NotForPublicRelease", "Experimental", "Expired", "AsIs", "Departmental", "Sold", "TopSecret"]
    /// A stamp placed without dragging its box: Acrobat's stamps are about this size.
    public static let usualStampSize = Size(width: 150, height: 40)
    /// A note's icon is a square this wide (Acrobat's are 20 points), between the sides readers draw it at.
    public static let usualNoteSide = 20.0
    public static let noteSides = AnnotationSketch.noteSides

    /// A note of the usual size whose icon's top-left corner is at `corner`.
    public static func note(at corner: Point, color: MarkupColor) -> ShapeMarkup {
        ShapeMarkup(kind: .note, points: [corner, Point(x: corner.x + usualNoteSide, y: corner.y + usualNoteSide)], color: color)
    }

    /// Why two corners are no note's icon, or nil: a square of 12 to 40 points.
    public static func noteBoxProblem(_ points: [Point]) -> String? {
        guard points.count == 2, let box = Rect(enclosing: points) else { return "a note is placed at one corner [x, y] or two opposite corners" }
        let sides = "\(PDFNumber.format(noteSides.lowerBound)) to \(PDFNumber.format(noteSides.upperBound))"
        guard abs(box.width - box.height) < 0.01, noteSides.contains(box.width) else {
            return "a note's icon is a square of \(sides) points, got \(PDFNumber.format(box.width)) × \(PDFNumber.format(box.height))"
        }
        return nil
    }

    /// A stamp's name for the reviewer's own words: its spaces made underscores, which the words shown turn back.
    /// A standard stamp's words ("not approved") are its name (NotApproved), which readers know.
    public static func stampName(forWords words: String) -> String {
        let name = words.split(whereSeparator: \.isWhitespace).joined(separator: "_")
        let bare = name.replacingOccurrences(of: "_", with: "").lowercased()
        return standardStamps.first { $0.lowercased() == bare } ?? name
    }

    /// Why a stamp cannot have this (non-empty) name, or nil: its words are shown whole (80 characters) and a PDF
    /// name holds 127 bytes (ISO 32000-1 annex C); a control character would reach terminals.
    public static func stampNameProblem(_ name: String) -> String? {
        if name.count > 80 || name.utf8.count > 127 {
            return "is too long: at most 80 characters and 127 bytes of UTF-8 (a PDF name's limit), got \(name.count) and \(name.utf8.count)"
        }
        if let control = ControlCharacters.first(in: name) { return "contains the control character \(control)" }
        return nil
    }

    /// A standard stamp, which readers draw as their own picture of it when the file gives them no appearance.
    public var isStandardStamp: Bool { stampName.map(Self.standardStamps.contains) ?? false }
    /// More corners than a hand places; a file's polygon with more is drawn by readers from its keys.
    public static let mostCorners = 10_000

    public var kind: Kind
    /// A rectangle's or an ellipse's two opposite corners (the box its outer edge fills), a line's or an arrow's
    /// two ends (the arrow's head at the second), a polygon's or polyline's corners in order.
    public var points: [Point]
    public var width: Double
    public var color: MarkupColor
    /// The inside painted in the shape's colour (a rectangle, an ellipse, a polygon).
    public var filled: Bool
    /// A stamp's name (`Approved`, or the reviewer's words with underscores for spaces): its /Name.
    public var stampName: String?

    public init(kind: Kind, points: [Point], width: Double = 2, color: MarkupColor = .red, filled: Bool = false, stampName: String? = nil) {
        self.kind = kind
        self.points = points
        // A note's icon is outlined as readers outline it, in a hairline.
        self.width = kind == .note ? 1 : width
        self.color = color
        self.filled = filled && kind.canBeFilled
        self.stampName = kind == .stamp ? (stampName ?? "Draft") : nil
    }

    /// The words a stamp shows: "NOT APPROVED" for NotApproved, "REVIEWED BY LEGAL" for Reviewed_by_Legal.
    public var stampWords: String? { stampName.map(AnnotationSketch.words(ofStamp:)) }

    /// The box a rectangle or an ellipse fills, its line inside it.
    public var box: Rect? { Rect(enclosing: points) }

    /// How the shape is drawn: the sketch of the annotation it is saved as.
    public var sketch: AnnotationSketch? {
        guard points.count >= kind.leastPoints else { return nil }
        let fill = filled ? color.rgb : nil
        switch kind {
        case .rectangle, .ellipse:
            guard let box, box.width > 0, box.height > 0 else { return nil }
            let shape: (Rect) -> AnnotationSketch.Shape = kind == .rectangle ? { .rectangle($0) } : { .ellipse($0) }
            // A line as wide as half the box covers all of it: the box filled, as its annotation is drawn.
            guard width * 2 < min(box.width, box.height) else {
                return AnnotationSketch(shape: shape(box), stroke: nil, fill: color.rgb, width: 0)
            }
            return AnnotationSketch(shape: shape(box.insetBy(dx: width / 2, dy: width / 2)), stroke: color.rgb, fill: fill, width: width)
        case .line, .arrow, .polyline:
            // A line of no length draws nothing (an arrow would have no way to point).
            guard zip(points, points.dropFirst()).contains(where: { $0 != $1 }) else { return nil }
            return AnnotationSketch(shape: .path([points], closed: false), stroke: color.rgb, width: width,
                                    endings: kind == .arrow ? [nil, .openArrow] : [])
        case .polygon:
            // Corners all on one line enclose nothing (twice the area, by the shoelace formula).
            let area = zip(points, points.dropFirst() + [points[0]]).reduce(0.0) { $0 + $1.0.x * $1.1.y - $1.1.x * $1.0.y }
            guard abs(area) > 1e-9 else { return nil }
            return AnnotationSketch(shape: .path([points], closed: true), stroke: color.rgb, fill: fill, width: width)
        case .stamp:
            guard let box, box.width > 2 * width, box.height > 2 * width else { return nil }
            return AnnotationSketch(shape: .stamp(box, words: stampWords ?? "DRAFT"), stroke: color.rgb, width: width)
        case .note:
            guard let box, Self.noteBoxProblem(points) == nil else { return nil }
            return AnnotationSketch(shape: .note(box), stroke: RGBColor(red: 0, green: 0, blue: 0), fill: color.rgb, width: 1)
        }
    }

    /// Everything the shape paints: its box, or its corners grown by half its line and an arrow's head.
    public var bounds: Rect {
        switch kind {
        case .rectangle, .ellipse, .stamp, .note: box ?? Rect(x: 0, y: 0, width: 0, height: 0)
        default: sketch?.bounds ?? (box ?? Rect(x: 0, y: 0, width: 0, height: 0)).insetBy(dx: -width / 2, dy: -width / 2)
        }
    }

    public var drawsSomething: Bool { sketch != nil }

    /// Moved as little as needed for its box to lie on a page of `size` (its top-left corner wins when it cannot).
    public func keptInside(_ size: Size) -> ShapeMarkup {
        guard let box else { return self }
        let dx = min(max(box.minX, 0), max(0, size.width - box.width)) - box.minX
        let dy = min(max(box.minY, 0), max(0, size.height - box.height)) - box.minY
        return dx == 0 && dy == 0 ? self : translated(dx: dx, dy: dy)
    }

    public func translated(dx: Double, dy: Double) -> ShapeMarkup {
        var moved = self
        moved.points = points.map { $0.offsetBy(dx: dx, dy: dy) }
        return moved
    }
}
