import CPoppler
import RedlineCore

/// Runs `body` with a cairo context drawing into `raster`'s pixels, which it changes in place.
func withCairoContext<Result>(on raster: inout PageRaster, _ body: (OpaquePointer) -> Result) -> Result {
    let width = Int32(raster.width), height = Int32(raster.height), stride = Int32(raster.stride)
    return raster.pixels.withUnsafeMutableBufferPointer { buffer in
        let surface = cairo_image_surface_create_for_data(buffer.baseAddress, CAIRO_FORMAT_ARGB32, width, height, stride)!
        let context = cairo_create(surface)!
        defer {
            cairo_destroy(context)
            cairo_surface_flush(surface)
            cairo_surface_destroy(surface)
        }
        return body(context)
    }
}
