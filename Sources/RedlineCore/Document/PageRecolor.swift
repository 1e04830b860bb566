/// A dark page for reading at night, as zathura's `recolor` with `recolor-keephue`: each colour's lightness is turned
/// over and its hue and saturation kept, so black text becomes light and white paper dark while a yellow highlight
/// stays yellow and a red mark red; then the greys are laid between the configured dark and light colours.
///
/// In HSL, lightness L turned into 1 − L keeps the chroma (which depends on |2L − 1|), so the colour moves along the
/// grey axis by 1 − max − min: each channel c becomes c + 255 − max − min. One pass, no lookup table.
public struct PageRecolor: Sendable, Hashable {
    /// What white paper becomes (0xRRGGBB).
    public var dark: UInt32
    /// What black text becomes.
    public var light: UInt32

    public static let standard = PageRecolor(dark: 0x1C1C1E, light: 0xE8E6E3)

    public init(dark: UInt32, light: UInt32) {
        self.dark = dark & 0xFFFFFF
        self.light = light & 0xFFFFFF
    }

    /// One colour, channels 0–255.
    public func apply(red: UInt8, green: UInt8, blue: UInt8) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let (r, g, b) = (Int(red), Int(green), Int(blue))
        let shift = 255 - max(r, g, b) - min(r, g, b)
        func channel(_ value: Int, _ offset: UInt32) -> UInt8 {
            let turned = value + shift
            let low = Int(dark >> offset & 0xFF), high = Int(light >> offset & 0xFF)
            return UInt8(clamping: low + (high - low) * turned / 255)
        }
        return (channel(r, 16), channel(g, 8), channel(b, 0))
    }

    /// Every pixel of a raster (BGRA, as cairo lays them out; alpha kept).
    public func apply(to raster: inout PageRaster) {
        let (width, height, stride) = (raster.width, raster.height, raster.stride)
        raster.pixels.withUnsafeMutableBufferPointer { pixels in
            for row in 0..<height {
                var offset = row * stride
                for _ in 0..<width {
                    let turned = apply(red: pixels[offset + 2], green: pixels[offset + 1], blue: pixels[offset])
                    pixels[offset] = turned.blue
                    pixels[offset + 1] = turned.green
                    pixels[offset + 2] = turned.red
                    offset += 4
                }
            }
        }
    }
}
