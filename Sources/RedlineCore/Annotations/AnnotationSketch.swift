import Foundation

/// An annotation the painter draws from its keys alone, as a reader without its appearance stream would: shapes,
/// lines and arrows, polygons, a note's icon, a stamp, a caret, a squiggle. What a shared session shows over the
/// page for such annotations others made or changed, so that no page is rendered again for them.
public struct AnnotationSketch: Sendable, Hashable {
    public enum Shape: Sendable, Hashable {
        case rectangle(Rect)
        case ellipse(Rect)
        /// Strokes of corners joined in order; `closed` joins each one's last corner to its first.
        case path([[Point]], closed: Bool)
        /// A note's icon in this square: a sheet with lines of writing.
        case note(Rect)
        /// A stamp's box with its words fitted inside.
        case stamp(Rect, words: String)
    }

    /// How a line's end looks (/LE): the names ISO 32000-1 table 176 gives.
    public enum Ending: String, Sendable, Hashable, Codable {
        case square = "Square", circle = "Circle", diamond = "Diamond", openArrow = "OpenArrow", closedArrow = "ClosedArrow"
        case butt = "Butt", reversedOpenArrow = "ROpenArrow", reversedClosedArrow = "RClosedArrow", slash = "Slash"
    }

    public var shape: Shape
    public var stroke: RGBColor?
    public var fill: RGBColor?
    public var width: Double
    public var dashes: [Double]
    public var opacity: Double
    /// A line's or polyline's first and last ends.
    public var endings: [Ending?]
    /// Laid over the page as a highlighter is (multiplied), so the words under it stay dark: an area highlight
    /// (/IT /AreaHighlight, a rectangle PDF-XChange and others draw so).
    public var multiplies = false

    public init(shape: Shape, stroke: RGBColor?, fill: RGBColor? = nil, width: Double = 1, dashes: [Double] = [],
                opacity: Double = 1, endings: [Ending?] = []) {
        self.shape = shape
        self.stroke = stroke
        self.fill = fill
        self.width = width
        self.dashes = dashes
        self.opacity = opacity
        self.endings = endings
    }

    /// A note's icon fills its rect, as readers draw its appearance, within these sides (points); a rect without
    /// an area gets the usual 20.
    public static let noteSides = 12.0...40.0
    static let noteYellow = RGBColor(red: 255, green: 209, blue: 51)
    static let stampRed = RGBColor(red: 200, green: 30, blue: 30)

    /// How the painter draws `annotation`, or nil for the kinds it draws as markup (text boxes, ink, highlights,
    /// underlines, strike-outs) and the ones nobody sees (links, popups, widgets).
    public init?(_ annotation: Annotation) {
        let drawing = annotation.drawing
        // As the file holds it (four decimals): a width written as 0 is no line, on screen as in every reader.
        let width = (max(0, min(drawing.lineWidth ?? 1, 1000)) * 10_000).rounded() / 10_000
        let dashes = drawing.borderStyle == .dashed ? (drawing.dashes.isEmpty ? [3] : drawing.dashes) : []
        let opacity = drawing.opacity ?? 1
        func inside(_ rect: Rect) -> Rect? {
            // /RD: where the shape stands inside /Rect; then half the line, so the stroke stays inside too.
            guard let shape = Self.fringed(rect, by: drawing.fringe) else { return nil }
            let inner = Rect(x: shape.minX + width / 2, y: shape.minY + width / 2, width: shape.width - width, height: shape.height - width)
            return inner.width > 0 && inner.height > 0 ? inner : nil
        }
        let stroke = width > 0 ? drawing.color : nil
        switch annotation.subtype.rawValue {
        case "Square", "Circle":
            let square = annotation.subtype.rawValue == "Square"
            if let stroke, let whole = Self.fringed(annotation.rect, by: drawing.fringe), width * 2 >= min(whole.width, whole.height) {
                // A line as wide as half its box covers all of it (the stroke reaches inwards its whole width from
                // each edge): drawn as a box or ellipse of its colour, not a stroke of a path too small for readers.
                self.init(shape: square ? .rectangle(whole) : .ellipse(whole), stroke: nil, fill: stroke, width: 0, opacity: opacity)
                multiplies = drawing.intent == "AreaHighlight"
                return
            }
            guard let box = inside(annotation.rect), stroke != nil || drawing.interiorColor != nil else { return nil }
            self.init(shape: square ? .rectangle(box) : .ellipse(box), stroke: stroke,
                      fill: drawing.interiorColor, width: width, dashes: dashes, opacity: opacity)
            multiplies = drawing.intent == "AreaHighlight"
        case "Line", "PolyLine", "Polygon":
            let closed = annotation.subtype.rawValue == "Polygon"
            guard drawing.vertices.count >= 2, stroke != nil || (closed && drawing.interiorColor != nil) else { return nil }
            let endings = closed ? [] : drawing.lineEndings.prefix(2).map(Ending.init(rawValue:))
            self.init(shape: .path([drawing.vertices], closed: closed), stroke: stroke, fill: drawing.interiorColor, width: width,
                      dashes: dashes, opacity: opacity, endings: endings)
        case "Text":
            let side = min(annotation.rect.width, annotation.rect.height)
            let size = side > 0 ? min(max(side, Self.noteSides.lowerBound), Self.noteSides.upperBound) : 20
            self.init(shape: .note(Rect(x: annotation.rect.minX, y: annotation.rect.minY, width: size, height: size)),
                      stroke: RGBColor(red: 0, green: 0, blue: 0), fill: drawing.color ?? Self.noteYellow, width: 1, opacity: opacity)
        case "Stamp":
            guard annotation.rect.width > 0, annotation.rect.height > 0 else { return nil }
            // Its frame as wide as its border says (a stamp Redline made keeps the width it was drawn with), else 2.
            self.init(shape: .stamp(annotation.rect, words: Self.words(ofStamp: drawing.icon ?? "Draft")),
                      stroke: drawing.color ?? Self.stampRed, width: drawing.lineWidth == nil ? 2 : width, opacity: opacity)
        case "Caret":
            let box = annotation.rect
            guard box.width > 0, box.height > 0 else { return nil }
            self.init(shape: .path([[Point(x: box.minX, y: box.maxY), Point(x: box.center.x, y: box.minY),
                                     Point(x: box.maxX, y: box.maxY)]], closed: false),
                      stroke: drawing.color ?? Self.stampRed, width: max(1, box.width / 8), opacity: opacity)
        case "Squiggly":
            let lines = drawing.quads.compactMap { Rect(enclosing: $0) }
            guard !lines.isEmpty else { return nil }
            // A zigzag under each line of words.
            self.init(shape: .path(lines.map(Self.zigzag(under:)), closed: false), stroke: drawing.color ?? Self.stampRed,
                      width: 1, opacity: opacity)
        default:
            return nil
        }
    }

