/// Text placed on a page. `origin` is the top-left corner of the text's box in display space;
/// the baseline sits one font ascent below it. A callout's text has a line from its box to the spot it points at,
/// ending in an arrow there, as Acrobat's callout tool draws it.
public struct TextMarkup: Sendable, Hashable, Codable {
    public static let defaultFontSize = 14.0
    public static let fontSizeRange = 8.0...48.0
    /// The room between a callout's words and where its line leaves their box.
    public static let calloutGap = 2.0

    public var origin: Point
    public var text: String
    public var fontSize: Double
    public var color: MarkupColor
    /// Where a callout's line points (its arrow's tip); nil for plain text.
    public var pointsAt: Point?
    /// A file's callout line as the file has it (/CL, its spot first, and /LE's ending there), drawn as it is rather
    /// than from the words' box: how Redline draws another program's callout again.
    public var fileCallout: FileCallout?

    public struct FileCallout: Sendable, Hashable, Codable {
        public var points: [Point]
        public var ending: AnnotationSketch.Ending?

        public init(points: [Point], ending: AnnotationSketch.Ending?) {
            self.points = points
            self.ending = ending
        }
    }

    public init(origin: Point, text: String, fontSize: Double = TextMarkup.defaultFontSize, color: MarkupColor = .red,
                pointsAt: Point? = nil) {
        self.origin = origin
        self.text = text
        self.fontSize = fontSize
        self.color = color
        self.pointsAt = pointsAt
    }

    /// The words' box.
    public func textBox(measuredBy measurer: some TextMeasuring) -> Rect {
        let metrics = measurer.metrics(of: text, fontSize: fontSize)
        return Rect(origin: origin, size: Size(width: metrics.width, height: metrics.height))
    }

    /// Everything the text paints: its words and a callout's line and arrow.
    public func bounds(measuredBy measurer: some TextMeasuring) -> Rect {
        let box = textBox(measuredBy: measurer)
        guard let line = calloutSketch(measuredBy: measurer) else { return box }
        return box.union(line.bounds)
    }

    /// A callout's line as `/CL` holds it: the spot pointed at, then where the line leaves the words' box (the
    /// middle of the side facing that spot, a little away from the words). Nil without a callout, or when the
    /// spot lies within the words' box, where no line can be drawn.
    public func calloutLine(measuredBy measurer: some TextMeasuring) -> [Point]? {
        if let fileCallout, fileCallout.points.count >= 2 { return fileCallout.points }
        guard let tip = pointsAt else { return nil }
        let box = textBox(measuredBy: measurer).insetBy(dx: -Self.calloutGap, dy: -Self.calloutGap)
        let end: Point
        if tip.x < box.minX {
            end = Point(x: box.minX, y: box.center.y)
        } else if tip.x > box.maxX {
            end = Point(x: box.maxX, y: box.center.y)
        } else if tip.y < box.minY {
            end = Point(x: box.center.x, y: box.minY)
        } else if tip.y > box.maxY {
            end = Point(x: box.center.x, y: box.maxY)
        } else {
            return nil
        }
        return [tip, end]
    }

    /// How the callout's line is drawn: a hairline of the text's colour with an open arrow at the spot.
    public func calloutSketch(measuredBy measurer: some TextMeasuring) -> AnnotationSketch? {
        guard let line = calloutLine(measuredBy: measurer) else { return nil }
        return AnnotationSketch(shape: .path([line], closed: false), stroke: color.rgb, width: 1,
                                endings: [fileCallout.map(\.ending) ?? .openArrow, nil])
    }

    public func translated(dx: Double, dy: Double) -> TextMarkup {
        var moved = self
        moved.origin = origin.offsetBy(dx: dx, dy: dy)
        moved.pointsAt = pointsAt?.offsetBy(dx: dx, dy: dy)
        moved.fileCallout?.points = fileCallout?.points.map { $0.offsetBy(dx: dx, dy: dy) } ?? []
        return moved
    }
}
