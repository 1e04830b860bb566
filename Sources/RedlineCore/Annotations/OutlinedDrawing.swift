import Foundation

/// One path of a drawing, in display space, filled, stroked or both: one geometry for the screen's painter and for
/// the appearance streams written into files, so the file shows what the screen showed.
public struct PathOutline: Sendable, Hashable {
    public enum Segment: Sendable, Hashable {
        case move(Point)
        case line(Point)
        case curve(Point, Point, to: Point)
        case close
    }

    public var segments: [Segment]
    /// Filled before it is stroked; nil: not filled.
    public var fill: RGBColor?
    /// Nil: not stroked.
    public var stroke: RGBColor?
    /// Dashes apply to the shape's own line, never to a line's ends.
    public var dashed: Bool
}

/// What the painter draws as paths alone, with how they are stroked: a sketch, an ink, highlights, underlines and
/// strike-outs. The screen's painter draws it with cairo; an appearance stream writes it as operators.
public struct OutlinedDrawing: Sendable, Hashable {
    public var outlines: [PathOutline]
    public var width: Double
    public var dashes: [Double]
    public var opacity: Double
    /// Laid over the page multiplied (an area highlight).
    public var multiplies: Bool
    /// Round caps and joins (a pen's stroke), else butt caps and mitred joins.
    public var rounded: Bool

    /// A drawing of nothing: the appearance of an annotation that shows nothing.
    public static let empty = OutlinedDrawing(outlines: [], width: 0, dashes: [], opacity: 1, multiplies: false, rounded: false)
}

extension AnnotationSketch {
    /// The sketch as paths; nil for a note or a stamp.
    public var outlinedDrawing: OutlinedDrawing? {
        outlines.map { OutlinedDrawing(outlines: $0, width: width, dashes: dashes, opacity: opacity, multiplies: multiplies, rounded: false) }
    }
}

extension MarkupItem {
    /// An ink or text marks as paths, as the painter draws them; nil for text, which needs its font.
    public var outlinedDrawing: OutlinedDrawing? {
        switch content {
        case .text:
            return nil
        case .shape(let shape):
            return shape.sketch?.outlinedDrawing
        case .ink(let ink):
            // One path for every stroke, so a translucent highlighter does not darken where its strokes cross; a
            // stroke of one point is a dot (a round cap on a line of no length).
            let segments = ink.strokes.flatMap { stroke -> [PathOutline.Segment] in
                guard let first = stroke.first else { return [] }
                return [.move(first)] + (stroke.count == 1 ? [.line(first)] : stroke.dropFirst().map { .line($0) })
            }
            return OutlinedDrawing(outlines: [PathOutline(segments: segments, fill: nil, stroke: ink.color.rgb, dashed: false)],
                                   width: ink.width, dashes: [], opacity: ink.opacity, multiplies: false, rounded: true)
        case .textMarks(let marks) where marks.kind == .squiggly:
            // The zigzag Redline draws under a Squiggly annotation's words, so what is saved as one shows as it was.
            let segments = marks.rects.flatMap { rect -> [PathOutline.Segment] in
                let zigzag = AnnotationSketch.zigzag(under: rect)
                guard let first = zigzag.first else { return [] }
                return [.move(first)] + zigzag.dropFirst().map { .line($0) }
            }
            return OutlinedDrawing(outlines: [PathOutline(segments: segments, fill: nil, stroke: marks.color.rgb, dashed: false)],
                                   width: 1, dashes: [], opacity: 1, multiplies: false, rounded: false)
        case .textMarks(let marks):
            // A highlight fills each line's box translucently; an underline or a strike-out is a bar across it.
            let segments = marks.rects.flatMap { rect -> [PathOutline.Segment] in
                let box: Rect
                if marks.kind == .highlight {
                    box = rect
                } else {
                    let line = TextMarks.line(for: rect, kind: marks.kind)
                    box = Rect(x: rect.minX, y: line.y - line.thickness / 2, width: rect.width, height: line.thickness)
                }
                return [.move(Point(x: box.minX, y: box.minY)), .line(Point(x: box.maxX, y: box.minY)), .line(Point(x: box.maxX, y: box.maxY)),
                        .line(Point(x: box.minX, y: box.maxY)), .close]
            }
            return OutlinedDrawing(outlines: [PathOutline(segments: segments, fill: marks.color.rgb, stroke: nil, dashed: false)],
                                   width: 0, dashes: [], opacity: marks.kind == .highlight ? TextMarks.highlightOpacity : 1,
                                   multiplies: false, rounded: false)
        }
    }
}

