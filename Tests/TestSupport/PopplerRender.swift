import Foundation

/// A page as poppler's pdftoppm draws it: RGB pixels, displayed orientation, cropped to the crop box.
public struct RenderedPage: Sendable {
    public let width: Int
    public let height: Int
    let pixels: [UInt8]
    public var ppmPixels: [UInt8] { pixels }

    public func rgb(_ x: Int, _ y: Int) -> (red: Int, green: Int, blue: Int) {
        let offset = (y * width + x) * 3
        return (Int(pixels[offset]), Int(pixels[offset + 1]), Int(pixels[offset + 2]))
    }

    /// How far two pixels differ: the sum of the channel differences.
    public func difference(from other: RenderedPage, _ x: Int, _ y: Int) -> Int {
        let a = rgb(x, y), b = other.rgb(x, y)
        return abs(a.red - b.red) + abs(a.green - b.green) + abs(a.blue - b.blue)
    }
}

public enum PopplerRender {
    /// Renders one page (from 1) at `dpi`; at 72 one pixel is one point.
    public static func page(_ page: Int, of path: String, dpi: Int = 72, password: String? = nil) throws -> RenderedPage {
        var arguments = ["-cropbox", "-r", String(dpi), "-f", String(page), "-l", String(page)]
        if let password { arguments += ["-upw", password] }
        let folder = TemporaryFolder()
        let root = folder.file("page")
        let result = try ProcessRunner.run("pdftoppm", arguments + ["-singlefile", path, root])
        guard result.status == 0, let data = FileManager.default.contents(atPath: root + ".ppm") else {
            throw ToolFailure(tool: "pdftoppm", output: result.stderr)
        }
        return try parsePPM(data)
    }

    /// Renders one page scaled to exactly `width × height` pixels: to compare with a page shown at that size.
    public static func page(_ page: Int, of path: String, width: Int, height: Int) throws -> RenderedPage {
        let folder = TemporaryFolder()
        let root = folder.file("page")
        let result = try ProcessRunner.run("pdftoppm", ["-cropbox", "-scale-to-x", String(width), "-scale-to-y", String(height),
                                                        "-f", String(page), "-l", String(page), "-singlefile", path, root])
        guard result.status == 0, let data = FileManager.default.contents(atPath: root + ".ppm") else {
            throw ToolFailure(tool: "pdftoppm", output: result.stderr)
        }
        return try parsePPM(data)
    }

    /// A binary PPM file, such as ImageMagick's `import` writes.
    public static func image(atPPM path: String) throws -> RenderedPage {
        guard let data = FileManager.default.contents(atPath: path) else { throw ToolFailure(tool: "read", output: path) }
        return try parsePPM(data)
    }

    /// Binary PPM (P6): "P6 width height 255" separated by white space, one byte of white space, then RGB.
    static func parsePPM(_ data: Data) throws -> RenderedPage {
        let bytes = [UInt8](data)
        var fields: [String] = []
        var index = 0
        while fields.count < 4, index < bytes.count {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 }
            var field = ""
            while index < bytes.count, !(bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09) {
                field.append(Character(Unicode.Scalar(bytes[index])))
                index += 1
            }
            fields.append(field)
        }
        index += 1
        guard fields.count == 4, fields[0] == "P6", let width = Int(fields[1]), let height = Int(fields[2]),
              bytes.count - index >= width * height * 3 else {
            throw ToolFailure(tool: "pdftoppm", output: "unexpected image header \(fields)")
        }
        return RenderedPage(width: width, height: height, pixels: Array(bytes[index..<(index + width * height * 3)]))
    }
}
