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
    /// /LE: how a Line's or PolyLine's two ends look (`OpenArrow`, `Circle`, …), head first; a callout's one end.
    public var lineEndings: [String] = []
    /// /CL: a FreeText callout's line, two or three points from the pointed-at spot to the box.
    public var callout: [Point] = []
    /// /IT: what the annotation is for beyond its subtype (`FreeTextCallout`, `LineArrow`, …).
    public var intent: String?
    /// /BS /S (and /BE for a cloudy border): how the border is drawn; nil for solid, the default.
    public var borderStyle: BorderStyle?
    /// /BS /D: the dash pattern of a dashed border.
    public var dashes: [Double] = []
    /// /RD: how far the drawn shape stands inside /Rect (left, top, right, bottom), in points.
    public var fringe: [Double] = []
    /// A FreeText's /C: the colour its box is filled with (its text colour is `color`, from /DA).
    public var background: RGBColor?
    /// A FreeText's /Q: how its lines align.
    public var justification: Justification?
    /// A FreeText's /DS: its text's CSS style, as the tool that wrote it said it.
    public var defaultStyle: String?
    /// /RC: the contents as rich text (XHTML), as the tool that wrote it said it.
    public var richText: String?
    /// The popup that shows the annotation's text: where it opens and whether it is open.
    public var popup: Popup?

    /// /BS /S other than solid, and cloudy (/BE /S /C) with its intensity.
    public enum BorderStyle: Sendable, Hashable {
        case dashed, beveled, inset, underline
        case cloudy(intensity: Double)
    }

    /// /Q: 0, 1, 2.
    public enum Justification: Int, Sendable, Hashable {
        case left = 0, centered = 1, right = 2
    }

    /// A /Popup annotation, folded into its parent: its rect on the displayed page and /Open.
    public struct Popup: Sendable, Hashable {
        public var rect: Rect
        public var isOpen: Bool

        public init(rect: Rect, isOpen: Bool) {
            self.rect = rect
            self.isOpen = isOpen
        }
    }

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
        moved.callout = callout.map { Point(x: $0.x + dx, y: $0.y + dy) }
        moved.popup = popup.map { Popup(rect: $0.rect.offsetBy(dx: dx, dy: dy), isOpen: $0.isOpen) }
        return moved
    }
}

extension AnnotationDrawing {
    /// A FreeText's /DA, `/Helv 14 Tf 1 0 0 rg`: the size before Tf, the colour before rg (or g for grey).
    public static func parse(defaultAppearance text: String) -> (size: Double?, color: RGBColor?) {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        var size: Double?, color: RGBColor?
        for (index, word) in words.enumerated() {
            if word == "Tf", index >= 1, let value = Double(words[index - 1]), value.isFinite, value >= 0 { size = value }
            if word == "rg", index >= 3 {
                let parts = words[(index - 3)..<index].compactMap(Double.init)
                if parts.count == 3 { color = rgb(parts) }
            }
            if word == "g", index >= 1, let grey = Double(words[index - 1]) { color = rgb([grey, grey, grey]) }
        }
        return (size, color)
    }

    /// A FreeText's /DA for a size and text colour (black when none): `/Helv 14 Tf 1 0 0 rg`. The appearance Redline
    /// draws uses DejaVu Sans; /DA names Helvetica, a standard font every reader has, for a reader that draws the
    /// text afresh after the user edits it.
    public static func defaultAppearance(fontSize: Double, color: RGBColor?) -> String {
        let color = color ?? RGBColor(red: 0, green: 0, blue: 0)
        let components = [color.red, color.green, color.blue].map { PDFNumber.format(Double($0) / 255) }.joined(separator: " ")
        return "/Helv \(PDFNumber.format(fontSize)) Tf \(components) rg"
    }

    /// ISO 32000's line endings (/LE); a file's other names are read as None.
    public static let lineEndingNames: Set<String> = ["None", "Square", "Circle", "Diamond", "OpenArrow", "ClosedArrow", "Butt",
                                                      "ROpenArrow", "RClosedArrow", "Slash"]

