import Foundation
import RedlineKit
import RedlineCore
import TestSupport
import Testing

/// What Redline reads from real files, checked against pikepdf's reading of the same files.
@Suite struct AnnotationReadingTests {
    @Test func aHighlightWithSevenStateRepliesIsOneThread() throws {
        let path = TestPaths.fixture("pdfcpu_text_annotations.pdf")
        let annotations = try MarkupApplication.describe(path, password: nil).annotations
        let probed = try AnnotationProbe.read(path)
        #expect(annotations.count == probed.count)
        let threads = AnnotationThreads.build(annotations)
        #expect(threads.count == 1)
        let thread = try #require(threads.first)
        #expect(thread.root.subtype.rawValue == "Highlight")
        #expect(thread.root.author == "Steve van Loben Sels")
        #expect(thread.root.modified?.iso8601 == "2023-08-24T22:57:29+00:00")
        #expect(thread.replies.isEmpty)
        let changes = thread.changes(on: thread.root.id)
        #expect(changes.compactMap(\.state) == [.marked, .unmarked, .accepted, .rejected, .cancelled, .completed, .none])
        #expect(changes.map(\.contents) == probed.filter { $0.State != nil }.map(\.Contents))
        #expect(changes.allSatisfy { $0.author == "Comment" && $0.inReplyTo == thread.root.id })
        #expect(thread.stateSummary(of: thread.root.id) == "None — Comment")
    }

    @Test func aDozenKindsAreReadAndLabelledWithPopupsFoldedAway() throws {
        let path = TestPaths.fixture("pdfjs_issue14438.pdf")
        let annotations = try MarkupApplication.describe(path, password: nil).annotations
        let probed = try AnnotationProbe.read(path).filter { $0.subtype != "/Popup" }
        #expect(annotations.map { "/" + $0.subtype.rawValue } == probed.map(\.subtype))
        let counts = Dictionary(grouping: annotations, by: \.subtype.rawValue).mapValues(\.count)
        #expect(counts == ["Ink": 5, "FreeText": 2, "Polygon": 2, "Square": 2, "Highlight": 1, "Line": 1, "Circle": 1,
                           "Text": 1, "Underline": 1, "StrikeOut": 1, "Caret": 1])
        // Ids are the /NM where there is one, and the same on every read where there is none.
        let named = zip(annotations, probed).filter { $0.1.NM != nil }
        #expect(named.allSatisfy { $0.0.id.rawValue == $0.1.NM })
        let again = try MarkupApplication.describe(path, password: nil).annotations
        #expect(again.map(\.id) == annotations.map(\.id))
        #expect(Set(annotations.map(\.id)).count == annotations.count)
        let note = try #require(annotations.first { $0.subtype == .text })
        #expect(note.contents == "这是一个注解。")
        #expect(note.subtype.label == "Note")
        #expect(note.created?.iso8601 == "2022-01-10T16:00:15+08:00")
    }

    @Test func rectanglesAreInDisplayedPagePointsFromTheTopLeft() throws {
        let path = TestPaths.fixture("pdfcpu_text_annotations.pdf")
        let description = try MarkupApplication.describe(path, password: nil)
        let highlight = try #require(description.annotations.first)
        let probed = try #require(try AnnotationProbe.read(path).first { $0.subtype == "/Highlight" })
        let pageHeight = description.pages[0].displaySize.height
        #expect(abs(highlight.rect.minX - probed.rect[0]) < 0.01)
        #expect(abs(highlight.rect.minY - (pageHeight - probed.rect[3])) < 0.01)
        #expect(abs(highlight.rect.maxY - (pageHeight - probed.rect[1])) < 0.01)
    }
}
