import Foundation
import RedlineKit
import RedlineCore
import TestSupport
import Testing

/// Replies and states saved into real files, read back by Redline and by pikepdf.
@Suite struct AnnotationSavingTests {
    let noon = PDFDate(year: 2026, month: 11, day: 22, hour: 12, minute: 30, second: 5, offsetMinutes: 60)
    let fixture = TestPaths.fixture("pdfcpu_text_annotations.pdf")

    func save(_ edits: DocumentEdits, from source: String, to destination: String) throws {
        let description = try MarkupApplication.describe(source, password: nil)
        try DocumentSaver(services: RedlineServices()).save(edits, source: source, password: nil,
                                                             description: description, to: destination)
    }

    /// The fixture with Alice's reply `r` to its highlight, saved into `folder`: the file and what it holds.
    func savedWithAliceReply(_ text: String, in folder: TemporaryFolder) throws -> (path: String, annotations: [Annotation]) {
        let replied = folder.path + "/replied.pdf"
        let before = try MarkupApplication.describe(fixture, password: nil).annotations
        var edits = DocumentEdits()
        try ThreadEditing(author: "Alice", path: fixture).reply(to: before[0].id, text: text, current: before,
                                                                 edits: &edits.annotations, stamp: .init(date: noon, id: "r"))
        try save(edits, from: fixture, to: replied)
        return (replied, try MarkupApplication.describe(replied, password: nil).annotations)
    }

    @Test func aReplyAndAStateAreWrittenAsTheSpecificationSaysInTheSameSaveAsMarkup() throws {
        let folder = TemporaryFolder()
        let output = folder.path + "/replied.pdf"
        let before = try MarkupApplication.describe(fixture, password: nil).annotations
        let root = before[0]
        var edits = DocumentEdits()
        edits.markup.add(pageIndex: 0, content: .text(TextMarkup(origin: Point(x: 72, y: 300), text: "See note")))
        let alice = ThreadEditing(author: "Alice Ä", path: fixture)
        try alice.reply(to: root.id, text: "Fixed — thanks", current: before, edits: &edits.annotations,
                        stamp: .init(date: noon, id: "reply-1"))
        try alice.setState(.accepted, on: root.id, current: edits.annotations.applied(to: before),
                           edits: &edits.annotations, stamp: .init(date: noon, id: "state-1"))
        try alice.setState(.completed, on: root.id, current: edits.annotations.applied(to: before),
                           edits: &edits.annotations, stamp: .init(date: noon, id: "state-2"))
        try save(edits, from: fixture, to: output)

        #expect(try QPDFCheck.errors(in: output) == nil)
        // The markup was flattened into the page in the same write.
        #expect(try Saving.word("See", in: output, page: 1) != nil)

        let probed = try AnnotationProbe.read(output)
        let reply = try #require(probed.first { $0.NM == "reply-1" })
        let rootObject = try #require(probed.first { $0.subtype == "/Highlight" }).object
        #expect(reply.subtype == "/Text")
        #expect(reply.IRTObject == rootObject)
        #expect(reply.RT == "/R")
        #expect(reply.T == "Alice Ä")
        #expect(reply.Contents == "Fixed — thanks")
        #expect(reply.CreationDate == "D:20261122123005+01'00'")
        #expect(reply.M == "D:20261122123005+01'00'")
        #expect(reply.F & 4 != 0)
        #expect(reply.popupParentIsThis == true)
        #expect(reply.PIsPage)
        #expect(reply.State == nil)

        let first = try #require(probed.first { $0.NM == "state-1" })
        let second = try #require(probed.first { $0.NM == "state-2" })
        #expect(first.StateModel == "Review" && first.StateModelType == "string")
        #expect(first.State == "Accepted" && first.StateType == "string")
        #expect(first.IRTObject == rootObject)
        #expect(first.T == "Alice Ä")
        #expect(first.F & 32 != 0)
        // Changed again by the same reviewer: the new state answers the previous one.
        #expect(second.State == "Completed")
        #expect(second.IRTName == "state-1")

        // The file's own annotations are untouched.
        let original = try AnnotationProbe.read(fixture)
        #expect(Set(original.map(\.digest)).isSubset(of: Set(probed.map(\.digest))))
        #expect(probed.count == original.count + 4)

        // Redline reads back exactly the thread it wrote.
        let thread = try #require(AnnotationThreads.build(try MarkupApplication.describe(output, password: nil).annotations).first)
        #expect(thread.replies.map(\.contents) == ["Fixed — thanks"])
        #expect(thread.stateSummary(of: thread.root.id) == "Completed — Alice Ä")
        #expect(thread.changes(on: thread.root.id).count == 9)
    }

    @Test func deletingTheHighlightTakesItsRepliesAndPopupsWithIt() throws {
        let folder = TemporaryFolder()
        let output = folder.path + "/deleted.pdf"
        let (replied, saved) = try savedWithAliceReply("Hi", in: folder)
        var deletion = DocumentEdits()
        try ThreadEditing(author: "Alice", path: replied).delete(saved[0].id, current: saved, edits: &deletion.annotations)
        try save(deletion, from: replied, to: output)
        #expect(try AnnotationProbe.read(output).isEmpty)
        #expect(try QPDFCheck.errors(in: output) == nil)
    }

    @Test func editingYourOwnReplyChangesItsTextAndDate() throws {
        let folder = TemporaryFolder()
        let output = folder.path + "/edited.pdf"
        let (replied, saved) = try savedWithAliceReply("Draft", in: folder)
        let alice = ThreadEditing(author: "Alice", path: replied)
        var change = DocumentEdits()
        let later = PDFDate(year: 2026, month: 11, day: 23, hour: 8, offsetMinutes: 0)
        try alice.editReply("r", text: "Final", current: saved, edits: &change.annotations, date: later)
        try save(change, from: replied, to: output)
        let reply = try #require(try AnnotationProbe.read(output).first { $0.NM == "r" })
        #expect(reply.Contents == "Final")
        #expect(reply.M == "D:20261123080000+00'00'")
        #expect(reply.CreationDate == "D:20261122123005+01'00'")
    }

    @Test func aDocumentThatForbidsAnnotationChangesIsRefusedAndNothingIsWritten() throws {
        let folder = TemporaryFolder()
        let locked = folder.path + "/locked.pdf"
        let output = folder.path + "/out.pdf"
        let result = try ProcessRunner.run("qpdf", ["--encrypt", "", "owner", "256", "--annotate=n", "--modify=none",
                                                             "--", fixture, locked])
        #expect(result.status == 0, "\(result.stderr)")
        let description = try MarkupApplication.describe(locked, password: nil)
        #expect(!description.allowsAnnotationChanges)
        let job = ReviewJob(input: locked, password: nil, author: "Alice", output: output)
        #expect(throws: AnnotationEditError.notPermitted(path: locked)) {
            try job.run(.reply(to: description.annotations[0].id, text: "Hi"))
        }
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
