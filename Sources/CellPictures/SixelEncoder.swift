import CChafa
import Glibc

/// Pixels as a DEC sixel image, through chafa: xterm's 256 colours, and the bands of six pixel rows the terminal
/// paints. The image starts at the cursor's cell; pixels it does not cover
/// keep what the terminal had.
public final class SixelEncoder: @unchecked Sendable {
    private let termInfo: OpaquePointer

    public init() {
        // The fallback entry knows every sequence chafa can print, sixel's among them, whatever TERM says.
        termInfo = chafa_term_db_get_fallback_info(chafa_term_db_get_default())
    }

    deinit {
        chafa_term_info_unref(termInfo)
    }

    /// Premultiplied BGRA pixels (cairo's ARGB32), `columns × rows` cells of `cellWidth × cellHeight` pixels.
    public func encode(pixels: [UInt8], width: Int, height: Int, stride: Int, columns: Int, rows: Int,
                       cellWidth: Int, cellHeight: Int) -> String {
        guard columns > 0, rows > 0, width > 0, height > 0 else { return "" }
        let config = chafa_canvas_config_new()
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SIXELS)
        chafa_canvas_config_set_cell_geometry(config, Int32(cellWidth), Int32(cellHeight))
        chafa_canvas_config_set_geometry(config, Int32(columns), Int32(rows))
        // The fixed 256-colour palette, not one chosen per image: a part of the page sent again (a nudge's cells)
        // gets exactly the colours the whole page got, so nothing around the markup shifts. No dithering either,
        // which would smear a page's greys and make a pixel depend on its neighbours.
        chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_INDEXED_256)
        chafa_canvas_config_set_dither_mode(config, CHAFA_DITHER_MODE_NONE)
        let canvas = chafa_canvas_new(config)
        defer { chafa_canvas_unref(canvas) }
        pixels.withUnsafeBufferPointer { buffer in
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_BGRA8_PREMULTIPLIED, buffer.baseAddress,
                                         Int32(width), Int32(height), Int32(stride))
        }
        guard let printed = chafa_canvas_print(canvas, termInfo) else { return "" }
        defer { g_string_free(printed, 1) }
        return String(cString: printed.pointee.str)
    }
}