    /// `rect` less its /RD fringe; nil when nothing is left.
    static func fringed(_ rect: Rect, by fringe: [Double]) -> Rect? {
        let sides = fringe.count == 4 ? fringe : [0, 0, 0, 0]
        let inner = Rect(x: rect.minX + sides[0], y: rect.minY + sides[1], width: rect.width - sides[0] - sides[2],
                         height: rect.height - sides[1] - sides[3])
        return inner.width > 0 && inner.height > 0 ? inner : nil
    }

    /// "NotApproved" → "NOT APPROVED", "#SBConfidential" → "CONFIDENTIAL": the standard names as stamps print them.
    public static func words(ofStamp name: String) -> String {
        var bare = Substring(name)
        if bare.hasPrefix("#") { bare = bare.dropFirst() }
        if bare.count > 2, ["SB", "SH"].contains(String(bare.prefix(2))), bare.dropFirst(2).first?.isUppercase == true {
            bare = bare.dropFirst(2)
        }
        var words = ""
        var previous: Character?
        for character in bare.prefix(80) {
            if character == "_" {
                words.append(" ")
            } else {
                if character.isUppercase, let previous, previous.isLowercase { words.append(" ") }
                words.append(character)
            }
            previous = character
        }
        let trimmed = words.trimmingCharacters(in: .whitespaces).uppercased()
        return trimmed.isEmpty ? "STAMP" : trimmed
    }

    /// A zigzag along the bottom of a line of words, its teeth a sixth of the line's height.
    static func zigzag(under line: Rect) -> [Point] {
        let tooth = max(1, line.height / 6)
        let count = min(2_000, Int((line.width / tooth).rounded(.up)))
        return (0...count).map { index in
            Point(x: line.minX + min(line.width, Double(index) * tooth), y: line.maxY - (index % 2 == 0 ? tooth : 0))
        }
    }

    /// Where its paint reaches, line ends and half the stroke included.
    public var bounds: Rect {
        let reach = width / 2 + (endings.contains { $0 != nil } ? Self.endingSize(width: width) : 0)
        let box: Rect = switch shape {
        case .rectangle(let rect), .ellipse(let rect), .note(let rect), .stamp(let rect, _): rect
        case .path(let strokes, _): Rect(enclosing: strokes.flatMap { $0 }) ?? Rect(x: 0, y: 0, width: 0, height: 0)
        }
        return box.insetBy(dx: -reach, dy: -reach)
    }

    /// How long an arrow head or how wide an end's square is for a line this wide (points).
    public static func endingSize(width: Double) -> Double { max(4, 3 * width + 3) }
}
