import CChafa
import TerminalGrid

/// Turns pixels into terminal cells with chafa's canvas: for each cell the symbol and the two colours
/// that best reproduce its patch of the picture. The caller writes the cells; no escape codes here.
public final class ChafaCellEncoder: @unchecked Sendable {
    public let depth: ColorDepth
    private let symbolMap: OpaquePointer

    public init(depth: ColorDepth) {
        self.depth = depth
        symbolMap = chafa_symbol_map_new()
        // Block and border symbols keep lines and letter shapes; wide symbols would break the cell grid.
        let tags = ChafaSymbolTags(rawValue: CHAFA_SYMBOL_TAG_BLOCK.rawValue | CHAFA_SYMBOL_TAG_BORDER.rawValue
                                   | CHAFA_SYMBOL_TAG_SPACE.rawValue | CHAFA_SYMBOL_TAG_QUAD.rawValue)
        chafa_symbol_map_add_by_tags(symbolMap, tags)
        chafa_symbol_map_remove_by_tags(symbolMap, CHAFA_SYMBOL_TAG_WIDE)
    }

    deinit {
        chafa_symbol_map_unref(symbolMap)
    }

    /// Encodes premultiplied BGRA pixels (cairo's ARGB32 on little-endian machines) into `columns × rows` cells.
    public func encode(pixels: [UInt8], width: Int, height: Int, stride: Int, columns: Int, rows: Int) -> CellGrid {
        guard columns > 0, rows > 0, width > 0, height > 0 else { return CellGrid(columns: columns, rows: rows) }
        let config = chafa_canvas_config_new()
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, Int32(columns), Int32(rows))
        chafa_canvas_config_set_canvas_mode(config, canvasMode)
        chafa_canvas_config_set_symbol_map(config, symbolMap)
        // Above about 0.5 chafa leaves its fast path; 0.3 keeps a frame in the tens of milliseconds.
        chafa_canvas_config_set_work_factor(config, 0.3)
        if depth == .palette16 {
            chafa_canvas_config_set_dither_mode(config, CHAFA_DITHER_MODE_NONE)
        }
        let canvas = chafa_canvas_new(config)
        defer { chafa_canvas_unref(canvas) }
        pixels.withUnsafeBufferPointer { buffer in
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_BGRA8_PREMULTIPLIED, buffer.baseAddress,
                                         Int32(width), Int32(height), Int32(stride))
        }
        var grid = CellGrid(columns: columns, rows: rows)
        for row in 0..<rows {
            for column in 0..<columns {
                let scalar = chafa_canvas_get_char_at(canvas, Int32(column), Int32(row))
                var foreground: Int32 = -1, background: Int32 = -1
                chafa_canvas_get_colors_at(canvas, Int32(column), Int32(row), &foreground, &background)
                let character = Unicode.Scalar(scalar).map(Character.init) ?? " "
                grid[column, row] = Cell(character, style: CellStyle(foreground: color(foreground), background: color(background)))
            }
        }
        return grid
    }

    private var canvasMode: ChafaCanvasMode {
        switch depth {
        case .truecolor: CHAFA_CANVAS_MODE_TRUECOLOR
        case .palette256: CHAFA_CANVAS_MODE_INDEXED_240
        case .palette16: CHAFA_CANVAS_MODE_INDEXED_16
        }
    }

    private func color(_ value: Int32) -> TerminalColor {
        guard value >= 0 else { return .default }
        switch depth {
        case .truecolor:
            return .rgb(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
        case .palette256, .palette16:
            return .indexed(UInt8(clamping: value))
        }
    }
}
