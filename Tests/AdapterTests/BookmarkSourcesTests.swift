import Foundation
@testable import PDFAssembly
import RedlineCore
import TestSupport
import Testing

/// Listing bookmarks reads the catalog and the trailer, not the pages: what it finds must be what reading the whole
/// document finds, for every fixture (real, damaged and hostile files alike) that can be read whole.
@Suite struct BookmarkSourcesTests {
    static let files: [String] = {
        let folder = TestPaths.fixture("")
        let hostile = TestPaths.fixture("hostile")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).map { folder + "/" + $0 }
            + ((try? FileManager.default.contentsOfDirectory(atPath: hostile)) ?? []).map { hostile + "/" + $0 }
        return names.filter { $0.hasSuffix(".pdf") && !$0.contains("_enc-") }.sorted() + [TestPaths.sample]
    }()

    @Test(arguments: files)
    func theCatalogSaysWhatTheWholeDocumentSays(path: String) throws {
        let whole: Result<BookmarkSources, DocumentError>
        do {
            whole = .success(BookmarkSources(try PDFInspector.describe(path: path, password: nil, readingAnnotations: false, readingOutline: true)))
        } catch let error as DocumentError {
            whole = .failure(error)
        }
        switch whole {
        case .success(let expected):
            #expect(try PDFInspector.bookmarkSources(path: path, password: nil, readingOutline: true) == expected)
        case .failure:
            // A page tree the other commands refuse (a loop, pages listed a million times) is not read here: the
            // listing reads the catalog, and says what it finds or why it cannot, as pdfinfo does.
            do {
                let sources = try PDFInspector.bookmarkSources(path: path, password: nil)
                #expect(sources.pageCount > 0)
            } catch {
                #expect(error is DocumentError, "\(error)")
            }
        }
    }
}
