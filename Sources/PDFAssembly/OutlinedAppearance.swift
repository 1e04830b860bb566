import Foundation
import RedlineCore

/// A drawing of paths alone (a shape, line, polygon or caret drawn from its keys, an ink, highlights, underlines,
/// strike-outs) written as an appearance stream's content: the paths the screen's painter draws
/// (`OutlinedDrawing`), in the space the painter's drawings of a page have (display space with y up, times the
/// page's overlay scale), so it takes the same /BBox and /Matrix as they do. Written as operators, not drawn by cairo
/// and read back by qpdf, which cost the import of 100,000 annotations a second.
enum OutlinedAppearance {
    struct Written: Equatable {
        let content: [UInt8]
        /// The graphics state it names as /G: its opacity and blend; nil when it needs none.
        let state: ObjectText?
    }

    static func written(_ sketch: OutlinedDrawing, pageHeight: Double, scale: Double) -> Written {
        var text = "q\n"
        var state: [String: ObjectText] = [:]
        if sketch.opacity < 1 {
            let opacity = ObjectText.real(max(0, sketch.opacity))
            state["/CA"] = opacity
            state["/ca"] = opacity
        }
        if sketch.multiplies { state["/BM"] = .name("Multiply") }
        if !state.isEmpty { text += "/G gs\n" }
        func number(_ value: Double) -> String { PDFNumber.format(value) }
        func point(_ p: Point) -> String { number(p.x * scale) + " " + number((pageHeight - p.y) * scale) }
        func colour(_ c: RGBColor) -> String {
            [c.red, c.green, c.blue].map { number(Double($0) / 255) }.joined(separator: " ")
        }
        text += number(sketch.width * scale) + (sketch.rounded ? " w 1 J 1 j\n" : " w 0 J 0 j\n")
        for outline in sketch.outlines where outline.fill != nil || outline.stroke != nil {
            let dashes = outline.dashed ? sketch.dashes.map { max(0.1, $0) * scale } : []
            text += "[" + dashes.map(number).joined(separator: " ") + "] 0 d\n"
            if let fill = outline.fill { text += colour(fill) + " rg\n" }
            if let stroke = outline.stroke { text += colour(stroke) + " RG\n" }
            for segment in outline.segments {
                switch segment {
                case .move(let p): text += point(p) + " m\n"
                case .line(let p): text += point(p) + " l\n"
                case .curve(let first, let second, let end): text += point(first) + " " + point(second) + " " + point(end) + " c\n"
                case .close: text += "h\n"
                }
            }
            text += outline.fill == nil ? "S\n" : outline.stroke == nil ? "f\n" : "B\n"
        }
        text += "Q\n"
        return Written(content: Array(text.utf8), state: state.isEmpty ? nil : .dictionary(state))
    }
}
