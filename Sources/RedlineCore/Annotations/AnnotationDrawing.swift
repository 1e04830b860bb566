/// What an annotation draws besides its rectangle: the properties a reader needs to show it again, or to draw it
/// afresh, and what moving it must carry along. Points are in display space (points, origin at the top left of the
/// displayed page), like `Annotation.rect`.
public struct AnnotationDrawing: Sendable, Hashable {
    /// /C: the colour of the stroke, the text or the highlight.
    public var color: RGBColor?
    /// /CA: 1 is opaque.
    public var opacity: Double?
    /// /BS /W: the width of lines and borders.
    public var lineWidth: Double?
    /// /InkList: the strokes of an Ink annotation.
    public var inkList: [[Point]]
    /// /QuadPoints: per line of words, its upper-left, upper-right, lower-left and lower-right corners (as the words
    /// read), for Highlight, Underline, StrikeOut and Squiggly.
    public var quads: [[Point]]
    /// /DA's font size, for FreeText.
    public var fontSize: Double?
    /// /Subj: what the annotation is, in the words of the tool that wrote it.
    public var subject: String?
    /// A Line's two ends (/L), a Polygon's or PolyLine's corners (/Vertices).
    public var vertices: [Point]
    /// /IC: the inside of a Square, Circle, Polygon or Line ending.
    public var interiorColor: RGBColor?
    /// /Name: a Text note's icon, a Stamp's stamp.
    public var icon: String?
    /// /Rotate of a FreeText or Stamp, degrees.
    public var rotation: Int?

    public init(color: RGBColor? = nil, opacity: Double? = nil, lineWidth: Double? = nil, inkList: [[Point]] = [],
                quads: [[Point]] = [], fontSize: Double? = nil, subject: String? = nil, vertices: [Point] = [],
                interiorColor: RGBColor? = nil, icon: String? = nil, rotation: Int? = nil) {
        self.vertices = vertices
        self.interiorColor = interiorColor
        self.icon = icon
        self.rotation = rotation
        self.color = color
        self.opacity = opacity
        self.lineWidth = lineWidth
        self.inkList = inkList
        self.quads = quads
        self.fontSize = fontSize
        self.subject = subject
    }

    public static let none = AnnotationDrawing()

    /// The same drawing moved by (dx, dy).
    public func translated(dx: Double, dy: Double) -> AnnotationDrawing {
        var moved = self
        moved.inkList = inkList.map { $0.map { Point(x: $0.x + dx, y: $0.y + dy) } }
        moved.quads = quads.map { $0.map { Point(x: $0.x + dx, y: $0.y + dy) } }
        moved.vertices = vertices.map { Point(x: $0.x + dx, y: $0.y + dy) }
        return moved
    }
}
