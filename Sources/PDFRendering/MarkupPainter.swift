import CPoppler
import RedlineCore

/// Draws markup with cairo in display space (points, y down). The screen and the saved file both go
/// through here, which is what makes the screen show what the file will hold.
public struct MarkupPainter: Sendable {
    let measurer: CairoTextMeasurer

    public init(measurer: CairoTextMeasurer) {
        self.measurer = measurer
    }

    func paint(_ items: [MarkupItem], on context: OpaquePointer) {
        for item in items {
            switch item.content {
            case .text(let text):
                paint(text, on: context)
                if let line = text.calloutSketch(measuredBy: measurer) { paint([line], on: context) }
            case .ink, .textMarks, .shape:
                // The same paths an appearance stream writes (`MarkupItem.outlinedDrawing`); a stamp's words need
                // the font, and are drawn as a file's stamp is.
                if let drawing = item.outlinedDrawing {
                    paint(drawing, on: context)
                } else if case .shape(let shape) = item.content, let sketch = shape.sketch {
                    paint([sketch], on: context)
                }
            }
        }
    }

    private func paint(_ text: TextMarkup, on context: OpaquePointer) {
        guard !text.text.isEmpty else { return }
        let metrics = measurer.metrics(of: text.text, fontSize: text.fontSize)
        cairo_save(context)
        MarkupFont.select(on: context, size: text.fontSize)
        setColor(text.color.rgb, alpha: 1, on: context)
        cairo_move_to(context, text.origin.x, text.origin.y + metrics.ascent)
        cairo_show_text(context, text.text)
        cairo_restore(context)
    }

    /// A dashed outline around a selection; drawn on screen only, never saved.
    /// Search hits: tinted yellow over the text (multiplied, so the letters stay as dark as they were); the
    /// current one orange and outlined, so it stands out among the others at any size.
    func paintHits(_ hits: [Rect], current: [Rect], pixelSize: Double, on context: OpaquePointer) {
        guard !hits.isEmpty || !current.isEmpty else { return }
        cairo_save(context)
        cairo_set_operator(context, CAIRO_OPERATOR_MULTIPLY)
        for (rects, red, green, blue) in [(hits, 1.0, 0.93, 0.25), (current, 1.0, 0.6, 0.1)] {
            for rect in rects { cairo_rectangle(context, rect.minX, rect.minY, rect.width, rect.height) }
            cairo_set_source_rgb(context, red, green, blue)
            cairo_fill(context)
        }
        cairo_set_operator(context, CAIRO_OPERATOR_OVER)
        let outset = 2 * pixelSize
        for rect in current {
            cairo_rectangle(context, rect.minX - outset, rect.minY - outset, rect.width + 2 * outset, rect.height + 2 * outset)
        }
        cairo_set_line_width(context, 3 * pixelSize)
        cairo_set_source_rgb(context, 0.85, 0.3, 0)
        cairo_stroke(context)
        cairo_restore(context)
    }

    /// Selected words: tinted blue, as selections are in every viewer, multiplied so the letters stay dark.
    func paintSelection(_ rects: [Rect], on context: OpaquePointer) {
        guard !rects.isEmpty else { return }
        cairo_save(context)
        cairo_set_operator(context, CAIRO_OPERATOR_MULTIPLY)
        for rect in rects { cairo_rectangle(context, rect.minX, rect.minY, rect.width, rect.height) }
        cairo_set_source_rgb(context, 0.55, 0.75, 1)
        cairo_fill(context)
        cairo_restore(context)
    }

    func paintHighlight(_ rect: Rect, pixelSize: Double, on context: OpaquePointer) {
        cairo_save(context)
        // A terminal cell averages about 8 × 16 pixels: a thinner line would fade into the paper there.
        let outset = 4 * pixelSize
        cairo_rectangle(context, rect.minX - outset, rect.minY - outset,
                        max(rect.width, pixelSize) + 2 * outset, rect.height + 2 * outset)
        cairo_set_line_width(context, 4 * pixelSize)
        var dashes = [16 * pixelSize, 8 * pixelSize]
        cairo_set_dash(context, &dashes, 2, 0)
        cairo_set_source_rgb(context, 1, 0.55, 0)
        cairo_stroke(context)
        cairo_restore(context)
    }

    private func setColor(_ rgb: RGBColor, alpha: Double, on context: OpaquePointer) {
        cairo_set_source_rgba(context, Double(rgb.red) / 255, Double(rgb.green) / 255, Double(rgb.blue) / 255, alpha)
    }
}
