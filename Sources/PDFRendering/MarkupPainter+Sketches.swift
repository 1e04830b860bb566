import CPoppler
import Foundation
import RedlineCore

/// Annotations drawn from their keys (shapes, lines, notes, stamps), as a reader without their appearance would.
extension MarkupPainter {
    func paint(_ sketches: [AnnotationSketch], on context: OpaquePointer) {
        for sketch in sketches {
            cairo_save(context)
            paint(sketch, on: context)
            cairo_restore(context)
        }
    }

    private func paint(_ sketch: AnnotationSketch, on context: OpaquePointer) {
        // Shapes, lines and polygons as the outlines an appearance stream writes too; notes and stamps here alone.
        if let drawing = sketch.outlinedDrawing {
            paint(drawing, on: context)
            return
        }
        if sketch.multiplies { cairo_set_operator(context, CAIRO_OPERATOR_MULTIPLY) }
        cairo_set_line_width(context, sketch.width)
        cairo_set_line_join(context, CAIRO_LINE_JOIN_MITER)
        if !sketch.dashes.isEmpty {
            var dashes = sketch.dashes.map { max(0.1, $0) }
            cairo_set_dash(context, &dashes, Int32(dashes.count), 0)
        }
        switch sketch.shape {
        case .rectangle, .ellipse, .path:
            break
        case .note(let rect):
            // A sheet with a folded corner and three lines of writing, as readers show a note's icon.
            let fold = rect.width / 4
            cairo_move_to(context, rect.minX, rect.minY)
            cairo_line_to(context, rect.maxX - fold, rect.minY)
            cairo_line_to(context, rect.maxX, rect.minY + fold)
            cairo_line_to(context, rect.maxX, rect.maxY)
            cairo_line_to(context, rect.minX, rect.maxY)
            cairo_close_path(context)
            fillAndStroke(sketch, on: context)
            for row in 1...3 {
                let y = rect.minY + rect.height * Double(row) / 4.5 + rect.height / 9
                cairo_move_to(context, rect.minX + rect.width / 5, y)
                cairo_line_to(context, rect.maxX - rect.width / 5, y)
            }
            setColor(sketch.stroke, alpha: sketch.opacity, on: context)
            cairo_stroke(context)
        case .stamp(let rect, let words):
            let inset = sketch.width
            roundedRectangle(rect.insetBy(dx: inset, dy: inset), radius: min(rect.width, rect.height) / 8, on: context)
            fillAndStroke(sketch, on: context)
            paintWords(words, fittedIn: rect.insetBy(dx: 3 * inset, dy: 3 * inset), color: sketch.stroke, alpha: sketch.opacity,
                       on: context)
        }
    }

    private func fillAndStroke(_ sketch: AnnotationSketch, on context: OpaquePointer) {
        fillAndStroke(fill: sketch.fill, stroke: sketch.stroke, opacity: sketch.opacity, on: context)
    }

    /// The current path filled, then stroked, in what is given of the two; then forgotten.
    private func fillAndStroke(fill: RGBColor?, stroke: RGBColor?, opacity: Double, on context: OpaquePointer) {
        if let fill {
            setColor(fill, alpha: opacity, on: context)
            if stroke == nil { cairo_fill(context) } else { cairo_fill_preserve(context) }
        }
        if let stroke {
            setColor(stroke, alpha: opacity, on: context)
            cairo_stroke(context)
        }
        cairo_new_path(context)
    }

    /// Paths in their width, dashes (on a shape's own line only), caps and opacity: a sketch, an ink, text marks.
    func paint(_ drawing: OutlinedDrawing, on context: OpaquePointer) {
        cairo_save(context)
        if drawing.multiplies { cairo_set_operator(context, CAIRO_OPERATOR_MULTIPLY) }
        cairo_set_line_width(context, drawing.width)
        cairo_set_line_cap(context, drawing.rounded ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(context, drawing.rounded ? CAIRO_LINE_JOIN_ROUND : CAIRO_LINE_JOIN_MITER)
        for outline in drawing.outlines {
            if outline.dashed && !drawing.dashes.isEmpty {
                var dashes = drawing.dashes.map { max(0.1, $0) }
                cairo_set_dash(context, &dashes, Int32(dashes.count), 0)
            } else {
                cairo_set_dash(context, nil, 0, 0)
            }
            for segment in outline.segments {
                switch segment {
                case .move(let point): cairo_move_to(context, point.x, point.y)
                case .line(let point): cairo_line_to(context, point.x, point.y)
                case .curve(let first, let second, let end): cairo_curve_to(context, first.x, first.y, second.x, second.y, end.x, end.y)
                case .close: cairo_close_path(context)
                }
            }
            fillAndStroke(fill: outline.fill, stroke: outline.stroke, opacity: drawing.opacity, on: context)
        }
        cairo_restore(context)
    }

    private func roundedRectangle(_ rect: Rect, radius: Double, on context: OpaquePointer) {
        guard rect.width > 0, rect.height > 0 else { return }
        let r = max(0, min(radius, rect.width / 2, rect.height / 2))
        cairo_new_sub_path(context)
        cairo_arc(context, rect.maxX - r, rect.minY + r, r, -Double.pi / 2, 0)
        cairo_arc(context, rect.maxX - r, rect.maxY - r, r, 0, Double.pi / 2)
        cairo_arc(context, rect.minX + r, rect.maxY - r, r, Double.pi / 2, Double.pi)
        cairo_arc(context, rect.minX + r, rect.minY + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(context)
    }

    /// `words` in bold capitals as large as fit the box, centred.
    private func paintWords(_ words: String, fittedIn box: Rect, color: RGBColor?, alpha: Double, on context: OpaquePointer) {
        guard box.width > 0, box.height > 0, !words.isEmpty else { return }
        let probe = 100.0
        MarkupFont.select(on: context, size: probe)
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, words, &extents)
        guard extents.width > 0, extents.height > 0 else { return }
        let size = probe * min(box.width / extents.width, box.height / extents.height)
        guard size.isFinite, size > 0.5 else { return }
        MarkupFont.select(on: context, size: size)
        cairo_text_extents(context, words, &extents)
        setColor(color, alpha: alpha, on: context)
        cairo_move_to(context, box.center.x - extents.width / 2 - extents.x_bearing, box.center.y - extents.height / 2 - extents.y_bearing)
        cairo_show_text(context, words)
    }

    private func setColor(_ rgb: RGBColor?, alpha: Double, on context: OpaquePointer) {
        let rgb = rgb ?? RGBColor(red: 0, green: 0, blue: 0)
        cairo_set_source_rgba(context, Double(rgb.red) / 255, Double(rgb.green) / 255, Double(rgb.blue) / 255, alpha)
    }
}
