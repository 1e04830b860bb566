import Foundation
import RedlineCore
import Testing

@Suite struct ThreadEditingTests {
    let noon = PDFDate(year: 2026, month: 11, day: 22, hour: 12, offsetMinutes: 60)

    func stamp(_ id: AnnotationID) -> ThreadEditing.Stamp { ThreadEditing.Stamp(date: noon, id: id) }

    func sample() -> [Annotation] {
        var file = AnnotationFixture()
        file.add("root", .highlight, at: 0, contents: "Typo here")
        file.add("bob-reply", author: "Bob", at: 1, contents: "Agreed", replyingTo: "root")
        file.add("link", "Link")
        file.add("locked", .square, flags: 4 | 64)
        return file.annotations
    }

    @Test func aReplyAnswersItsParentOnItsPageWithTheAuthorAndStamp() throws {
        var edits = AnnotationEdits()
        let editing = ThreadEditing(author: "Alice", path: "a.pdf")
        let reply = try editing.reply(to: "root", text: "  Fixed in v2 ", current: sample(), edits: &edits, stamp: stamp("new"))
        #expect(reply.id == "new")
        #expect(reply.inReplyTo == "root")
        #expect(reply.replyType == .reply)
        #expect(reply.subtype == .text)
        #expect(reply.author == "Alice")
        #expect(reply.contents == "Fixed in v2")
        #expect(reply.created == noon && reply.modified == noon)
        #expect(reply.state == nil)
        let thread = try #require(AnnotationThreads.build(edits.applied(to: sample())).first)
        #expect(thread.replies.map(\.id) == ["bob-reply", "new"])
    }

    @Test func aSecondStateByTheSameAuthorChainsToTheFirst() throws {
        var edits = AnnotationEdits()
        let alice = ThreadEditing(author: "Alice", path: "a.pdf")
        let first = try alice.setState(.accepted, on: "root", current: sample(), edits: &edits, stamp: stamp("s1"))
        #expect(first.inReplyTo == "root")
        #expect(first.contents == "Accepted set by Alice")
        #expect(first.flags & Annotation.noViewFlag != 0)
        let second = try alice.setState(.rejected, on: "root", current: edits.applied(to: sample()), edits: &edits,
                                        stamp: stamp("s2"))
        #expect(second.inReplyTo == "s1")
        let bob = try ThreadEditing(author: "Bob", path: "a.pdf")
            .setState(.completed, on: "root", current: edits.applied(to: sample()), edits: &edits, stamp: stamp("s3"))
        #expect(bob.inReplyTo == "root")
        let thread = try #require(AnnotationThreads.build(edits.applied(to: sample())).first)
        #expect(thread.stateSummary(of: "root") == "Completed — Bob")
    }

    @Test func markedTogglesPerAuthor() throws {
        var edits = AnnotationEdits()
        let alice = ThreadEditing(author: "Alice", path: "a.pdf")
        let on = try alice.toggleMarked("root", current: sample(), edits: &edits, stamp: stamp("m1"))
        let off = try alice.toggleMarked("root", current: edits.applied(to: sample()), edits: &edits, stamp: stamp("m2"))
        #expect(on.state == .marked)
        #expect(off.state == .unmarked)
        #expect(off.inReplyTo == "m1")
    }

