import CQPDF
import Foundation
@testable import PDFAssembly
import RedlineCore
import TestSupport
import Testing

/// The check after an appended save reads the update back from disk, not the original again: the bytes must be the
/// ones written and every object must stand where the update's cross-reference puts it.
@Suite struct UpdateReadBackTests {
    /// The sample with one key added to its first page, as an update, written beside the original.
    private func appendedCopy(in folder: TemporaryFolder, of source: String) throws -> (path: String, written: WrittenDocument) {
        let session = try PDFInspector.openSessionForWriting(path: source, password: nil)
        qpdf_oh_replace_key(session.data, qpdf_get_page_n(session.data, 0), "/RedlineChecked", qpdf_oh_new_bool(session.data, QPDF_TRUE))
        session.changedPages.insert(0)
        let (document, outcome) = try IncrementalUpdate.document(of: session, minimumVersion: nil)
        let written = try #require(document)
        guard case .appended = outcome else { throw ReadBackError("not appended: \(outcome)") }
        let path = folder.file("copy.pdf")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        #expect(bytes.count == written.prefix?.length)
        bytes.append(written.bytes)
        try bytes.write(to: URL(fileURLWithPath: path))
        return (path, written)
    }

    private func pageCount(of path: String) throws -> Int {
        let session = try PDFInspector.openSession(path: path, password: nil)
        return withExtendedLifetime(session) { Int(qpdf_get_num_pages(session.data)) }
    }

    @Test(arguments: [TestPaths.sample, TestPaths.fixture("pdfcpu_text_annotations.pdf"), TestPaths.fixture("pypdf_GeoTopo-komprimiert.pdf")])
    func anUpdateAsWrittenReadsBack(source: String) throws {
        let folder = TemporaryFolder()
        let (path, written) = try appendedCopy(in: folder, of: source)
        let pages = try pageCount(of: source)
        #expect(!written.appendedObjects.isEmpty)
        try OverlayAssembler.verify(path, password: nil, pageCount: pages, written: written)
    }

    @Test func anObjectAwayFromItsEntryOrAByteChangedOnDiskIsFound() throws {
        let folder = TemporaryFolder()
        let (path, written) = try appendedCopy(in: folder, of: TestPaths.sample)
        let pages = try pageCount(of: TestPaths.sample)

        var moved = written
        moved.appendedObjects[0].offset += 1
        #expect(throws: ReadBackError.self) { try OverlayAssembler.verify(path, password: nil, pageCount: pages, written: moved) }

        // One byte of the update's first object changed on disk (a letter of a key: qpdf still reads the file).
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let keyAt = try #require(bytes.range(of: Data("/RedlineChecked".utf8), in: written.prefix!.length..<bytes.count))
        bytes[keyAt.lowerBound + 1] = UInt8(ascii: "X")
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(throws: ReadBackError.self) { try OverlayAssembler.verify(path, password: nil, pageCount: pages, written: written) }
    }

    /// An update whose bytes landed as written but which qpdf cannot parse (an object not closed by `endobj`) is
    /// refused too: the objects are read back through qpdf, not only compared.
    @Test func anObjectQpdfCannotParseIsFoundThoughItsBytesAreTheOnesWritten() throws {
        let folder = TemporaryFolder()
        let (path, written) = try appendedCopy(in: folder, of: TestPaths.sample)
        let pages = try pageCount(of: TestPaths.sample)
        var broken = written
        let end = try #require(broken.bytes.range(of: Data("endobj".utf8)))
        broken.bytes.replaceSubrange(end, with: Data("endfoo".utf8))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes.replaceSubrange((written.prefix!.length + end.lowerBound)..<(written.prefix!.length + end.upperBound), with: Data("endfoo".utf8))
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(throws: ReadBackError.self) { try OverlayAssembler.verify(path, password: nil, pageCount: pages, written: broken) }
    }
}
