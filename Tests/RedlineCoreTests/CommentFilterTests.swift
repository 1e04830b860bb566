import RedlineCore
import Testing

/// Which threads a comment filter keeps, and the words the list's filter prompt reads.
@Suite struct CommentFilterTests {
    /// Alice's highlight on page 1 answered by Bob and accepted by Carol; Bob's note on page 3, marked but not
    /// answered; an unreviewed square by nobody on page 2.
    static let threads: [AnnotationThread] = {
        func date(_ minute: Int) -> PDFDate { PDFDate(year: 2025, month: 5, day: 6, hour: 10, minute: minute) }
        let box = Rect(x: 10, y: 10, width: 40, height: 12)
        return AnnotationThreads.build([
            Annotation(id: "hl", pageIndex: 0, subtype: .highlight, rect: box, author: "Alice", created: date(0), contents: "Typo", order: 0),
            Annotation(id: "reply", pageIndex: 0, subtype: .text, rect: box, author: "Bob", created: date(1), contents: "Fixed",
                       inReplyTo: "hl", order: 1),
            Annotation(id: "accepted", pageIndex: 0, subtype: .text, rect: box, author: "Carol", created: date(2), inReplyTo: "hl",
                       state: .accepted, order: 2),
            Annotation(id: "square", pageIndex: 1, subtype: "Square", rect: box, order: 3),
            Annotation(id: "note", pageIndex: 2, subtype: .text, rect: box, author: "bob", created: date(3), contents: "Sign", order: 4),
            Annotation(id: "marked", pageIndex: 2, subtype: .text, rect: box, author: "Carol", created: date(4), inReplyTo: "note",
                       state: .marked, order: 5),
        ])
    }()

    func kept(_ query: String) throws -> [AnnotationID] {
        let filter = try CommentFilter(query: query)
        return Self.threads.filter(filter.keeps).map(\.root.id)
    }

    @Test func eachCriterionNarrowsAndItsValuesAreAlternatives() throws {
        #expect(try kept("") == ["hl", "square", "note"])
        #expect(try kept("author:BOB") == ["note"], "the author of the thread's comment, any case; Bob's reply is not his thread")
        #expect(try kept("author:alice author:bob") == ["hl", "note"])
        #expect(try kept("alice") == ["hl"], "a word without a criterion is an author")
        #expect(try CommentFilter(query: "Ann Lee state:none Bo  Li unanswered")
            == CommentFilter(authors: ["Ann Lee", "Bo Li"], states: [.none], unansweredOnly: true), "words side by side are one name")
        #expect(try kept("kind:note") == ["note"])
        #expect(try kept("kind:Text kind:square") == ["square", "note"])
        #expect(try kept("state:accepted") == ["hl"])
        #expect(try kept("state:none") == ["square", "note"], "nobody reviewed them: Review's None, as Acrobat lists them")
        #expect(try kept("state:marked") == ["note"])
        #expect(try kept("state:unmarked") == ["hl", "square"])
        #expect(try kept("unanswered") == ["square", "note"], "a state change is no answer")
        #expect(try kept("page:2-3") == ["square", "note"])
        #expect(try kept("page:1") == ["hl"])
        #expect(try kept("unanswered state:marked author:bob page:3") == ["note"])
        #expect(try kept("unanswered author:alice") == [])
    }

    @Test func theQueryReadsBackAsTheSameFilter() throws {
        let filters = [
            CommentFilter(),
            CommentFilter(authors: ["Ann Lee", "o\"brien", "back\\slash", "plain"], kinds: [.freeText, .strikeOut],
                          states: [.accepted, .unmarked], pages: 2...6, unansweredOnly: true),
            CommentFilter(authors: [""], pages: 0...0),
        ]
        for filter in filters {
            #expect(try CommentFilter(query: filter.query) == filter, "\(filter.query)")
        }
        #expect(try CommentFilter(query: #"author:"Ann Lee" kind:"text box"  state:ACCEPTED  p:4"#)
            == CommentFilter(authors: ["Ann Lee"], kinds: [.freeText], states: [.accepted], pages: 3...3))
    }

    @Test func wordsThatNameNothingAreRefusedWithWhatThereIs() {
        func problem(_ query: String) -> String? {
            do {
                _ = try CommentFilter(query: query)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(problem("kind:hilight")?.hasPrefix("no kind of comment is called “hilight”: one of note, textbox, highlight") == true)
        #expect(problem("state:done") == "no review state is called “done”: one of accepted, rejected, cancelled, completed, none, marked, unmarked")
        #expect(problem("page:0")?.hasPrefix("“0” is no page or range of pages") == true)
        #expect(problem("page:5-3")?.hasPrefix("“5-3” is no page") == true)
        #expect(problem("page:x") != nil)
        #expect(problem("colour:red") == "“colour:” is no filter: author:, kind:, state:, page: or unanswered")
        #expect(problem(#"author:"never closed"#) == nil, "an unclosed quote runs to the end")
    }

    @Test func pagesAtTheirLimitsAreRangesOrRefusals() throws {
        #expect(try CommentFilter.pages("1") == 0...0)
        #expect(try CommentFilter.pages("9223372036854775807") == 9_223_372_036_854_775_806...9_223_372_036_854_775_806)
        #expect(throws: CommentFilter.Problem.self) { try CommentFilter.pages("9223372036854775808") }
        #expect(throws: CommentFilter.Problem.self) { try CommentFilter.pages("-1") }
        #expect(throws: CommentFilter.Problem.self) { try CommentFilter.pages("") }
    }
}
