import Foundation
import PDFAssembly
import PDFRendering
import RedlineCore

/// A PDF opened for work: its structure read by qpdf (geometry, repairs), its pages drawn by poppler.
/// qpdf reads first: it refuses page-tree loops and damaged files with a clear reason before poppler sees them.
public final class OpenedDocument: @unchecked Sendable {
    public let path: String
    public let password: String?
    public let description: DocumentDescription
    public let renderer: PopplerDocument

    public init(path: String, password: String?) throws {
        self.path = path
        self.password = password
        description = try PDFInspector.describe(path: path, password: password)
        renderer = try Self.renderer(path: path, password: password, pageCount: description.pageCount,
                                     repaired: !description.repairs.isEmpty)
        guard renderer.pageCount == description.pageCount else {
            throw DocumentError.damaged(path: path, reason:
                "the page tree is inconsistent (\(description.pageCount) pages by one reading, \(renderer.pageCount) by another)")
        }
    }

    /// Poppler on the file itself; for a damaged file that poppler cannot read as it is, or reads with a
    /// different number of pages, poppler on the copy qpdf repaired, so both readings are the same document.
    private static func renderer(path: String, password: String?, pageCount: Int, repaired: Bool) throws -> PopplerDocument {
        do {
            let document = try PopplerDocument(path: path, password: password)
            if document.pageCount == pageCount || !repaired { return document }
        } catch DocumentError.damaged(_, _) where repaired {
            // Drawn from the repaired copy below.
        }
        return try PopplerDocument(data: PDFInspector.repairedCopy(path: path, password: password), path: path, password: password)
    }
}
