import RedlineCore

/// cairo's pixels (premultiplied BGRA, little-endian ARGB32) in the layouts terminal protocols read.
enum PixelLayouts {
    /// RGB, three bytes a pixel, rows packed: an opaque page, a quarter smaller than RGBA.
    static func rgb(_ raster: PageRaster) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: raster.width * raster.height * 3)
        raster.pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                var index = 0
                for y in 0..<raster.height {
                    var offset = y * raster.stride
                    for _ in 0..<raster.width {
                        target[index] = source[offset + 2]
                        target[index + 1] = source[offset + 1]
                        target[index + 2] = source[offset]
                        index += 3
                        offset += 4
                    }
                }
            }
        }
        return out
    }

    /// RGBA with straight alpha, as kitty's `f=32` reads it: the premultiplication undone.
    static func straightRGBA(_ raster: PageRaster) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: raster.width * raster.height * 4)
        raster.pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                var index = 0
                for y in 0..<raster.height {
                    var offset = y * raster.stride
                    for _ in 0..<raster.width {
                        let alpha = Int(source[offset + 3])
                        if alpha == 255 {
                            target[index] = source[offset + 2]
                            target[index + 1] = source[offset + 1]
                            target[index + 2] = source[offset]
                        } else if alpha > 0 {
                            target[index] = UInt8(min(255, (Int(source[offset + 2]) * 255 + alpha / 2) / alpha))
                            target[index + 1] = UInt8(min(255, (Int(source[offset + 1]) * 255 + alpha / 2) / alpha))
                            target[index + 2] = UInt8(min(255, (Int(source[offset]) * 255 + alpha / 2) / alpha))
                        }
                        target[index + 3] = UInt8(alpha)
                        index += 4
                        offset += 4
                    }
                }
            }
        }
        return out
    }
}
