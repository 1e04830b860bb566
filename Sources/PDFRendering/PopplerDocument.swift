import CPoppler
import Foundation
import RedlineCore

/// A PDF opened with poppler for drawing. Poppler objects are not thread-safe: one document, one thread.
public final class PopplerDocument: @unchecked Sendable {
    let document: OpaquePointer
    public let pageCount: Int

    public init(path: String, password: String?) throws {
        guard FileManager.default.fileExists(atPath: path) else { throw DocumentError.notFound(path: path) }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var error: UnsafeMutablePointer<GError>?
        guard let uri = g_filename_to_uri(absolute, nil, &error) else {
            defer { if let error { g_error_free(error) } }
            throw DocumentError.unreadable(path: path, reason: error.map { String(cString: $0.pointee.message) } ?? "bad path")
        }
        defer { g_free(uri) }
        guard let document = poppler_document_new_from_file(uri, password, &error) else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            let encrypted = error?.pointee.code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue)
            if let error { g_error_free(error) }
            if encrypted {
                throw password == nil ? DocumentError.passwordRequired(path: path) : DocumentError.wrongPassword(path: path)
            }
            throw DocumentError.damaged(path: path, reason: message)
        }
        self.document = document
        pageCount = Int(poppler_document_get_n_pages(document))
    }

    /// A document held in memory: a repaired copy of a file poppler cannot read as it is.
    public init(data: Data, path: String, password: String?) throws {
        var error: UnsafeMutablePointer<GError>?
        let bytes = data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        guard let document = poppler_document_new_from_bytes(bytes, password, &error) else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            throw DocumentError.damaged(path: path, reason: message)
        }
        self.document = document
        pageCount = Int(poppler_document_get_n_pages(document))
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(document))
    }

    /// Runs `body` with a page, released afterwards; nil when poppler has no such page.
    func withPage<T>(_ index: Int, _ body: (OpaquePointer) -> T) -> T? {
        guard let page = poppler_document_get_page(document, Int32(index)) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        return body(page)
    }

    /// The displayed size of a page in points (crop box, axes swapped for /Rotate 90 and 270).
    public func displaySize(ofPage index: Int) -> Size {
        guard let page = poppler_document_get_page(document, Int32(index)) else { return .zero }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        var width = 0.0, height = 0.0
        poppler_page_get_size(page, &width, &height)
        return Size(width: width, height: height)
    }

    /// The most pixels one render may take (a gigabyte of them): past it a page is drawn only as far as
    /// fits, rather than asking for more memory than any machine has.
    public static let largestRaster = 1 << 28

    /// Renders a page as the user sees it, at `scale` pixels per point, on white.
    public func render(page index: Int, scale: Double) -> PageRaster {
        let size = displaySize(ofPage: index)
        let (width, height) = Self.rasterSize(of: size, scale: scale)
        var raster = PageRaster(width: width, height: height, filledWith: 0xFFFFFF)
        guard let page = poppler_document_get_page(document, Int32(index)) else { return raster }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        withCairoContext(on: &raster) { context in
            cairo_scale(context, scale, scale)
            poppler_page_render(page, context)
        }
        return raster
    }

    /// The raster a page needs at a scale, each side at least one pixel and cairo's 32,767 at most, and the
    /// whole within `largestRaster`.
    static func rasterSize(of size: Size, scale: Double) -> (width: Int, height: Int) {
        var width = min(32_767, max(1, Int(clamping: (size.width * scale).rounded(.up))))
        var height = min(32_767, max(1, Int(clamping: (size.height * scale).rounded(.up))))
        if width * height > largestRaster { height = max(1, largestRaster / width) }
        if width * height > largestRaster { width = max(1, largestRaster / height) }
        return (width, height)
    }
}