    /// A name of letters and digits, as /IT's are (`FreeTextCallout`): a file's other /IT is not kept.
    public static func isPlainName(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64 && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    }

    /// The text colour a /DS (CSS: `font: Helvetica 12pt; color:#FF5400`) gives, as `#RRGGBB` or `#RGB`.
    public static func color(inStyle style: String) -> RGBColor? {
        for declaration in style.split(separator: ";") {
            let parts = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, parts[0].lowercased() == "color" else { continue }
            var hex = parts[1].uppercased()
            if hex.count == 4, hex.hasPrefix("#") { hex = "#" + hex.dropFirst().map { "\($0)\($0)" }.joined() }
            return RGBColor(hex: hex)
        }
        return nil
    }

    /// The /DS Redline writes with a text box: the font its appearance draws with, the size and the colour.
    public static func defaultStyle(fontSize: Double, color: RGBColor?) -> String {
        "font: DejaVu Sans \(PDFNumber.format(fontSize))pt; color: \((color ?? RGBColor(red: 0, green: 0, blue: 0)).hex)"
    }

    /// Colour components from 0 to 1 (clamped) as 8-bit RGB.
    public static func rgb(_ parts: [Double]) -> RGBColor {
        let channels = parts.map { value -> UInt8 in
            guard value.isFinite else { return 0 }
            return UInt8(clamping: Int((min(max(value, 0), 1) * 255).rounded()))
        }
        return RGBColor(red: channels[0], green: channels[1], blue: channels[2])
    }
}

extension AnnotationDrawing {
    private var popupCorners: [Point] {
        popup.map { [Point(x: $0.rect.minX, y: $0.rect.minY), Point(x: $0.rect.maxX, y: $0.rect.maxY)] } ?? []
    }

    /// The same drawing up to the rounding a trip through a file or XFDF gives (a hundredth of a point).
    public func isClose(to other: AnnotationDrawing) -> Bool {
        func near(_ a: Double?, _ b: Double?) -> Bool {
            switch (a, b) {
            case (nil, nil): true
            case (let a?, let b?): abs(a - b) < 0.01
            default: false
            }
        }
        func near(_ a: [Double], _ b: [Double]) -> Bool { a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 0.01 } }
        func near(_ a: [Point], _ b: [Point]) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { abs($0.x - $1.x) < 0.01 && abs($0.y - $1.y) < 0.01 }
        }
        return color == other.color && interiorColor == other.interiorColor && near(opacity, other.opacity)
            && near(lineWidth, other.lineWidth) && near(fontSize, other.fontSize) && subject == other.subject && icon == other.icon
            && rotation == other.rotation && near(vertices, other.vertices)
            && lineEndings == other.lineEndings && near(callout, other.callout) && intent == other.intent && borderStyle == other.borderStyle
            && near(dashes, other.dashes) && near(fringe, other.fringe) && background == other.background
            && justification == other.justification && defaultStyle == other.defaultStyle && richText == other.richText
            && popup?.isOpen == other.popup?.isOpen && near(popupCorners, other.popupCorners)
            && inkList.count == other.inkList.count && zip(inkList, other.inkList).allSatisfy(near)
            && quads.count == other.quads.count && zip(quads, other.quads).allSatisfy(near)
    }
}

extension Annotation {
    /// Where it stands and how it looks are the same as `other`'s, up to a trip through a file or XFDF: the
    /// appearance it has still shows it.
    public func standsAndLooksAs(_ other: Annotation) -> Bool {
        let (a, b) = (rect, other.rect)
        return abs(a.minX - b.minX) < 0.01 && abs(a.minY - b.minY) < 0.01 && abs(a.maxX - b.maxX) < 0.01 && abs(a.maxY - b.maxY) < 0.01
            && drawing.isClose(to: other.drawing)
    }
}
