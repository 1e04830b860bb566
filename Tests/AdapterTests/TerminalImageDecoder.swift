import CZlib
import Foundation

/// An independent reading of what a pixel mode writes: the cursor moves, kitty's graphics commands (chunks joined,
/// base64 and zlib undone, images and placements kept), sixel images painted, and tmux's passthrough unwrapped.
/// It paints what a terminal would show into a canvas of the screen's pixels.
struct TerminalImageDecoder {
    struct KittyCommand {
        var keys: [String: String]
        var payloadBytes: Int
        var chunkPayloads: [Int]
        var cursor: (column: Int, row: Int)
        var wrapped: Bool
        func int(_ key: String) -> Int? { keys[key].flatMap(Int.init) }
    }

    struct KittyImage {
        var width: Int
        var height: Int
        var format: Int
        var pixels: [UInt8]
    }

    struct Placement {
        var image: Int
        var z: Int
        var source: (x: Int, y: Int, width: Int, height: Int)
        var cell: (column: Int, row: Int)
        var offset: (x: Int, y: Int)
    }

    let cell: (width: Int, height: Int)
    let columns: Int
    let rows: Int
    private(set) var commands: [KittyCommand] = []
    private(set) var images: [Int: KittyImage] = [:]
    private(set) var placements: [String: Placement] = [:]
    /// Sixel images as painted, with the cell they started at.
    private(set) var sixels: [(cell: (column: Int, row: Int), width: Int, height: Int)] = []
    /// What the screen's pixels show: RGB, with sixels and placements painted in.
    private(set) var canvas: [UInt8]
    private var cursor = (column: 0, row: 0)
    private var saved = (column: 0, row: 0)
    private var pending: KittyCommand?
    private var pendingPayload = ""

    init(cell: (width: Int, height: Int), columns: Int, rows: Int) {
        self.cell = cell
        self.columns = columns
        self.rows = rows
        canvas = [UInt8](repeating: 0, count: columns * cell.width * rows * cell.height * 3)
    }

    var canvasWidth: Int { columns * cell.width }
    var canvasHeight: Int { rows * cell.height }

    func pixel(_ x: Int, _ y: Int) -> (red: Int, green: Int, blue: Int) {
        let offset = (y * canvasWidth + x) * 3
        return (Int(canvas[offset]), Int(canvas[offset + 1]), Int(canvas[offset + 2]))
    }

    mutating func read(_ text: String, wrapped: Bool = false) {
        let bytes = Array(text.utf8)
        var index = 0
        func until(_ terminator: [UInt8], from start: Int) -> Int {
            var end = start
            while end + terminator.count <= bytes.count, Array(bytes[end..<end + terminator.count]) != terminator { end += 1 }
            return end
        }
        while index < bytes.count {
            guard bytes[index] == 0x1B, index + 1 < bytes.count else { index += 1; continue }
            switch bytes[index + 1] {
            case UInt8(ascii: "7"): saved = cursor; index += 2
            case UInt8(ascii: "8"): cursor = saved; index += 2
            case UInt8(ascii: "["):
                var end = index + 2
                while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
                if end < bytes.count, bytes[end] == UInt8(ascii: "H") {
                    let numbers = String(decoding: bytes[(index + 2)..<end], as: UTF8.self).split(separator: ";").compactMap { Int($0) }
                    cursor = (numbers.count > 1 ? numbers[1] - 1 : 0, (numbers.first ?? 1) - 1)
                }
                index = end + 1
            case UInt8(ascii: "_"):
                let end = until([0x1B, UInt8(ascii: "\\")], from: index + 2)
                kitty(String(decoding: bytes[(index + 3)..<end], as: UTF8.self), wrapped: wrapped)
                index = end + 2
            case UInt8(ascii: "P"):
                // tmux's passthrough (its ESC doubled) or a sixel image.
                if bytes[(index + 2)...].starts(with: Array("tmux;".utf8)) {
                    var inner: [UInt8] = []
                    var cursorAt = index + 7
                    while cursorAt < bytes.count {
                        if bytes[cursorAt] == 0x1B, cursorAt + 1 < bytes.count, bytes[cursorAt + 1] == 0x1B {
                            inner.append(0x1B); cursorAt += 2
                        } else if bytes[cursorAt] == 0x1B {
                            break
                        } else {
                            inner.append(bytes[cursorAt]); cursorAt += 1
                        }
                    }
                    read(String(decoding: inner, as: UTF8.self), wrapped: true)
                    index = cursorAt + 2
                } else {
                    let end = until([0x1B, UInt8(ascii: "\\")], from: index + 2)
                    sixel(Array(bytes[(index + 2)..<end]))
                    index = end + 2
                }
            default: index += 2
            }
        }
    }

