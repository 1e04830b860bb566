import Foundation
import RedlineCore
import Testing

/// The rules of a shared document (who may change what, which versions apply, what a deletion takes with it), the
/// server's reading of a change's XFDF, the protocol's frames, and a client's replica of the shared set.
@Suite struct SharedChangeTests {
    static func note(_ name: String, by author: String, version: Int = 1, deleted: Bool = false, answers: String? = nil) -> SharedAnnotation {
        SharedAnnotation(name: name, pageIndex: 0, author: author, version: version, deleted: deleted, inReplyTo: answers,
                         element: "<text name=\"\(name)\" page=\"0\" rect=\"1,1,2,2\" title=\"\(author)\"/>")
    }

    static func request(_ action: AnnotationChange.Action, _ name: String, answers: String? = nil) -> SharedChangeRequest {
        SharedChangeRequest(action: action, name: name, pageIndex: 0, inReplyTo: answers,
                            element: action == .delete ? nil : "<text name=\"\(name)\" page=\"0\" rect=\"1,1,2,2\"/>")
    }

    static func decide(_ request: SharedChangeRequest, base: Int? = nil, by author: String, canWrite: Bool = true,
                       current: SharedAnnotation? = nil, parent: SharedAnnotation? = nil,
                       descendants: [SharedAnnotation] = [], live: Int = 0) -> Result<AcceptedChange, ChangeRefusal> {
        SharedChangeRules.decide(request, base: base, author: author, canWrite: canWrite,
                                 facts: .init(current: current, parent: parent, descendants: descendants, liveCount: live,
                                              mostAnnotations: 10))
    }

    static func code(_ result: Result<AcceptedChange, ChangeRefusal>) -> String {
        switch result {
        case .success: "accepted"
        case .failure(let refusal): refusal.code
        }
    }

    @Test func whoMayDoWhat() {
        let alices = Self.note("n", by: "alice")
        let table: [(String, Result<AcceptedChange, ChangeRefusal>, String)] = [
            ("author modifies", Self.decide(Self.request(.modify, "n"), base: 1, by: "alice", current: alices), "accepted"),
            ("other modifies", Self.decide(Self.request(.modify, "n"), base: 1, by: "bob", current: alices), "not-author"),
            ("other deletes", Self.decide(Self.request(.delete, "n"), base: 1, by: "bob", current: alices), "not-author"),
            ("other replies", Self.decide(Self.request(.add, "r", answers: "n"), by: "bob", parent: alices), "accepted"),
            ("reply to a missing one", Self.decide(Self.request(.add, "r", answers: "x"), by: "bob"), "unknown"),
            ("reply to a deleted one", Self.decide(Self.request(.add, "r", answers: "n"), by: "bob",
                                                   parent: Self.note("n", by: "alice", deleted: true)), "deleted"),
            ("read-only member", Self.decide(Self.request(.add, "m"), by: "carol", canWrite: false), "read-only"),
            ("stale base", Self.decide(Self.request(.modify, "n"), base: 0, by: "alice", current: Self.note("n", by: "alice", version: 3)), "stale"),
            ("no base", Self.decide(Self.request(.modify, "n"), by: "alice", current: alices), "needs-base"),
            ("modify a deleted one", Self.decide(Self.request(.modify, "n"), base: 2, by: "alice",
                                                 current: Self.note("n", by: "alice", version: 2, deleted: true)), "deleted"),
            ("add a deleted name", Self.decide(Self.request(.add, "n"), by: "alice", current: Self.note("n", by: "alice", deleted: true)), "deleted"),
            ("add an existing name", Self.decide(Self.request(.add, "n"), by: "bob", current: alices), "exists"),
            ("modify an unknown one", Self.decide(Self.request(.modify, "x"), base: 1, by: "alice"), "unknown"),
            ("reparent", Self.decide(Self.request(.modify, "n", answers: "other"), base: 1, by: "alice", current: alices), "reparented"),
            ("full document", Self.decide(Self.request(.add, "m"), by: "alice", live: 10), "document-full"),
        ]
        for (what, result, expected) in table {
            #expect(Self.code(result) == expected, "\(what)")
        }
    }

    @Test func refusalsCarryTheCurrentState() throws {
        let current = Self.note("n", by: "alice", version: 4)
        guard case .failure(let refusal) = Self.decide(Self.request(.modify, "n"), base: 1, by: "alice", current: current) else {
            Issue.record("a stale change was accepted")
            return
        }
        #expect(refusal.current == current)
        #expect(refusal.message.contains("version 4"))
    }

    @Test func aDeletionTakesEveryReplyAndStateBelowIt() throws {
        let note = Self.note("n", by: "alice")
        let below = [Self.note("r1", by: "bob", answers: "n"), Self.note("s1", by: "carol", answers: "n"),
                     Self.note("r2", by: "dave", answers: "r1"), Self.note("old", by: "bob", deleted: true, answers: "n")]
        let accepted = try Self.decide(Self.request(.delete, "n"), base: 1, by: "alice", current: note, descendants: below).get()
        #expect(accepted.changed.map(\.name) == ["n", "r1", "s1", "r2"])
        #expect(accepted.changed.allSatisfy { $0.deleted && $0.version == 2 })
        #expect(accepted.liveDelta == -4)
        let command = try XFDF.command(from: Array(accepted.xfdf.utf8), pages: [PageGeometry(mediaBox: PDFBox(x1: 0, y1: 0, x2: 612, y2: 792))])
        #expect(Set(command.delete.map(\.id.rawValue)) == ["n", "r1", "s1", "r2"])
    }

