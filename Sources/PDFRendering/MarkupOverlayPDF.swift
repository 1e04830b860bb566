import CPoppler
import Foundation
import RedlineCore

/// Draws one page's markup into a one-page PDF the size of the displayed page (times `scale`, which is 1 but
/// for pages larger than the specification allows), or many such pages into one PDF. Its content, read in PDF user space [0 0 w h], is the
/// markup in display coordinates with y up: ready to become an overlay.
public enum MarkupOverlayPDF {
    public static func make(_ items: [MarkupItem], pageSize: Size, scale: Double = 1, painter: MarkupPainter) throws -> Data {
        try make(pages: [Page(items: items, size: pageSize, scale: scale)], painter: painter)
    }

    /// One page of markup: what is drawn on it, the displayed page's size and the scale it is drawn at.
    public struct Page {
        public let items: [MarkupItem]
        public let size: Size
        public let scale: Double

        public init(items: [MarkupItem], size: Size, scale: Double = 1) {
            self.items = items
            self.size = size
            self.scale = scale
        }
    }

    /// Many pages in one document: what they share (a font) is in it once, and a reader parses one file, not one per page.
    public static func make(pages: [Page], painter: MarkupPainter) throws -> Data {
        guard let first = pages.first else { throw MarkupOverlayError(reason: "there was nothing to draw") }
        let sink = DataSink()
        let unmanaged = Unmanaged.passRetained(sink)
        defer { unmanaged.release() }
        let write: cairo_write_func_t = { closure, bytes, length in
            guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<DataSink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
            return CAIRO_STATUS_SUCCESS
        }
        guard let surface = cairo_pdf_surface_create_for_stream(write, unmanaged.toOpaque(), first.size.width * first.scale,
                                                               first.size.height * first.scale),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else { throw MarkupOverlayError(reason: "cairo could not start a PDF surface") }
        let context = cairo_create(surface)!
        for page in pages {
            cairo_pdf_surface_set_size(surface, page.size.width * page.scale, page.size.height * page.scale)
            cairo_save(context)
            cairo_scale(context, page.scale, page.scale)
            painter.paint(page.items, on: context)
            cairo_restore(context)
            cairo_show_page(context)
            guard cairo_status(context) == CAIRO_STATUS_SUCCESS else { break }
        }
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
