/// A shape drawn over the page, as Acrobat's and Okular's drawing tools make them: a rectangle or an ellipse in a
/// box, a line, an arrow, a polygon or a polyline through corners, in display space. Saved flattened, or as the
/// Square, Circle, Line, Polygon or PolyLine annotation readers know, drawn by the sketch that draws those
/// annotations from their keys, so the screen, a flattened page and the annotation's appearance show the same.
public struct ShapeMarkup: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case rectangle, ellipse, line, arrow, polygon, polyline

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
            }
        }
    }

    public static let widths = 0.5...12.0
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

    public init(kind: Kind, points: [Point], width: Double = 2, color: MarkupColor = .red, filled: Bool = false) {
        self.kind = kind
        self.points = points
        self.width = width
        self.color = color
        self.filled = filled && kind.canBeFilled
    }

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
            return AnnotationSketch(shape: .path([points], closed: false), stroke: color.rgb, width: width,
                                    endings: kind == .arrow ? [nil, .openArrow] : [])
        case .polygon:
            return AnnotationSketch(shape: .path([points], closed: true), stroke: color.rgb, fill: fill, width: width)
        }
    }

    /// Everything the shape paints: its box, or its corners grown by half its line and an arrow's head.
    public var bounds: Rect {
        switch kind {
        case .rectangle, .ellipse: box ?? Rect(x: 0, y: 0, width: 0, height: 0)
        default: sketch?.bounds ?? (box ?? Rect(x: 0, y: 0, width: 0, height: 0)).insetBy(dx: -width / 2, dy: -width / 2)
        }
    }

    public var drawsSomething: Bool { sketch != nil }

    public func translated(dx: Double, dy: Double) -> ShapeMarkup {
        var moved = self
        moved.points = points.map { $0.offsetBy(dx: dx, dy: dy) }
        return moved
    }
}