    @Test func onlyTheAuthorEditsOrDeletesAReply() throws {
        var edits = AnnotationEdits()
        let alice = ThreadEditing(author: "Alice", path: "a.pdf")
        #expect(throws: AnnotationEditError.notTheAuthor("bob-reply", author: "Bob")) {
            try alice.editReply("bob-reply", text: "Mine now", current: sample(), edits: &edits, date: noon)
        }
        #expect(throws: AnnotationEditError.notTheAuthor("bob-reply", author: "Bob")) {
            try alice.delete("bob-reply", current: sample(), edits: &edits)
        }
        let bob = ThreadEditing(author: "Bob", path: "a.pdf")
        try bob.editReply("bob-reply", text: "Agreed, thanks", current: sample(), edits: &edits, date: noon)
        #expect(edits.applied(to: sample()).first { $0.id == "bob-reply" }?.contents == "Agreed, thanks")
        #expect(edits.applied(to: sample()).first { $0.id == "bob-reply" }?.modified == noon)
    }

    @Test func deletingAnAnnotationDeletesEverythingThatAnswersIt() throws {
        var edits = AnnotationEdits()
        let alice = ThreadEditing(author: "Alice", path: "a.pdf")
        try alice.reply(to: "bob-reply", text: "Nested", current: sample(), edits: &edits, stamp: stamp("nested"))
        try alice.setState(.accepted, on: "root", current: edits.applied(to: sample()), edits: &edits, stamp: stamp("state"))
        let gone = try alice.delete("root", current: edits.applied(to: sample()), edits: &edits)
        #expect(gone == ["root", "bob-reply", "nested", "state"])
        // What was only added is simply dropped; what the file holds is marked for deletion.
        #expect(edits.added.isEmpty)
        #expect(edits.deleted == ["root", "bob-reply"])
        #expect(edits.applied(to: sample()).map(\.id) == ["link", "locked"])
    }

    @Test func refusalsSayWhy() throws {
        var edits = AnnotationEdits()
        let alice = ThreadEditing(author: "Alice", path: "a.pdf")
        #expect(throws: AnnotationEditError.unknownAnnotation("nope", path: "a.pdf")) {
            try alice.reply(to: "nope", text: "Hi", current: sample(), edits: &edits, stamp: stamp("x"))
        }
        #expect(throws: AnnotationEditError.notAComment("link", subtype: "Link")) {
            try alice.reply(to: "link", text: "Hi", current: sample(), edits: &edits, stamp: stamp("x"))
        }
        #expect(throws: AnnotationEditError.readOnly("locked")) {
            try alice.setState(.accepted, on: "locked", current: sample(), edits: &edits, stamp: stamp("x"))
        }
        #expect(throws: AnnotationEditError.emptyText) {
            try alice.reply(to: "root", text: "   ", current: sample(), edits: &edits, stamp: stamp("x"))
        }
        #expect(throws: AnnotationEditError.notPermitted(path: "a.pdf")) {
            try ThreadEditing(author: "Alice", path: "a.pdf", allowsChanges: false)
                .reply(to: "root", text: "Hi", current: sample(), edits: &edits, stamp: stamp("x"))
        }
        #expect(edits.isEmpty)
    }

    @Test func theJSONFormHasExactlyTheDocumentedKeysAndRoundTrips() throws {
        var edits = AnnotationEdits()
        let alice = ThreadEditing(author: "Alice", path: "a.pdf")
        try alice.setState(.accepted, on: "root", current: sample(), edits: &edits, stamp: stamp("s1"))
        let data = try JSONEncoder().encode(edits.added)
        let objects = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let object = try #require(objects.first)
        #expect(Set(object.keys) == ["id", "page", "type", "rect", "author", "created", "modified", "contents",
                                     "inReplyTo", "replyType", "stateModel", "state"])
        #expect(object["page"] as? Int == 1)
        #expect(object["type"] as? String == "Text")
        #expect(object["stateModel"] as? String == "review")
        #expect(object["state"] as? String == "accepted")
        #expect(object["created"] as? String == "2026-11-22T12:00:00+01:00")
        #expect(object["rect"] as? [Double] == [10, 20, 40, 60])
        let root = try JSONSerialization.jsonObject(with: JSONEncoder().encode(sample()[0])) as? [String: Any]
        #expect(root?["inReplyTo"] is NSNull)
        #expect(root?["state"] is NSNull)
        let decoded = try JSONDecoder().decode(AnnotationEdits.self, from: JSONEncoder().encode(edits))
        #expect(decoded == edits)
    }

    /// An annotation added here (a copy kept in a conflict) moves and takes a new look as one of the file does: the
    /// list, its replies and a writer (through `foldingAdditions`) all see it where and as it now is, and deleting
    /// it leaves no move or look behind.
    @Test func anAddedAnnotationMovesAndTakesANewLookLikeOneOfTheFile() throws {
        var file = AnnotationFixture()
        file.add("root", .highlight, at: 0)
        let kept = Annotation(id: "kept", pageIndex: 0, subtype: .square, rect: Rect(x: 100, y: 100, width: 50, height: 20),
                              author: "Alice", contents: "Mine", flags: 4, drawing: AnnotationDrawing(color: RGBColor(red: 255, green: 0, blue: 0)))
        var edits = AnnotationEdits()
        edits.add(kept)
        let editing = ThreadEditing(author: "Alice", path: "a.pdf")
        try editing.reply(to: "kept", text: "Why", current: edits.applied(to: file.annotations), edits: &edits, stamp: stamp("why"))
        try editing.move("kept", dx: 5, dy: -7, at: noon, current: edits.applied(to: file.annotations), edits: &edits)
        let blue = RGBColor(red: 0, green: 0, blue: 255)
        try editing.restyle("kept", color: blue, fontSize: nil, original: kept, at: noon,
                            current: edits.applied(to: file.annotations), edits: &edits)
        #expect(edits.refersOnly(to: ["root"], pageCount: 1))
        let listed = edits.applied(to: file.annotations)
        let moved = try #require(listed.first { $0.id == "kept" })
        #expect(moved.rect == Rect(x: 105, y: 93, width: 50, height: 20))
        #expect(moved.drawing.color == blue && moved.modified == noon)
        #expect(listed.first { $0.id == "why" }?.rect == moved.rect, "its reply goes along")
        let folded = edits.foldingAdditions()
        #expect(folded.moved.isEmpty && folded.restyled.isEmpty)
        #expect(folded.applied(to: file.annotations) == listed)
        try editing.delete("kept", current: listed, edits: &edits)
        #expect(edits.isEmpty)
    }
}
