import Foundation
@testable import PDFRendering
import TestSupport
import Testing

/// Poppler keeps every page it has parsed for as long as the document is open, so paging through a long book grows
/// memory page by page. The document starts a fresh copy of itself now and then; what the user sees must not change
/// by it: the same pixels, the same words, and always the file as it was opened, even when another program has
/// replaced it on disk since.
@Suite struct PopplerFreshCopyTests {
    /// `copies` times the sample's four pages, with `first` as the file on disk.
    static func book(of first: String, copies: Int, in folder: TemporaryFolder, named name: String) throws -> String {
        let path = folder.file(name)
        let ranges = Array(repeating: "1-z", count: copies).joined(separator: ",")
        try ProcessRunner.run("qpdf", ["--empty", "--pages", first, ranges, "--", path], timeLimit: 60)
        return path
    }

    /// A document let go of while another thread is inside poppler (a page drawing for minutes) does not wait for
    /// it: the editor's `q` and SIGTERM let go of documents on the way out, and once waited until the page was done.
    /// The document is let go of when poppler is free, by the next document opened.
    @Test func aDocumentLetGoWhilePopplerIsBusyDoesNotWaitForIt() throws {
        final class Held: @unchecked Sendable { var document: PopplerDocument? }
        let held = Held()
        held.document = try PopplerDocument(path: TestPaths.sample, password: nil)
        #expect(held.document?.pageCount == 4)
        let busy = DispatchSemaphore(value: 0), finish = DispatchSemaphore(value: 0), freed = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            PopplerDocument.access.lock()
            busy.signal()
            finish.wait()
            PopplerDocument.access.unlock()
        }
        busy.wait()
        let letGo = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            held.document = nil
            letGo.signal()
        }
        // A failure would be a deadlock: waited for as an event, with a bound far above any machine's load.
        #expect(letGo.wait(timeout: .now() + 60) == .success, "letting go of the document waited for poppler")
        finish.signal()
        // Poppler free again: the next document opens (and the one let go of was released without harm).
        Thread.detachNewThread {
            _ = try? PopplerDocument(path: TestPaths.sample, password: nil)
            freed.signal()
        }
        #expect(freed.wait(timeout: .now() + 60) == .success)
    }

    @Test func pagesReadAfterAFreshCopyAreTheOpenedFilesEvenWhenItWasReplacedOnDisk() throws {
        let folder = TemporaryFolder()
        let copies = PopplerDocument.parsedPagesKept / 4 + 8
        let path = try Self.book(of: TestPaths.sample, copies: copies, in: folder, named: "book.pdf")
        // Another document with as many pages: a fresh copy read from the path would pass every count check.
        let other = try Self.book(of: TestPaths.fixture("white-and-black-pages.pdf"), copies: copies * 2, in: folder, named: "other.pdf")
        let document = try PopplerDocument(path: path, password: nil)
        #expect(document.pageCount == copies * 4)
        let firstPage = document.render(page: 0, scale: 1)
        let firstWords = document.words(onPage: 0).map(\.text)
        #expect(firstWords.contains("Redline"), "\(firstWords)")

        // Saved over by another program, as an editor saves: a new file renamed over the old name.
        #expect(rename(other, path) == 0)
        for page in 1..<document.pageCount { _ = document.displaySize(ofPage: page) }

        let again = document.render(page: 0, scale: 1)
        let samePage = again.pixels == firstPage.pixels
        #expect(samePage, "page 1 is drawn as it was when the file was opened")
        #expect(document.words(onPage: 0).map(\.text) == firstWords)
        let last = document.render(page: document.pageCount - 1, scale: 1)
        let fourth = document.render(page: 3, scale: 1)
        let sameLast = last.pixels == fourth.pixels
        #expect(sameLast, "the last page is the sample's fourth, as opened")
    }
}
