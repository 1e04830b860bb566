import CQPDF
import Foundation
@testable import PDFAssembly
import RedlineCore
import TestSupport
import Testing

/// Annotations are read from the file's own text where they can be, not parsed and kept by qpdf: every reading must
/// be the one qpdf's gives, for every fixture, whether its objects stand in the file, in object streams or in qpdf's
/// QDF layout (comments, one object per line range).
@Suite struct FileObjectsTests {
    static let fixtures: [String] = {
        let root = TestPaths.fixture("")
        let found = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return found.filter { $0.hasSuffix(".pdf") }.sorted()
    }()

    private func readings(_ path: String) throws -> (file: [Annotation], qpdf: [Annotation]) {
        func read(_ fileText: Bool) throws -> [Annotation] {
            let session = try PDFInspector.openSession(path: path, password: nil)
            var reader = AnnotationReader(session: session)
            reader.readsFileText = fileText
            return reader.read(pages: PDFInspector.geometries(in: session)).map(\.annotation)
        }
        return (try read(true), try read(false))
    }

    @Test(arguments: fixtures)
    func everyFixtureReadsAsQPDFReadsIt(_ name: String) throws {
        let folder = TemporaryFolder()
        let original = TestPaths.fixture(name)
        var layouts = [("as it is", original)]
        for (layout, options) in [("object streams", ["--object-streams=generate"]), ("QDF", ["--qdf"])] {
            let copy = folder.file("copy.\(layouts.count).pdf")
            let made = try ProcessRunner.run("qpdf", options + [original, copy])
            // A copy qpdf had to repair (or expand: a page tree listing one page a million times) is another
            // document: hostile fixtures stay covered as they are.
            if made.status == 0 { layouts.append((layout, copy)) }
        }
        for (layout, path) in layouts {
            guard let (file, qpdf) = try? readings(path) else { continue }
            #expect(file == qpdf, "\(name), \(layout)")
        }
    }

    /// Every annotation object of these files is read from the file's text, whether it stands alone or in an object
    /// stream: none falls back to qpdf.
    @Test(arguments: ["pdfcpu_text_annotations.pdf", "pdfjs_file_pdfjs_test.pdf", "pdfjs_issue14438.pdf", "pypdf_GeoTopo-komprimiert.pdf"])
    func plainAndStoredAnnotationsAreReadFromTheFile(_ name: String) throws {
        let folder = TemporaryFolder()
        let stored = folder.file("stored.pdf")
        #expect(try ProcessRunner.run("qpdf", ["--object-streams=generate", TestPaths.fixture(name), stored]).status == 0)
        for path in [TestPaths.fixture(name), stored] {
            let session = try PDFInspector.openSession(path: path, password: nil)
            let objects = try #require(FileObjects(session: session))
            var listed = 0, read = 0
            for index in 0..<Int(qpdf_get_num_pages(session.data)) {
                for item in session.arrayItems(session.key(qpdf_get_page_n(session.data, index), "/Annots")) {
                    let number = session.objectID(item)
                    guard number != 0, session.isDictionary(item) else { continue }
                    listed += 1
                    if objects.dictionary(number: number, generation: Int32(qpdf_oh_get_generation(session.data, item))) != nil { read += 1 }
                }
            }
            #expect(listed > 0)
            #expect(read == listed, "\(path)")
        }
    }

    /// What a writer of the session changed is read as it now is, not as the file says.
    @Test func anAnnotationAWriterChangedIsReadThroughQPDF() throws {
        let session = try PDFInspector.openSession(path: TestPaths.fixture("pdfcpu_text_annotations.pdf"), password: nil)
        let pages = PDFInspector.geometries(in: session)
        let first = try #require(AnnotationReader(session: session).read(pages: pages).first)
        qpdf_oh_replace_key(session.data, first.object, "/Contents", qpdf_oh_new_unicode_string(session.data, "Changed here"))
        session.noteChanged(annotation: first.object)
        let again = try #require(AnnotationReader(session: session).read(pages: pages).first)
        #expect(again.annotation.contents == "Changed here")
        #expect(first.annotation.contents != "Changed here")
    }

    /// A file Redline rebuilt on opening is not the file's bytes: nothing is read from them.
    @Test func aRebuiltDocumentIsReadThroughQPDFOnly() throws {
        let session = try PDFInspector.openSession(path: TestPaths.fixture("hostile/damaged-cyclic-outline-null-count.pdf"), password: nil)
        #expect(!session.repairs.isEmpty)
        #expect(FileObjects(session: session) == nil)
    }
}