    private mutating func kitty(_ body: String, wrapped: Bool) {
        let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        var keys: [String: String] = [:]
        for pair in parts[0].split(separator: ",") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { keys[String(kv[0])] = String(kv[1]) }
        }
        let payload = parts.count > 1 ? String(parts[1]) : ""
        if var command = pending {
            command.chunkPayloads.append(payload.utf8.count)
            pendingPayload += payload
            pending = command
        } else {
            pending = KittyCommand(keys: keys, payloadBytes: 0, chunkPayloads: [payload.utf8.count], cursor: cursor, wrapped: wrapped)
            pendingPayload = payload
        }
        guard keys["m"] != "1", var command = pending else { return }
        pending = nil
        command.payloadBytes = pendingPayload.utf8.count
        commands.append(command)
        perform(command, payload: pendingPayload)
    }

    private mutating func perform(_ command: KittyCommand, payload: String) {
        let action = command.keys["a"] ?? "t"
        if action == "t" || action == "T", let id = command.int("i"), let width = command.int("s"), let height = command.int("v") {
            let format = command.int("f") ?? 32
            var data = [UInt8](Data(base64Encoded: payload) ?? Data())
            if command.keys["o"] == "z" {
                var size = uLong(width * height * format / 8)
                var out = [UInt8](repeating: 0, count: Int(size))
                let status = uncompress(&out, &size, data, uLong(data.count))
                data = status == Z_OK ? out : []
            }
            images[id] = KittyImage(width: width, height: height, format: format, pixels: data)
        }
        if action == "T" || action == "p", let id = command.int("i") {
            let image = images[id]
            let placement = Placement(image: id, z: command.int("z") ?? 0,
                                      source: (command.int("x") ?? 0, command.int("y") ?? 0,
                                               command.int("w") ?? image?.width ?? 0, command.int("h") ?? image?.height ?? 0),
                                      cell: command.cursor, offset: (command.int("X") ?? 0, command.int("Y") ?? 0))
            placements["\(id)/\(command.int("p") ?? 0)"] = placement
        }
        if action == "d", let id = command.int("i") {
            placements = placements.filter { $0.value.image != id }
            if command.keys["d"] == "I" { images[id] = nil }
        }
    }

    /// kitty's placements painted over the canvas, lowest z first, blending RGBA.
    mutating func paintPlacements() {
        for placement in placements.values.sorted(by: { $0.z < $1.z }) {
            guard let image = images[placement.image] else { continue }
            let bytes = image.format / 8
            for y in 0..<placement.source.height {
                for x in 0..<placement.source.width {
                    let sx = placement.source.x + x, sy = placement.source.y + y
                    let tx = placement.cell.column * cell.width + placement.offset.x + x
                    let ty = placement.cell.row * cell.height + placement.offset.y + y
                    guard sx < image.width, sy < image.height, tx < canvasWidth, ty < canvasHeight else { continue }
                    let source = (sy * image.width + sx) * bytes, target = (ty * canvasWidth + tx) * 3
                    let alpha = bytes == 4 ? Int(image.pixels[source + 3]) : 255
                    for channel in 0..<3 {
                        canvas[target + channel] = UInt8((Int(image.pixels[source + channel]) * alpha
                                                          + Int(canvas[target + channel]) * (255 - alpha) + 127) / 255)
                    }
                }
            }
        }
    }

    /// A sixel image: `"` raster attributes, `#n;2;r;g;b` colours in percent, `#n` to choose one, `!n` repeats,
    /// `$` back to the band's start, `-` to the next band. Pixels not set keep what was there.
    private mutating func sixel(_ body: [UInt8]) {
        guard let start = body.firstIndex(of: UInt8(ascii: "q")) else { return }
        var palette: [Int: (UInt8, UInt8, UInt8)] = [:]
        var color = (UInt8(0), UInt8(0), UInt8(0))
        var x = 0, band = 0, widest = 0
        var index = start + 1
        func number() -> Int {
            var value = 0
            while index < body.count, (48...57).contains(body[index]) { value = value * 10 + Int(body[index] - 48); index += 1 }
            return value
        }
        let originX = cursor.column * cell.width, originY = cursor.row * cell.height
        while index < body.count {
            let byte = body[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                for _ in 0..<4 { _ = number(); if index < body.count, body[index] == UInt8(ascii: ";") { index += 1 } }
            case UInt8(ascii: "#"):
                index += 1
                let register = number()
                if index < body.count, body[index] == UInt8(ascii: ";") {
                    var values: [Int] = []
                    while index < body.count, body[index] == UInt8(ascii: ";") { index += 1; values.append(number()) }
                    if values.count == 4 {
                        palette[register] = (UInt8(values[1] * 255 / 100), UInt8(values[2] * 255 / 100), UInt8(values[3] * 255 / 100))
                    }
                }
                color = palette[register] ?? color
            case UInt8(ascii: "$"): x = 0; index += 1
            case UInt8(ascii: "-"): x = 0; band += 1; index += 1
            case UInt8(ascii: "!"):
                index += 1
                let count = number()
                guard index < body.count else { break }
                paint(body[index], count: count, x: &x, band: band, color: color, originX: originX, originY: originY)
                widest = max(widest, x)
                index += 1
            case 63...126:
                paint(byte, count: 1, x: &x, band: band, color: color, originX: originX, originY: originY)
                widest = max(widest, x)
                index += 1
            default: index += 1
            }
        }
        sixels.append((cursor, widest, (band + 1) * 6))
    }

    private mutating func paint(_ byte: UInt8, count: Int, x: inout Int, band: Int, color: (UInt8, UInt8, UInt8),
                                originX: Int, originY: Int) {
        let bits = Int(byte) - 63
        for _ in 0..<count {
            for bit in 0..<6 where bits & (1 << bit) != 0 {
                let px = originX + x, py = originY + band * 6 + bit
                guard px < canvasWidth, py < canvasHeight else { continue }
                let offset = (py * canvasWidth + px) * 3
                canvas[offset] = color.0; canvas[offset + 1] = color.1; canvas[offset + 2] = color.2
            }
            x += 1
        }
    }
}
