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
        if depth == .palette16 || depth == .palette8 {
            chafa_canvas_config_set_dither_mode(config, CHAFA_DITHER_MODE_NONE)
        }
        let canvas = chafa_canvas_new(config)
        defer { chafa_canvas_unref(canvas) }
        Self.inked(pixels).withUnsafeBufferPointer { buffer in
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_BGRA8_PREMULTIPLIED, buffer.baseAddress,
                                         Int32(width), Int32(height), Int32(stride))
        }
        var grid = CellGrid(columns: columns, rows: rows)
        for row in 0..<rows {
            for column in 0..<columns {
                let scalar = chafa_canvas_get_char_at(canvas, Int32(column), Int32(row))
                var foreground: Int32 = -1, background: Int32 = -1
                // get_colors_at answers RGB in every mode; the palette index chafa chose is the raw colour.
                if depth != .palette256 {
                    chafa_canvas_get_colors_at(canvas, Int32(column), Int32(row), &foreground, &background)
                } else {
                    chafa_canvas_get_raw_colors_at(canvas, Int32(column), Int32(row), &foreground, &background)
                }
                let character = Unicode.Scalar(scalar).map(Character.init) ?? " "
                // A blank shows only its background and a full block only its foreground; chafa fills the unseen
                // colour from the cells around, so the same pixels gave different cells in a part and in the whole.
                // The unseen colour is the seen one: a cell depends on its own pixels alone, and uses fewer pairs.
                let (shownForeground, shownBackground) = character == " " ? (background, background)
                    : character == "█" ? (foreground, foreground) : (foreground, background)
                grid[column, row] = Cell(character, style: CellStyle(foreground: color(shownForeground), background: color(shownBackground)))
            }
        }
        return grid
    }

    /// A cell averages eight by eight pixels or more, so body text, one pixel wide, would come out a pale grey
    /// few can read. A steep curve darkens the greys between paper and ink (antialiased text is grey) while
    /// paper stays white; coloured pixels (charts, photos, markup) keep their colours.
    static let inking: [UInt8] = (0...255).map { value in
        let fraction = Double(value) / 255
        return UInt8((fraction * fraction * fraction * 255).rounded())
    }

    static func inked(_ pixels: [UInt8]) -> [UInt8] {
        var inked = pixels
        inked.withUnsafeMutableBufferPointer { buffer in
            for index in stride(from: 0, to: buffer.count - 3, by: 4) {
                let blue = buffer[index], green = buffer[index + 1], red = buffer[index + 2]
                guard max(red, green, blue) - min(red, green, blue) < 24 else { continue }
                buffer[index] = inking[Int(blue)]
                buffer[index + 1] = inking[Int(green)]
                buffer[index + 2] = inking[Int(red)]
            }
        }
        return inked
    }

    private var canvasMode: ChafaCanvasMode {
        switch depth {
        case .truecolor: CHAFA_CANVAS_MODE_TRUECOLOR
        case .palette256: CHAFA_CANVAS_MODE_INDEXED_240
        // With eight or sixteen colours chafa's own choice turns antialiased text (a grey, on average) into
        // paper or into yellow; cells are chosen in RGB and their colours folded by `FewColors` instead.
        case .palette16, .palette8: CHAFA_CANVAS_MODE_TRUECOLOR
        }
    }

    private func color(_ value: Int32) -> TerminalColor {
        guard value >= 0 else { return .default }
        switch depth {
        case .truecolor:
            return .rgb(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
        case .palette256:
            // Above 255 are chafa's markers for the terminal's own foreground, background and transparency.
            return value < 256 ? .indexed(UInt8(value)) : .default
        case .palette16, .palette8:
            let index = FewColors.index(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF),
                                        blue: UInt8(value & 0xFF), sixteen: depth == .palette16)
            return .indexed(index)
        }
    }
}
