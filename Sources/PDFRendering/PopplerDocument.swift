import CPoppler
import CPopplerLoader
import Foundation
import Glibc
import RedlineCore
import Synchronization

/// A PDF opened with poppler for drawing. Poppler objects are not thread-safe: one document, one thread.
/// And one poppler call at a time in the whole process (`access`): poppler's documents share global state (its
/// font engine's FreeType library, caches of fonts and character maps), and a render on one thread beside text
/// read from another document on another thread crashed inside poppler, rarely, but in the editor's normal work.
public final class PopplerDocument: @unchecked Sendable {
    /// Held around every call into poppler; recursive, as an edited page's render opens a document of its own.
    static let access = NSRecursiveLock()

    /// Replaced by a fresh copy now and then (`fetchPage(_:)`); read and replaced only under `access`.
    private(set) var document: OpaquePointer
    public let pageCount: Int
    /// Makes a page with annotation edits as a one-page PDF (qpdf's work, given by whoever opened the document);
    /// set once, before the document is shared. Without it, edited pages are drawn as the file has them.
    public var editedPage: (@Sendable (_ page: Int, _ edits: AnnotationEdits) throws -> Data)?
    /// Why a page must not be given to poppler (it would draw for ever: poppler cannot stop a render or a text read
    /// once begun), or nil; set once, before the document is shared. Such a page is blank paper, with no words.
    public var pageGate: (@Sendable (_ page: Int) -> String?)?
    private let password: String?
    /// Where a fresh copy is read from: the file as it was opened (its descriptor, so a file replaced on disk
    /// since is not what is read), or the bytes.
    private let source: Source
    /// Pages poppler has parsed in this copy. Poppler keeps every page it has parsed for the document's life
    /// (about 25 KB each in a book); past `parsedPagesKept` a fresh copy starts empty, so paging through any
    /// number of pages keeps memory flat.
    private var parsedPages = Set<Int>()
    static let parsedPagesKept = 100

    enum Source {
        case file(descriptor: Int32)
        case bytes(Data)
    }

    public init(path: String, password: String?) throws {
        Self.access.lock()
        defer { Self.access.unlock() }
        Self.releasePending()
        guard FileManager.default.fileExists(atPath: path) else { throw DocumentError.notFound(path: path) }
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw DocumentError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        do {
            document = try Self.openCopy(.file(descriptor: descriptor), path: path, password: password)
        } catch {
            close(descriptor)
            throw error
        }
        source = .file(descriptor: descriptor)
        self.password = password
        pageCount = Int(redline_poppler_document_get_n_pages(document))
    }

    /// A document held in memory: a repaired copy of a file poppler cannot read as it is.
    public init(data: Data, path: String, password: String?) throws {
        Self.access.lock()
        defer { Self.access.unlock() }
        Self.releasePending()
        document = try Self.openCopy(.bytes(data), path: path, password: password)
        source = .bytes(data)
        self.password = password
        pageCount = Int(redline_poppler_document_get_n_pages(document))
    }

