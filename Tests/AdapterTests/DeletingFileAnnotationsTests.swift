import Foundation
import RedlineCore
import RedlineKit
import Testing
import TestSupport

/// Deleting another tool's annotation and saving takes it out of the file, whether it is an object of its own or
/// written into the page's /Annots itself (pypdf writes them so): every other annotation stays, and a reply
/// written in the same save answers the annotation it was written to, though a deletion moved it in the array.
@Suite struct DeletingFileAnnotationsTests {
    static let date = PDFDate(year: 2026, month: 11, day: 27, hour: 18, minute: 0, second: 0)

    @Test(arguments: ["pypdf_annotated_pdf.pdf", "pdfjs_issue14438.pdf", "pdfjs_file_pdfjs_test.pdf"])
    func eachAnnotationDeletedAloneLeavesTheFileAndTheOthersStay(fixture: String) throws {
        let folder = TemporaryFolder()
        let source = folder.copy(fixture: fixture)
        let document = try OpenedDocument(path: source, password: nil)
        let original = document.description.annotations
        let alone = original.filter { annotation in !annotation.isReply && !original.contains { $0.inReplyTo == annotation.id } }
        #expect(!alone.isEmpty)
        for (index, doomed) in alone.enumerated() {
            var edits = AnnotationEdits()
            let gone = edits.delete(doomed.id, in: original)
            #expect(gone == [doomed.id])
            let output = folder.file("deleted-\(index).pdf")
            try DocumentSaver(services: RedlineServices()).save(DocumentEdits(annotations: edits), source: source, password: nil,
                                                                description: document.description, to: output)
            #expect(try QPDFCheck.errors(in: output) == nil)
            let saved = try OpenedDocument(path: output, password: nil).description.annotations
            #expect(saved.map(\.id) == original.map(\.id).filter { $0 != doomed.id }, "\(fixture): deleting \(doomed.subtype.label) \(doomed.id)")
            // pikepdf agrees: one entry fewer in the page's /Annots, besides the popup that went with it. (MuPDF
            // lists no annotation written into /Annots itself, so it cannot tell here.)
            func entries(_ path: String) throws -> [String] {
                try (PDFProbe.read(path).pages[doomed.pageIndex]["annots"] as? [Any] ?? []).map { "\($0)" }.filter { !$0.contains("/Popup") }
            }
            #expect(try entries(output).count == entries(source).count - 1, "\(fixture): pikepdf's /Annots after deleting \(doomed.id)")
        }
    }

    /// pypdf's annotations are all direct: the first deleted and the last answered in one save.
    @Test func aReplyAfterADeletionAnswersTheAnnotationItWasWrittenTo() throws {
        let folder = TemporaryFolder()
        let source = folder.copy(fixture: "pypdf_annotated_pdf.pdf")
        let output = folder.file("saved.pdf")
        let document = try OpenedDocument(path: source, password: nil)
        let original = document.description.annotations
        try #require(original.count == 3)
        var edits = AnnotationEdits()
        _ = edits.delete(original[0].id, in: original)
        let editing = ThreadEditing(author: "Ana", path: source)
        try editing.reply(to: original[2].id, text: "Which stroke?", current: edits.applied(to: original), edits: &edits,
                          stamp: .init(date: Self.date, id: "reply-1"))
        try DocumentSaver(services: RedlineServices()).save(DocumentEdits(annotations: edits), source: source, password: nil,
                                                            description: document.description, to: output)
        #expect(try QPDFCheck.errors(in: output) == nil)
        let saved = try OpenedDocument(path: output, password: nil).description.annotations
        #expect(saved.filter { !$0.isReply }.map(\.subtype) == [original[1].subtype, original[2].subtype])
        let reply = try #require(saved.first { $0.contents == "Which stroke?" })
        let parent = try #require(saved.first { $0.id == reply.inReplyTo })
        #expect(parent.subtype == original[2].subtype && parent.rect == original[2].rect)
    }
}
