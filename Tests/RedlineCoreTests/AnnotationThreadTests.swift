import Foundation
import RedlineCore
import Testing

/// Builds annotations the way a reader would hand them over, in document order.
struct AnnotationFixture {
    private(set) var annotations: [Annotation] = []

    @discardableResult
    mutating func add(_ id: AnnotationID, _ subtype: AnnotationSubtype = .text, page: Int = 0, author: String? = "Ann",
                      at minute: Int? = nil, contents: String? = nil, replyingTo parent: AnnotationID? = nil,
                      state: AnnotationState? = nil, flags: Int = 4) -> Annotation {
        let annotation = Annotation(
            id: id, pageIndex: page, subtype: subtype, rect: Rect(x: 10, y: 20, width: 30, height: 40), author: author,
            created: minute.map { PDFDate(year: 2024, month: 5, day: 1, hour: 12, minute: $0) }, contents: contents,
            inReplyTo: parent, state: state, flags: flags, order: annotations.count)
        annotations.append(annotation)
        return annotation
    }
}

@Suite struct AnnotationThreadTests {
    @Test func repliesToRepliesAreFlattenedIntoOneListSortedByDate() throws {
        var file = AnnotationFixture()
        file.add("root", .highlight, at: 0, contents: "Is this right?")
        file.add("late", at: 30, contents: "Third", replyingTo: "early")
        file.add("early", at: 10, contents: "First", replyingTo: "root")
        file.add("middle", at: 20, contents: "Second", replyingTo: "root")
        file.add("other", .square, at: 5)
        let threads = AnnotationThreads.build(file.annotations)
        #expect(threads.map(\.root.id) == ["root", "other"])
        #expect(threads[0].replies.map(\.contents) == ["First", "Second", "Third"])
        #expect(threads[1].replies.isEmpty)
    }

    @Test func statesApplyToWhatTheirChainAnswersAndTheLatestIsInForce() throws {
        var file = AnnotationFixture()
        file.add("root", .highlight, at: 0)
        file.add("reply", at: 1, contents: "Fixed", replyingTo: "root")
        file.add("alice-1", author: "Alice", at: 2, replyingTo: "root", state: .accepted)
        // A later change by the same reviewer answers her previous state annotation.
        file.add("alice-2", author: "Alice", at: 4, replyingTo: "alice-1", state: .rejected)
        file.add("bob", author: "Bob", at: 3, replyingTo: "root", state: .completed)
        file.add("mark", author: "Bob", at: 5, replyingTo: "root", state: .marked)
        file.add("on-reply", author: "Bob", at: 6, replyingTo: "reply", state: .accepted)
        let thread = try #require(AnnotationThreads.build(file.annotations).first)
        #expect(thread.replies.map(\.id) == ["reply"])
        #expect(thread.changes(on: "root").map(\.id) == ["alice-1", "bob", "alice-2", "mark"])
        #expect(thread.currentState(of: "root", model: AnnotationState.reviewModel)?.id == "alice-2")
        #expect(thread.latestChange(on: "root", model: AnnotationState.reviewModel, by: "Bob")?.id == "bob")
        #expect(thread.stateSummary(of: "root") == "Rejected — Alice · Marked")
        #expect(thread.stateSummary(of: "reply") == "Accepted — Bob")
    }

    @Test func undatedAnnotationsKeepTheDocumentsOrder() throws {
        var file = AnnotationFixture()
        file.add("root", .highlight)
        for (index, state) in [AnnotationState.marked, .unmarked, .accepted, .rejected, .cancelled, .completed, .none].enumerated() {
            file.add(AnnotationID("state-\(index)"), author: "Comment", replyingTo: "root", state: state)
        }
        let thread = try #require(AnnotationThreads.build(file.annotations).first)
        #expect(thread.changes(on: "root").compactMap(\.state?.value)
            == ["Marked", "Unmarked", "Accepted", "Rejected", "Cancelled", "Completed", "None"])
        #expect(thread.stateSummary(of: "root") == "None — Comment")
    }

    @Test func aMissingParentMakesAThreadOfItsOwnAndLoopsLoseNothing() throws {
        var file = AnnotationFixture()
        file.add("orphan", replyingTo: "gone")
        file.add("a", replyingTo: "b")
        file.add("b", replyingTo: "a")
        file.add("c", replyingTo: "a")
        file.add("self", replyingTo: "self")
        let threads = AnnotationThreads.build(file.annotations)
        #expect(threads.map(\.root.id) == ["orphan", "a", "self"])
        #expect(Set(threads.flatMap(\.members).map(\.id)) == Set(file.annotations.map(\.id)))
    }

    /// Chains walked once each: 10,000 replies in a row, replies listed before what they answer, and a chain
    /// of a reviewer's successive states all land where short ones do.
    @Test func longChainsGroupLikeShortOnes() throws {
        var file = AnnotationFixture()
        file.add("root", .highlight, at: 0, contents: "Start")
        // Listed newest first, so each reply comes before its parent in the document.
        for index in stride(from: 9_999, through: 0, by: -1) {
            file.add(AnnotationID("r\(index)"), at: index % 60, contents: "Reply \(index)",
                     replyingTo: index == 0 ? "root" : AnnotationID("r\(index - 1)"))
        }
        for index in 0..<500 {
            file.add(AnnotationID("s\(index)"), at: 59, replyingTo: index == 0 ? "root" : AnnotationID("s\(index - 1)"),
                     state: index.isMultiple(of: 2) ? .accepted : .rejected)
        }
        let threads = AnnotationThreads.build(file.annotations)
        #expect(threads.count == 1)
        let thread = try #require(threads.first)
        #expect(thread.replies.count == 10_000)
        #expect(thread.changes(on: "root").count == 500, "every state in the chain applies to the highlight")
        #expect(thread.currentState(of: "root", model: AnnotationState.reviewModel)?.state == .rejected)

        var edits = AnnotationEdits()
        let gone = edits.delete("r5000", in: file.annotations)
        #expect(gone.count == 5000 && gone.contains("r9999") && !gone.contains("r4999"))
    }
}

extension AnnotationSubtype {
    static let highlight: Self = "Highlight"
    static let square: Self = "Square"
}
