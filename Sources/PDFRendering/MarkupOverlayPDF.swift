import CPoppler
import Foundation
import RedlineCore

/// Draws one page's markup into a one-page PDF the size of the displayed page (times `scale`, which is 1 but
/// for pages larger than the specification allows). Its content, read in PDF user space [0 0 w h], is the
/// markup in display coordinates with y up: ready to become an overlay.
public enum MarkupOverlayPDF {
    public static func make(_ items: [MarkupItem], pageSize: Size, scale: Double = 1, painter: MarkupPainter) throws -> Data {
        let sink = DataSink()
        let unmanaged = Unmanaged.passRetained(sink)
        defer { unmanaged.release() }
        let write: cairo_write_func_t = { closure, bytes, length in
            guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<DataSink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
            return CAIRO_STATUS_SUCCESS
        }
        guard let surface = cairo_pdf_surface_create_for_stream(write, unmanaged.toOpaque(), pageSize.width * scale,
                                                               pageSize.height * scale),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else { throw MarkupOverlayError(reason: "cairo could not start a PDF surface") }
        let context = cairo_create(surface)!
        cairo_scale(context, scale, scale)
        painter.paint(items, on: context)
        cairo_show_page(context)
        let status = cairo_status(context)
        cairo_destroy(context)
        cairo_surface_finish(surface)
        let surfaceStatus = cairo_surface_status(surface)
        cairo_surface_destroy(surface)
        guard status == CAIRO_STATUS_SUCCESS, surfaceStatus == CAIRO_STATUS_SUCCESS else {
            throw MarkupOverlayError(reason: String(cString: cairo_status_to_string(status == CAIRO_STATUS_SUCCESS ? surfaceStatus : status)))
        }
        return sink.data
    }

    private final class DataSink {
        var data = Data()
    }
}

public struct MarkupOverlayError: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { "drawing the markup failed: \(reason)" }
}