    private static func openCopy(_ source: Source, path: String, password: String?) throws -> OpaquePointer {
        // Said as what it is: a poppler that cannot be loaded gives a GError whose code reads as "encrypted".
        if let failure = redline_poppler_load_failure() { throw DocumentError.unreadable(path: path, reason: String(cString: failure)) }
        var error: UnsafeMutablePointer<GError>?
        let opened: OpaquePointer?
        switch source {
        case .file(let descriptor):
            // Poppler takes the descriptor it is given and closes it with the document; it reads with pread, so a
            // duplicate's shared offset does not matter.
            let duplicate = dup(descriptor)
            guard duplicate >= 0 else {
                throw DocumentError.unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            opened = redline_poppler_document_new_from_fd(duplicate, password, &error)
        case .bytes(let data):
            let bytes = data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            defer { g_bytes_unref(bytes) }
            opened = redline_poppler_document_new_from_bytes(bytes, password, &error)
        }
        guard let opened else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            let encrypted = error?.pointee.code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue)
            if let error { g_error_free(error) }
            if encrypted, case .file = source {
                throw password == nil ? DocumentError.passwordRequired(path: path) : DocumentError.wrongPassword(path: path)
            }
            throw DocumentError.damaged(path: path, reason: message)
        }
        return opened
    }

    deinit {
        let held = HeldDocument(document: document, descriptor: { if case .file(let descriptor) = source { descriptor } else { nil } }())
        // Let go of while another thread is inside poppler (a page that takes minutes to draw): the editor's loop
        // must not wait for it, or `q` would hang until the page is done. It is let go of once poppler is free, by the
        // next document opened or let go of; no thread is started for it: one still inside poppler as the process
        // exits would meet poppler's globals torn down.
        guard Self.access.try() else {
            Self.pending.withLock { $0.append(held) }
            return
        }
        held.release()
        Self.releasePending()
        Self.access.unlock()
    }

    /// Documents let go of while poppler was busy, released by the next one to hold `access` in `init` or `deinit`.
    private static let pending = Mutex<[HeldDocument]>([])

    /// Under `access`.
    private static func releasePending() {
        for held in pending.withLock({ list in defer { list.removeAll() }; return list }) { held.release() }
    }

    /// A poppler document and its file, let go of together under `access`.
    private struct HeldDocument: @unchecked Sendable {
        let document: OpaquePointer
        let descriptor: Int32?

        func release() {
            g_object_unref(UnsafeMutableRawPointer(document))
            if let descriptor { close(descriptor) }
        }
    }

    /// A page of the document, to be released by the caller; under `access`. A page poppler has not parsed yet may
    /// first start a fresh copy of the document (a page already fetched keeps the copy it came from alive).
    func fetchPage(_ index: Int) -> OpaquePointer? {
        if parsedPages.insert(index).inserted, parsedPages.count > Self.parsedPagesKept,
           let fresh = try? Self.openCopy(source, path: "", password: password),
           Int(redline_poppler_document_get_n_pages(fresh)) == pageCount {
            g_object_unref(UnsafeMutableRawPointer(document))
            document = fresh
            parsedPages = [index]
            // What the old copy held goes back to the system, not only to malloc's free lists.
            malloc_trim(0)
        }
        return redline_poppler_document_get_page(document, Int32(index))
    }

    /// Runs `body` with a page, released afterwards; nil when poppler has no such page.
    func withPage<T>(_ index: Int, _ body: (OpaquePointer) -> T) -> T? {
        guard pageGate?(index) == nil else { return nil }
        Self.access.lock()
        defer { Self.access.unlock() }
        guard let page = fetchPage(index) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        return body(page)
    }

    /// The displayed size of a page in points (crop box, axes swapped for /Rotate 90 and 270).
    public func displaySize(ofPage index: Int) -> Size {
        Self.access.lock()
        defer { Self.access.unlock() }
        guard let page = fetchPage(index) else { return .zero }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        var width = 0.0, height = 0.0
        redline_poppler_page_get_size(page, &width, &height)
        return Size(width: width, height: height)
    }

    /// The most pixels one render may take (a gigabyte of them): past it a page is drawn only as far as
    /// fits, rather than asking for more memory than any machine has.
    public static let largestRaster = 1 << 28

    /// Renders a page as the user sees it, at `scale` pixels per point, on white.
    public func render(page index: Int, scale: Double) -> PageRaster {
        let refusal = pageGate?(index)
        Self.access.lock()
        defer { Self.access.unlock() }
        let size = displaySize(ofPage: index)
        let (width, height) = Self.rasterSize(of: size, scale: scale)
        var raster = PageRaster(width: width, height: height, filledWith: 0xFFFFFF)
        if let refusal {
            raster.refusal = refusal
            return raster
        }
        guard let page = fetchPage(index) else { return raster }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        withCairoContext(on: &raster) { context in
            cairo_scale(context, scale, scale)
            redline_poppler_page_render(page, context)
        }
        return raster
    }

    /// The page with annotations of the file moved or deleted: drawn from a one-page copy with the edits made.
    /// When that copy cannot be made the page is drawn as the file has it: the save says what is wrong.
    public func render(page index: Int, scale: Double, annotationEdits: AnnotationEdits) -> PageRaster {
        guard !annotationEdits.isEmpty, pageGate?(index) == nil, let editedPage,
              let data = try? editedPage(index, annotationEdits),
              let copy = try? PopplerDocument(data: data, path: "page \(index + 1)", password: password),
              copy.pageCount == 1 else { return render(page: index, scale: scale) }
        return copy.render(page: 0, scale: scale)
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