extension AnnotationSketch {
    /// The outlines of a shape, a line with its ends or a polygon, in drawing order; nil for a note or a stamp, whose
    /// icon and words only the painter draws.
    public var outlines: [PathOutline]? {
        switch shape {
        case .rectangle(let rect):
            return [PathOutline(segments: [.move(Point(x: rect.minX, y: rect.minY)), .line(Point(x: rect.maxX, y: rect.minY)),
                                             .line(Point(x: rect.maxX, y: rect.maxY)), .line(Point(x: rect.minX, y: rect.maxY)), .close],
                                  fill: fill, stroke: stroke, dashed: true)]
        case .ellipse(let rect):
            return [PathOutline(segments: Self.ellipse(center: rect.center, radii: (rect.width / 2, rect.height / 2)),
                                  fill: fill, stroke: stroke, dashed: true)]
        case .path(let strokes, let closed):
            var outlines = [PathOutline(segments: strokes.flatMap { stroke -> [PathOutline.Segment] in
                guard let first = stroke.first else { return [] }
                return [.move(first)] + stroke.dropFirst().map { .line($0) } + (closed ? [.close] : [])
            }, fill: closed ? fill : nil, stroke: stroke, dashed: true)]
            if let line = strokes.first, line.count >= 2, let stroke {
                let ends = [(line[0], line[1]), (line[line.count - 1], line[line.count - 2])]
                for (index, end) in ends.enumerated() where index < endings.count {
                    guard let ending = endings[index], let outline = Self.outline(of: ending, at: end.0, awayFrom: end.1, width: width,
                                                                                  stroke: stroke, fill: fill) else { continue }
                    outlines.append(outline)
                }
            }
            return outlines
        case .note, .stamp:
            return nil
        }
    }

    /// An ellipse in four cubic Bézier quarters (the usual 0.5523 handle length).
    static func ellipse(center: Point, radii: (x: Double, y: Double)) -> [PathOutline.Segment] {
        let k = 0.5522847498
        let (cx, cy, rx, ry) = (center.x, center.y, radii.x, radii.y)
        return [
            .move(Point(x: cx + rx, y: cy)),
            .curve(Point(x: cx + rx, y: cy + k * ry), Point(x: cx + k * rx, y: cy + ry), to: Point(x: cx, y: cy + ry)),
            .curve(Point(x: cx - k * rx, y: cy + ry), Point(x: cx - rx, y: cy + k * ry), to: Point(x: cx - rx, y: cy)),
            .curve(Point(x: cx - rx, y: cy - k * ry), Point(x: cx - k * rx, y: cy - ry), to: Point(x: cx, y: cy - ry)),
            .curve(Point(x: cx + k * rx, y: cy - ry), Point(x: cx + rx, y: cy - k * ry), to: Point(x: cx + rx, y: cy)),
            .close,
        ]
    }

    /// A line's end at `tip`, the line coming from `from`: drawn along the line, past the tip for a reversed arrow.
    static func outline(of ending: Ending, at tip: Point, awayFrom from: Point, width: Double, stroke: RGBColor,
                        fill: RGBColor?) -> PathOutline? {
        let size = endingSize(width: width)
        let dx = tip.x - from.x, dy = tip.y - from.y
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else { return nil }
        let (cosine, sine) = (dx / length, dy / length)
        // (u, v): u onward past the tip, v across the line.
        func at(_ u: Double, _ v: Double) -> Point { Point(x: tip.x + u * cosine - v * sine, y: tip.y + u * sine + v * cosine) }
        let segments: [PathOutline.Segment]
        switch ending {
        case .openArrow, .closedArrow:
            segments = [.move(at(-size, -size / 2)), .line(at(0, 0)), .line(at(-size, size / 2))]
        case .reversedOpenArrow, .reversedClosedArrow:
            segments = [.move(at(size, -size / 2)), .line(at(0, 0)), .line(at(size, size / 2))]
        case .square:
            segments = [.move(at(-size / 2, -size / 2)), .line(at(size / 2, -size / 2)), .line(at(size / 2, size / 2)), .line(at(-size / 2, size / 2))]
        case .circle:
            segments = Array(ellipse(center: tip, radii: (size / 2, size / 2)).dropLast())
        case .diamond:
            segments = [.move(at(0, -size / 2)), .line(at(size / 2, 0)), .line(at(0, size / 2)), .line(at(-size / 2, 0))]
        case .butt:
            segments = [.move(at(0, -size / 2)), .line(at(0, size / 2))]
        case .slash:
            segments = [.move(at(-size / 4, size / 2)), .line(at(size / 4, -size / 2))]
        }
        let closes: Set<Ending> = [.closedArrow, .reversedClosedArrow, .square, .circle, .diamond]
        let closed = closes.contains(ending)
        return PathOutline(segments: segments + (closed ? [.close] : []), fill: closed ? fill : nil, stroke: stroke, dashed: false)
    }
}
