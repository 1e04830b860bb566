import CPoppler
import RedlineCore

/// Pixels as a PNG file, by cairo: what iTerm2's inline images read.
public enum PNGEncoding {
    /// `raster`'s pixels (cairo's premultiplied ARGB32) as PNG bytes; empty if cairo could not write them.
    public static func png(_ raster: PageRaster) -> [UInt8] {
        var copy = raster
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        let status = copy.pixels.withUnsafeMutableBufferPointer { buffer -> cairo_status_t in
            let surface = cairo_image_surface_create_for_data(buffer.baseAddress, CAIRO_FORMAT_ARGB32, Int32(raster.width),
                                                              Int32(raster.height), Int32(raster.stride))!
            defer { cairo_surface_destroy(surface) }
            return cairo_surface_write_to_png_stream(surface, { closure, data, length in
                let sink = Unmanaged<Sink>.fromOpaque(closure!).takeUnretainedValue()
                sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(sink).toOpaque())
        }
        return status == CAIRO_STATUS_SUCCESS ? sink.bytes : []
    }
}
