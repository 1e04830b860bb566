import Foundation
import PDFAssembly
import RedlineCore

/// XFDF in and out of documents, for `redline xfdf` and the collaboration server: the core turns annotations into
/// XFDF and back; this reads them from a document and writes a command into a copy of one.
public enum XFDFExchange {
    public struct PageOutOfRange: Error, CustomStringConvertible {
        public let page: Int
        public let pageCount: Int
        public var description: String { "there is no page \(page + 1) (the document has \(pageCount))" }
    }

    /// The document's annotations as XFDF, every page or one (from 0).
    public static func export(_ path: String, password: String?, page: Int? = nil) throws -> String {
        let description = try PDFInspector.describe(path: path, password: password)
        if let page, page >= description.pageCount { throw PageOutOfRange(page: page, pageCount: description.pageCount) }
        let annotations = description.annotations.filter { page == nil || $0.pageIndex == page }
        return XFDF.document(annotations, pages: description.pages)
    }

    /// Reads `bytes` as XFDF against the document's pages, then writes the document with the command applied to
    /// `destination`, atomically and checked; a malformed file throws before anything is written.
    public static func importing(_ bytes: [UInt8], into path: String, password: String?, to destination: String) throws {
        let description = try PDFInspector.describe(path: path, password: password)
        let command = try XFDF.command(from: bytes, pages: description.pages, existing: description.annotations)
        let writer = QPDFDocumentAccess()
        let document = try XFDFImporter.document(source: path, password: password, command: command)
        try AtomicFileWriter.write(document, to: destination) { temporary in
            try writer.verify(temporary, password: password, pageCount: description.pageCount)
        }
    }
}
