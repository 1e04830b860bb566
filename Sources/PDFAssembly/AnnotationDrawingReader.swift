import CQPDF
import Foundation
import RedlineCore

/// What an annotation draws, read from its dictionary into display space: colours, opacity, width, ink strokes,
/// quad points, a line's ends and a polygon's corners, a FreeText's font size and text colour.
struct AnnotationDrawingReader {
    let session: QPDFSession
    /// More numbers than any real annotation holds (a million ink points, an hour of handwriting); a hostile array
    /// is read no further. What Redline reads it exports as XFDF, so a real ink must fit whole.
    static let mostNumbers = 2_000_000

    func drawing(of object: qpdf_oh, subtype: String, geometry: PageGeometry) -> AnnotationDrawing {
        var drawing = AnnotationDrawing()
        let entries = QPDFSession.Entries(of: object, in: session)
        func key(_ name: String) -> qpdf_oh { entries[name] }
        func display(_ values: [Double]) -> [Point] {
            stride(from: 0, to: values.count - 1, by: 2).map { geometry.displayPoint(fromUser: Point(x: values[$0], y: values[$0 + 1])) }
        }
        drawing.color = color(key("/C"))
        drawing.interiorColor = color(key("/IC"))
        drawing.opacity = session.real(key("/CA"))
        // Asked of anything but a dictionary, qpdf warns, and a warning reads as a repair of the file.
        let style = key("/BS")
        let border = session.isDictionary(style) ? session.real(session.key(style, "/W")) : nil
        drawing.lineWidth = border ?? numbers(key("/Border")).flatMap { $0.count >= 3 ? $0[2] : nil }
        drawing.subject = session.text(key("/Subj"))
        drawing.icon = session.textOrName(key("/Name"))
        drawing.rotation = session.integer(key("/Rotate"))
        var budget = Self.mostNumbers
        for stroke in session.arrayItems(key("/InkList")) where budget > 0 {
            guard let values = numbers(stroke, atMost: budget) else { continue }
            budget -= max(1, values.count)
            drawing.inkList.append(display(values))
        }
        if let quads = numbers(key("/QuadPoints")), quads.count >= 8 {
            let points = display(Array(quads.prefix(quads.count - quads.count % 8)))
            drawing.quads = stride(from: 0, to: points.count, by: 4).map { Array(points[$0..<($0 + 4)]) }
        }
        if subtype == "Line", let ends = numbers(key("/L")), ends.count == 4 { drawing.vertices = display(ends) }
        if let corners = numbers(key("/Vertices")) { drawing.vertices = display(corners) }
        if subtype == "FreeText" {
            // A FreeText's /C is its background: the colour a reviewer knows it by is its text's.
            drawing.background = drawing.color
            drawing.color = nil
            if let appearance = session.text(key("/DA")) {
                let (size, color) = AnnotationDrawing.parse(defaultAppearance: appearance)
                drawing.fontSize = size
                drawing.color = color
            }
            drawing.justification = session.integer(key("/Q")).flatMap(AnnotationDrawing.Justification.init(rawValue:))
            drawing.defaultStyle = session.text(key("/DS"))
            // Acrobat draws the text in /DS's colour and writes a default black into /DA: the colour the reviewer
            // saw, kept when the box is drawn again, is /DS's.
            if let style = drawing.defaultStyle, let color = AnnotationDrawing.color(inStyle: style) { drawing.color = color }
        }
        drawing.richText = session.text(key("/RC"))
        drawing.intent = session.name(key("/IT")).flatMap { AnnotationDrawing.isPlainName($0) ? $0 : nil }
        func ending(_ name: String?) -> String { name.flatMap { AnnotationDrawing.lineEndingNames.contains($0) ? $0 : nil } ?? "None" }
        if subtype == "FreeText" {
            // A callout's one ending, a name (its line is /CL).
            if let name = session.name(key("/LE")) { drawing.lineEndings = [ending(name)] }
        } else {
            let ends = session.arrayItems(key("/LE")).prefix(2).map { ending(session.name($0)) }
            if !ends.isEmpty { drawing.lineEndings = ends.count == 1 ? ends + ["None"] : ends }
        }
        if subtype == "FreeText", let callout = numbers(key("/CL")), [4, 6].contains(callout.count) { drawing.callout = display(callout) }
        readBorder(into: &drawing, style: style, effect: key("/BE"))
        if let fringe = numbers(key("/RD")), fringe.count == 4 { drawing.fringe = fringe }
        let popup = key("/Popup")
        if session.isDictionary(popup), let box = numbers(session.key(popup, "/Rect")), let rect = geometry.displayRect(fromUser: box) {
            let open = session.key(popup, "/Open")
            drawing.popup = AnnotationDrawing.Popup(rect: rect, isOpen: qpdf_oh_is_bool(session.data, open) != 0
                                                        && qpdf_oh_get_bool_value(session.data, open) != 0)
        }
        return drawing
    }

    /// /BS /S and /D, and /BE's cloud.
    private func readBorder(into drawing: inout AnnotationDrawing, style: qpdf_oh, effect: qpdf_oh) {
        if session.isDictionary(style) {
            switch session.name(session.key(style, "/S")) {
            case "D": drawing.borderStyle = .dashed
            case "B": drawing.borderStyle = .beveled
            case "I": drawing.borderStyle = .inset
            case "U": drawing.borderStyle = .underline
            default: break
            }
            if let dashes = numbers(session.key(style, "/D"), atMost: 16), !dashes.isEmpty,
               dashes.allSatisfy({ $0 >= 0 }), dashes.contains(where: { $0 > 0 }) {
                drawing.dashes = dashes
            }
        }
        if session.isDictionary(effect), session.name(session.key(effect, "/S")) == "C" {
            drawing.borderStyle = .cloudy(intensity: session.real(session.key(effect, "/I")).map { min(max($0, 0), 2) } ?? 0)
        }
    }

    /// /C and /IC: nothing (transparent), grey, RGB or CMYK.
    private func color(_ object: qpdf_oh) -> RGBColor? {
        guard let parts = numbers(object) else { return nil }
        switch parts.count {
        case 1: return AnnotationDrawing.rgb([parts[0], parts[0], parts[0]])
        case 3: return AnnotationDrawing.rgb(parts)
        case 4: return AnnotationDrawing.rgb([(1 - parts[0]) * (1 - parts[3]), (1 - parts[1]) * (1 - parts[3]), (1 - parts[2]) * (1 - parts[3])])
        default: return nil
        }
    }


    private func numbers(_ object: qpdf_oh, atMost limit: Int = mostNumbers) -> [Double]? {
        guard session.isArray(object) else { return nil }
        let count = min(Int(qpdf_oh_get_array_n_items(session.data, object)), limit)
        var values: [Double] = []
        values.reserveCapacity(count)
        for index in 0..<count {
            guard let value = session.real(qpdf_oh_get_array_item(session.data, object, Int32(index))) else { return nil }
            values.append(value)
        }
        return values
    }
}