    @Test func theServerWritesTheAuthenticatedAuthor() throws {
        let xfdf = "<xfdf xmlns=\"http://ns.adobe.com/xfdf/\"><add><text name=\"n\" page=\"2\" rect=\"1,1,20,20\" title=\"Mallory\">"
            + "<contents>hi &amp; bye</contents></text></add></xfdf>"
        let request = try SharedChangeReader.read(xfdf, author: "alice")
        #expect(request.action == .add && request.name == "n" && request.pageIndex == 2)
        let element = try #require(request.element)
        #expect(element.contains("title=\"alice\"") && !element.contains("Mallory") && element.contains("hi &amp; bye"))
    }

    @Test func theServerRefusesWhatIsNotOneChange() {
        let wrap = { (body: String) in "<xfdf xmlns=\"http://ns.adobe.com/xfdf/\">\(body)</xfdf>" }
        let cases = [
            "two parts": wrap("<add><text name=\"a\" page=\"0\" rect=\"1,1,2,2\"/></add><delete><id page=\"0\">b</id></delete>"),
            "two annotations": wrap("<add><text name=\"a\" page=\"0\" rect=\"1,1,2,2\"/><text name=\"b\" page=\"0\" rect=\"1,1,2,2\"/></add>"),
            "no name": wrap("<add><text page=\"0\" rect=\"1,1,2,2\"/></add>"),
            "negative page": wrap("<add><text name=\"a\" page=\"-1\" rect=\"1,1,2,2\"/></add>"),
            "no rect": wrap("<add><text name=\"a\" page=\"0\"/></add>"),
            "unknown element": wrap("<add><script name=\"a\" page=\"0\" rect=\"1,1,2,2\"/></add>"),
            "entities": "<!DOCTYPE x [<!ENTITY a \"aaaa\">]>" + wrap("&a;"),
            "not XML": "<xfdf",
            "long name": wrap("<delete><id page=\"0\">\(String(repeating: "n", count: 300))</id></delete>"),
            "attributes": wrap("<add><text " + (0..<20_000).map { "a\($0)=\"1\"" }.joined(separator: " ") + "/></add>"),
        ]
        for (what, xfdf) in cases {
            #expect(throws: XFDFError.self, "\(what)") { try SharedChangeReader.read(xfdf, author: "alice") }
        }
    }

