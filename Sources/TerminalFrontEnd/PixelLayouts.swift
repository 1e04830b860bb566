import RedlineCore

/// cairo's pixels (premultiplied BGRA, little-endian ARGB32) in the layouts terminal protocols read.
enum PixelLayouts {
    /// RGB, three bytes a pixel, rows packed: an opaque page, a quarter smaller than RGBA.
    static func rgb(_ raster: PageRaster) -> [UInt8] { packed(raster, alpha: false) }

    /// RGBA with straight alpha, as kitty's `f=32` reads it: the premultiplication undone.
    static func straightRGBA(_ raster: PageRaster) -> [UInt8] { packed(raster, alpha: true) }

    private static func packed(_ raster: PageRaster, alpha: Bool) -> [UInt8] {
        let size = alpha ? 4 : 3
        var out = [UInt8](repeating: 0, count: raster.width * raster.height * size)
        raster.pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                var index = 0
                for y in 0..<raster.height {
                    var offset = y * raster.stride
                    for _ in 0..<raster.width {
                        let opacity = alpha ? Int(source[offset + 3]) : 255
                        for channel in 0..<3 {
                            // BGRA to RGB: red is the third byte.
                            let value = Int(source[offset + 2 - channel])
                            target[index + channel] = opacity == 255 ? UInt8(value)
                                : opacity == 0 ? 0 : UInt8(min(255, (value * 255 + opacity / 2) / opacity))
                        }
                        if alpha { target[index + 3] = UInt8(opacity) }
                        index += size
                        offset += 4
                    }
                }
            }
        }
        return out
    }
}
