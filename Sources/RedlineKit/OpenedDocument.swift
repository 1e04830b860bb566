import Foundation
import PDFAssembly
import PDFRendering
import RedlineCore

/// A PDF opened for work: its structure read by qpdf (geometry, repairs), its pages drawn by poppler.
/// qpdf reads first: it refuses page-tree loops and damaged files with a clear reason before poppler sees them.
///
/// The file stays open for as long as the document is: a save reads the document the user saw through that
/// descriptor (`readPath`), even when another program has since put a new file at the path (an editor or a
/// download saving with a rename), and `changeSinceOpening` tells when the file itself was rewritten.
public final class OpenedDocument: @unchecked Sendable {
    public let path: String
    public let password: String?
    public let description: DocumentDescription
    public let renderer: any PageRenderer
    /// The same poppler document, for finding text: not to be used while the renderer draws on another thread.
    public let searcher: any TextSearching
    private let handle: Int32
    private let opened: FileIdentity?
    private let costs: PageCosts

    /// `readingOutline`: the outline's folder of bookmarks too, where bookmarks are kept in the outline.
    public convenience init(path: String, password: String?, readingOutline: Bool) throws {
        try self.init(path: path, password: password, reader: QPDFDocumentAccess(readingOutline: readingOutline))
    }

    public init(path: String, password: String?, reader: any DocumentReader = QPDFDocumentAccess()) throws {
        self.path = path
        self.password = password
        // Opened first, so what is described and drawn next is the file this descriptor holds. Without blocking:
        // opening a FIFO would wait for a writer for ever (describing it then refuses it with a reason).
        let handle = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        self.handle = handle
        opened = FileIdentity(descriptor: handle)
        description = try reader.describe(path: path, password: password)
        let poppler = try Self.renderer(path: path, password: password, pageCount: description.pageCount,
                                        repaired: !description.repairs.isEmpty, crowded: Set(description.crowdedPages.keys))
        // The file as it was opened, through the descriptor, as a save reads it.
        let source = handle >= 0 ? "/proc/self/fd/\(handle)" : path
        let (annotations, pages) = (description.annotations, description.pages)
        // Made once: the page is drawn again at every nudge of an annotation.
        let services = RedlineServices()
        poppler.editedPage = { page, edits in
            let redrawn = try AnnotationRedrawing.redrawn(edits, original: annotations, pages: pages, services: services)
            return try AnnotationPreview.page(page, source: FileManager.default.fileExists(atPath: source) ? source : path,
                                              password: password, edits: edits, appearances: redrawn.appearances,
                                              redrawn: redrawn.annotations)
        }
        // Pages poppler would draw for ever are kept from it: judged from their content, on first need.
        let costs = PageCosts(path: source, password: password)
        self.costs = costs
        poppler.pageGate = { page in costs.refusal(page: page) }
        renderer = poppler
        searcher = poppler
        guard renderer.pageCount == description.pageCount else {
            throw DocumentError.damaged(path: path, reason:
                "the page tree is inconsistent (\(description.pageCount) pages by one reading, \(renderer.pageCount) by another)")
        }
    }

    deinit {
        if handle >= 0 { close(handle) }
    }

    /// The document for finding text, its annotations left unread: a page of 100,000 was most of a search's time.
    public static func forSearching(path: String, password: String?) throws -> OpenedDocument {
        try OpenedDocument(path: path, password: password, reader: QPDFDocumentAccess(readingAnnotations: false))
    }

    /// Why a page is not drawn, read or searched (poppler would never finish it), or nil.
    public func pageRefusal(_ page: Int) -> String? { costs.refusal(page: page) }

    /// Where a save reads the document from: the file as it was opened, through its descriptor.
    public var readPath: String {
        handle >= 0 && FileManager.default.fileExists(atPath: "/proc/self/fd/\(handle)") ? "/proc/self/fd/\(handle)" : path
    }

    public enum Change: Equatable {
        /// The path names another file now; the one opened is still there to save from.
        case replaced
        /// The file opened was rewritten where it stands: the pages marked up are gone.
        case rewritten
    }

    /// What another program did to the file since it was opened, if anything.
    public func changeSinceOpening() -> Change? {
        guard let opened, let now = FileIdentity(descriptor: handle) else { return nil }
        if now.size != opened.size || now.modified != opened.modified { return .rewritten }
        guard let atPath = FileIdentity(path: path), atPath.isSameFile(as: opened) else { return .replaced }
        return nil
    }

    /// Another poppler reading of the file as it was opened, for work on another thread than the renderer's
    /// (poppler's documents are not to be shared between threads): a search while pages render.
    public func independentReader() throws -> any TextSearching & DocumentNavigating & PageTextReading {
        let reader = try Self.renderer(path: readPath, password: password, pageCount: description.pageCount,
                                       repaired: !description.repairs.isEmpty, crowded: Set(description.crowdedPages.keys))
        // The same pages kept from poppler as the renderer's: a page it would read for ever is not read here either.
        let costs = costs
        reader.pageGate = { page in costs.refusal(page: page) }
        return reader
    }

    /// Poppler on the file itself; for a damaged file that poppler cannot read as it is, or reads with a
    /// different number of pages, poppler on the copy qpdf repaired, so both readings are the same document; for a
    /// document with crowded pages, poppler on the copy that lists no annotations on them.
    private static func renderer(path: String, password: String?, pageCount: Int, repaired: Bool,
                                 crowded: Set<Int>) throws -> PopplerDocument {
        if !crowded.isEmpty {
            return try PopplerDocument(data: PDFInspector.copyForDrawing(path: path, password: password, crowded: crowded),
                                       path: path, password: password)
        }
        do {
            let document = try PopplerDocument(path: path, password: password)
            if document.pageCount == pageCount || !repaired { return document }
        } catch DocumentError.damaged(_, _) where repaired {
            // Drawn from the repaired copy below.
        }
        return try PopplerDocument(data: PDFInspector.copyForDrawing(path: path, password: password), path: path, password: password)
    }
}

/// The page-cost reader, made when a page is first asked about, not on open: its own qpdf reading of the file costs
/// what describing it costs, and commands that draw no page (a listing, a save) never need it.
final class PageCosts: @unchecked Sendable {
    private let lock = NSLock()
    private let path: String
    private let password: String?
    private var inspector: PageCostInspector??

    init(path: String, password: String?) {
        self.path = path
        self.password = password
    }

    func refusal(page: Int) -> String? {
        let made = lock.withLock {
            if inspector == nil { inspector = .some(try? PageCostInspector(path: path, password: password)) }
            return inspector!
        }
        return made?.refusal(page: page)
    }
}