    @Test func framesReadBackAsWritten() throws {
        let event = CollabFrame.Event(seq: 3, op: "op-1", author: "alice", time: "2026-11-26T23:00:00.000Z", action: .delete,
                                      annotations: [CollabFrame.Entry(Self.note("n\u{1B}", by: "al\"ice", version: 2, deleted: true))],
                                      xfdf: "<xfdf/>")
        let frames: [CollabFrame.Server] = [
            .welcome(document: "d", user: "alice", access: "write", head: 3, snapshot: true),
            .snapshot(head: 3, xfdf: "<xfdf/>", annotations: event.annotations, last: false),
            .event(event), .events([event, event]), .ack(op: "op", seq: 1, name: "n", version: 1),
            .refused(op: "op", code: "stale", message: "m", current: event.annotations.first, currentXFDF: "<x/>"),
            .error(code: "malformed", message: "m"),
        ]
        for frame in frames { #expect(try CollabFrame.Server.decode(frame.json) == frame) }
        let client: [CollabFrame.Client] = [.hello(document: "abc", since: 4), .hello(document: "abc", since: nil),
                                            .hello(document: "abc", since: 2, batches: true),
                                            .change(operation: "op-1", base: 2, xfdf: "<xfdf/>")]
        for frame in client { #expect(try CollabFrame.Client.decode(frame.json) == client[client.firstIndex(of: frame)!]) }
    }

    @Test func malformedClientFramesAreNamed() {
        let cases: [(String, String)] = [
            ("{", "malformed"), ("[]", "malformed"), ("{\"type\":\"shout\"}", "unknown-type"),
            ("{\"type\":\"hello\"}", "malformed"), ("{\"type\":\"hello\",\"document\":\"../etc\"}", "malformed"),
            ("{\"type\":\"hello\",\"document\":\"d\",\"since\":-1}", "malformed"),
            ("{\"type\":\"change\",\"op\":\"o\"}", "malformed"), ("{\"type\":\"change\",\"xfdf\":\"x\"}", "malformed"),
            ("{\"type\":\"change\",\"op\":\"o\",\"xfdf\":\"x\",\"base\":\"one\"}", "malformed"),
        ]
        for (text, code) in cases {
            do {
                _ = try CollabFrame.Client.decode(text)
                Issue.record("\(text) was read")
            } catch {
                #expect(error.code == code, "\(text)")
            }
        }
    }

    /// A number the frame cannot hold is named as such, not as JSON that is not valid; broken JSON says where.
    @Test func aNumberOutOfRangeIsNamedAndBrokenJSONSaysWhere() {
        for number in ["1e400", "1.5", "99999999999999999999"] {
            do {
                _ = try CollabFrame.Client.decode("{\"type\":\"change\",\"op\":\"o\",\"xfdf\":\"x\",\"base\":\(number)}")
                Issue.record("base \(number) was read")
            } catch {
                #expect(error.code == "malformed" && error.message.contains("whole numbers from 0"), "\(number): \(error.message)")
            }
        }
        do {
            _ = try CollabFrame.Client.decode("{\"type\":\"hello\",\"since\": }")
            Issue.record("broken JSON was read")
        } catch {
            #expect(error.message.contains("character"), "\(error.message)")
        }
    }

    /// A change written by a client is what the server reads, and the event it makes turns a replica into the
    /// set `XFDFCommand.applied` makes: one vocabulary, one function.
    @Test func aChangeTravelsThroughTheServerRulesIntoAReplica() throws {
        let pages = XFDFTests.pages
        let annotations = XFDFTests.sample(onPage: 1).filter { XFDF.carries($0, pages: pages) }.filter { $0.inReplyTo == nil }
        var replica = SharedDocumentReplica(pages: pages)
        try replica.apply(.snapshot(head: 0, xfdf: SharedXFDF.annotations([]), annotations: [], last: true))
        var expected: [Annotation] = []
        var events: [CollabFrame.Event] = []
        for (index, annotation) in annotations.enumerated() {
            let change = AnnotationChange.writing(annotation, pages: pages, operationID: "op\(index)", author: "alice", baseVersion: nil)
            let request = try SharedChangeReader.read(change.xfdf, author: "alice")
            let accepted = try SharedChangeRules.decide(request, base: nil, author: "alice", canWrite: true,
                                                        facts: .init(current: nil, parent: nil, descendants: [], liveCount: index,
                                                                     mostAnnotations: 100)).get()
            events.append(CollabFrame.Event(seq: index + 1, op: change.operationID, author: "alice", time: "t",
                                            action: .add, annotations: accepted.changed.map(CollabFrame.Entry.init), xfdf: accepted.xfdf))
            try replica.apply(.event(events[index]))
            expected = try change.command(pages: pages).applied(to: expected)
        }
        func comparable(_ list: [Annotation]) -> [Annotation] { list.map { var a = $0; a.author = nil; a.order = 0; return a } }
        #expect(comparable(replica.annotations) == comparable(expected))
        // The same events in one `events` frame (what a client asking for batches gets), one of them seen before.
        var batched = SharedDocumentReplica(pages: pages)
        try batched.apply(.snapshot(head: 0, xfdf: SharedXFDF.annotations([]), annotations: [], last: true))
        try batched.apply(.event(events[0]))
        try batched.apply(.events(events))
        #expect(batched.annotations == replica.annotations && batched.head == replica.head && batched.entries == replica.entries)
        #expect(replica.annotations.allSatisfy { $0.author == "alice" })
        #expect(replica.head == annotations.count)
        // A deletion the server made removes the file's copy too, and nothing else.
        let gone = annotations[0]
        try replica.apply(.event(CollabFrame.Event(seq: replica.head + 1, op: "del", author: "alice", time: "t", action: .delete,
                                                   annotations: [.init(Self.note(gone.id.rawValue, by: "alice", version: 2, deleted: true))],
                                                   xfdf: SharedXFDF.deletion([Self.note(gone.id.rawValue, by: "alice")]))))
        let command = replica.command(toward: annotations)
        #expect(command.delete.map(\.id) == [gone.id])
        #expect(command.add.count == annotations.count - 1)
    }

    @Test func xfdfCommandsSplitIntoOneChangeEach() throws {
        let pages = XFDFTests.pages
        let sample = XFDFTests.sample(onPage: 0).filter { XFDF.carries($0, pages: pages) }
        let command = XFDFCommand(add: Array(sample.prefix(2)), modify: [sample[2]], delete: [.init(pageIndex: 0, id: sample[3].id)])
        let changes = command.changes(author: "alice", pages: pages, versions: [sample[2].id: 5, sample[3].id: 7]) { "op-\($0.rawValue)" }
        #expect(changes.map(\.action) == [.add, .add, .modify, .delete])
        #expect(changes.map(\.baseVersion) == [nil, nil, 5, 7])
        var merged = XFDFCommand()
        for change in changes {
            let part = try change.command(pages: pages)
            merged.add += part.add
            merged.modify += part.modify
            merged.delete += part.delete
        }
        // XFDF cannot hold the ESC in the sample's author: both sides compared as XFDF writes them.
        #expect(XFDF.document(merged.applied(to: sample), pages: pages) == XFDF.document(command.applied(to: sample), pages: pages))
    }
}
