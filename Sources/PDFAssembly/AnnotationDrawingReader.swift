import CQPDF
import Foundation
import RedlineCore

/// What an annotation draws, read from its dictionary into display space: colours, opacity, width, ink strokes,
/// quad points, a line's ends and a polygon's corners, a FreeText's font size and text colour.
struct AnnotationDrawingReader {
    /// More numbers than any real annotation holds (a million ink points, an hour of handwriting); a hostile array
    /// is read no further. What Redline reads it exports as XFDF, so a real ink must fit whole.
    static let mostNumbers = 2_000_000

    func drawing(of entries: ObjectEntries, subtype: String, geometry: PageGeometry) -> AnnotationDrawing {
        var drawing = AnnotationDrawing()
        func display(_ values: [Double]) -> [Point] {
            stride(from: 0, to: values.count - 1, by: 2).map { geometry.displayPoint(fromUser: Point(x: values[$0], y: values[$0 + 1])) }
        }
        drawing.color = color(entries.numbers("/C"))
        drawing.interiorColor = color(entries.numbers("/IC"))
        drawing.opacity = entries.real("/CA")
        let style = entries.dictionary("/BS")
        drawing.lineWidth = style?.real("/W") ?? entries.numbers("/Border").flatMap { $0.count >= 3 ? $0[2] : nil }
        drawing.subject = entries.text("/Subj")
        drawing.icon = entries.textOrName("/Name")
        drawing.rotation = entries.integer("/Rotate")
        var budget = Self.mostNumbers
        for stroke in entries.items("/InkList") where budget > 0 {
            guard let values = entries.numbers(stroke, atMost: budget) else { continue }
            budget -= max(1, values.count)
            drawing.inkList.append(display(values))
        }
        if let quads = entries.numbers("/QuadPoints", atMost: Self.mostNumbers), quads.count >= 8 {
            let points = display(Array(quads.prefix(quads.count - quads.count % 8)))
            drawing.quads = stride(from: 0, to: points.count, by: 4).map { Array(points[$0..<($0 + 4)]) }
        }
        if subtype == "Line", let ends = entries.numbers("/L"), ends.count == 4 { drawing.vertices = display(ends) }
        if let corners = entries.numbers("/Vertices", atMost: Self.mostNumbers) { drawing.vertices = display(corners) }
        if subtype == "FreeText" {
            // A FreeText's /C is its background: the colour a reviewer knows it by is its text's.
            drawing.background = drawing.color
            drawing.color = nil
            if let appearance = entries.text("/DA") {
                let (size, color) = AnnotationDrawing.parse(defaultAppearance: appearance)
                drawing.fontSize = size
                drawing.color = color
            }
            drawing.justification = entries.integer("/Q").flatMap(AnnotationDrawing.Justification.init(rawValue:))
            drawing.defaultStyle = entries.text("/DS")
            // Acrobat draws the text in /DS's colour and writes a default black into /DA: the colour the reviewer
            // saw, kept when the box is drawn again, is /DS's.
            if let style = drawing.defaultStyle, let color = AnnotationDrawing.color(inStyle: style) { drawing.color = color }
        }
        drawing.richText = entries.text("/RC")
        drawing.intent = entries.name("/IT").flatMap { AnnotationDrawing.isPlainName($0) ? $0 : nil }
        func ending(_ name: String?) -> String { name.flatMap { AnnotationDrawing.lineEndingNames.contains($0) ? $0 : nil } ?? "None" }
        if subtype == "FreeText" {
            // A callout's one ending, a name (its line is /CL).
            if let name = entries.name("/LE") { drawing.lineEndings = [ending(name)] }
        } else {
            let ends = entries.items("/LE").prefix(2).map { item -> String in
                guard case .name(let name) = item else { return ending(nil) }
                return ending(name)
            }
            if !ends.isEmpty { drawing.lineEndings = ends.count == 1 ? ends + ["None"] : ends }
        }
        if subtype == "FreeText", let callout = entries.numbers("/CL"), [4, 6].contains(callout.count) { drawing.callout = display(callout) }
        readBorder(into: &drawing, style: style, effect: entries.dictionary("/BE"))
        if let fringe = entries.numbers("/RD"), fringe.count == 4 {
            let flags = entries.int64("/F").flatMap(PDFLimits.flags) ?? 0
            drawing.fringe = geometry.displayFringe(fromUser: fringe, upright: Annotation.staysUpright(flags: flags, subtype: AnnotationSubtype(rawValue: subtype)))
        }
        if let popup = entries.dictionary("/Popup"), let box = popup.numbers("/Rect"), let rect = geometry.displayRect(fromUser: box) {
            drawing.popup = AnnotationDrawing.Popup(rect: rect, isOpen: popup.boolean("/Open") == true)
        }
        return drawing
    }

    /// /BS /S and /D, and /BE's cloud.
    private func readBorder(into drawing: inout AnnotationDrawing, style: ObjectEntries?, effect: ObjectEntries?) {
        if let style {
            switch style.name("/S") {
            case "D": drawing.borderStyle = .dashed
            case "B": drawing.borderStyle = .beveled
            case "I": drawing.borderStyle = .inset
            case "U": drawing.borderStyle = .underline
            default: break
            }
            if let dashes = style.numbers("/D", atMost: 16), !dashes.isEmpty,
               dashes.allSatisfy({ $0 >= 0 }), dashes.contains(where: { $0 > 0 }) {
                drawing.dashes = dashes
            }
        }
        if let effect, effect.name("/S") == "C" {
            drawing.borderStyle = .cloudy(intensity: effect.real("/I").map { min(max($0, 0), 2) } ?? 0)
        }
    }

    /// /C and /IC: nothing (transparent), grey, RGB or CMYK.
    private func color(_ parts: [Double]?) -> RGBColor? {
        guard let parts else { return nil }
        switch parts.count {
        case 1: return AnnotationDrawing.rgb([parts[0], parts[0], parts[0]])
        case 3: return AnnotationDrawing.rgb(parts)
        case 4: return AnnotationDrawing.rgb([(1 - parts[0]) * (1 - parts[3]), (1 - parts[1]) * (1 - parts[3]), (1 - parts[2]) * (1 - parts[3])])
        default: return nil
        }
    }
}
