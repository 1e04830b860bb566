/// A rendered page: cairo ARGB32 pixels (BGRA in memory on little-endian machines, premultiplied).
public struct PageRaster: Sendable {
    public let width: Int
    public let height: Int
    public let stride: Int
    public var pixels: [UInt8]
    /// Why the page was not drawn (blank paper instead), when it was not.
    public var refusal: String?

    public init(width: Int, height: Int, stride: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = pixels
    }

    /// A blank raster of one colour (0xRRGGBB, opaque).
    public init(width: Int, height: Int, filledWith rgb: UInt32) {
        self.width = width
        self.height = height
        stride = width * 4
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        let (r, g, b) = (UInt8(rgb >> 16 & 0xFF), UInt8(rgb >> 8 & 0xFF), UInt8(rgb & 0xFF))
        for offset in Swift.stride(from: 0, to: pixels.count, by: 4) {
            pixels[offset] = b; pixels[offset + 1] = g; pixels[offset + 2] = r
        }
        self.pixels = pixels
    }

    /// The colour of one pixel as (red, green, blue), premultiplied alpha undone against white.
    public func rgb(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let offset = y * stride + x * 4
        return (pixels[offset + 2], pixels[offset + 1], pixels[offset])
    }
}
