import Foundation
import PropertyBased
import RedlineCore
import Testing
import TestSupport

/// Edits drawn from small pools of ids, so two random edits share some markup, annotations and bookmarks
/// and differ in others: every kind of change (insert, remove, replace, contents, deletion, bookmark) occurs.
enum RandomEdits {
    static let date = PDFDate(year: 2026, month: 11, day: 23, hour: 9, minute: 0, offsetMinutes: 0)

    static func make(seed: Int) -> DocumentEdits {
        var random = SplitMix64(seed: UInt64(bitPattern: Int64(seed)))
        var markup = MarkupLayer()
        for number in (1...8).shuffled(using: &random) where random.chance() {
            let point = Point(x: Double(random.int(0...600)), y: Double(random.int(0...700)))
            let content: MarkupContent = random.chance()
                ? .text(TextMarkup(origin: point, text: "t\(random.int(0...3))", fontSize: 14, color: .red))
                : .ink(InkMarkup(strokes: [[point, Point(x: point.x + 5, y: point.y)]], width: Double(random.int(1...4))))
            markup.add(MarkupItem(id: .numbered(number), pageIndex: random.int(0...2), content: content))
        }
        var annotations = AnnotationEdits()
        let parent = Annotation(id: "file-1", pageIndex: 0, subtype: .text, rect: Rect(x: 1, y: 1, width: 9, height: 9),
                                author: "Bob", contents: "Look", flags: 4)
        for number in 1...5 where random.chance() {
            annotations.reply(to: parent, text: "reply \(random.int(0...2))", author: "Alice", at: date, id: AnnotationID("new-\(number)"))
        }
        for number in 1...4 where random.chance() {
            annotations.changeContents(of: AnnotationID("file-\(number)"), to: "text \(random.int(0...2))", at: date)
        }
        for number in 5...8 where random.chance() {
            annotations.delete(AnnotationID("file-\(number)"), in: [])
        }
        var bookmarks: BookmarkList?
        if random.chance() {
            var list = BookmarkList()
            for number in 1...5 where random.chance() {
                list.put(Bookmark(id: "B\(number)", pageIndex: random.int(0...2), name: random.chance() ? "n\(number)" : nil, sortKey: 0))
            }
            if list.bookmarks.count > 1, random.chance() { list.move(list.bookmarks[0].id, by: 1) }
            // As the editor keeps them: bookmarks equal to the providers' (here none) are "unchanged", nil.
            bookmarks = list.isEmpty ? nil : list
        }
        return DocumentEdits(markup: markup, annotations: annotations, bookmarks: bookmarks)
    }

    static func operation(from a: DocumentEdits, to b: DocumentEdits, base: BookmarkList = BookmarkList()) -> DocumentOperation {
        .between(a, b, bookmarkBase: base, author: "Alice")
    }
}


@Suite struct DocumentOperationTests {
    static let seeds = Gen.int(in: 0...1_000_000)

    @Test func applyingTheChangesBetweenTwoEditsGivesTheSecond() async {
        await propertyCheck(input: Self.seeds, Self.seeds) { first, second in
            let a = RandomEdits.make(seed: first), b = RandomEdits.make(seed: second)
            var applied = a
            applied.apply(RandomEdits.operation(from: a, to: b), bookmarkBase: BookmarkList())
            #expect(applied == b)
        }
    }

    @Test func applyingThenInvertingIsTheIdentity() async {
        await propertyCheck(input: Self.seeds, Self.seeds) { first, second in
            let a = RandomEdits.make(seed: first), b = RandomEdits.make(seed: second)
            let operation = RandomEdits.operation(from: a, to: b)
            var edits = a
            edits.apply(operation, bookmarkBase: BookmarkList())
            #expect(edits.fits(operation.inverse(id: UUID(), author: "Alice", time: RandomEdits.date), bookmarkBase: BookmarkList()))
            edits.apply(operation.inverse(id: UUID(), author: "Alice", time: RandomEdits.date), bookmarkBase: BookmarkList())
            #expect(edits == a)
        }
    }

    /// Bookmarks equal to what the document's providers hold are "unchanged" again after an operation.
    @Test func bookmarksChangedBackCountAsUnchanged() async {
        await propertyCheck(input: Self.seeds) { seed in
            let base = RandomEdits.make(seed: seed).bookmarks ?? BookmarkList([Bookmark(id: "B1", pageIndex: 0, sortKey: 0)])
            var edited = DocumentEdits()
            var list = base
            list.toggle(page: 2, newID: "NEW")
            let there = DocumentEdits(bookmarks: list)
            let operation = RandomEdits.operation(from: edited, to: there, base: base)
            edited.apply(operation, bookmarkBase: base)
            #expect(edited.bookmarks == list)
            edited.apply(operation.inverse(id: UUID(), author: "Alice", time: RandomEdits.date), bookmarkBase: base)
            #expect(edited.bookmarks == nil)
        }
    }

    @Test func operationsSurviveJSONAsTheyWere() async throws {
        await propertyCheck(input: Self.seeds, Self.seeds) { first, second in
            let operation = RandomEdits.operation(from: RandomEdits.make(seed: first), to: RandomEdits.make(seed: second))
            let data = try JSONEncoder().encode(operation)
            #expect(try JSONDecoder().decode(DocumentOperation.self, from: data) == operation)
        }
    }

    /// Undo checks that what it undoes is still as the operation left it: it must not overwrite a later change.
    @Test func anOperationNoLongerFitsOnceSomeoneChangedWhatItChanged() {
        var edits = DocumentEdits()
        let item = MarkupItem(id: .numbered(1), pageIndex: 0, content: .text(TextMarkup(origin: .zero, text: "a")))
        var next = edits
        next.markup.add(item)
        let operation = RandomEdits.operation(from: edits, to: next)
        edits.apply(operation, bookmarkBase: BookmarkList())
        edits.apply(.replaceMarkup(before: item, after: item.translated(dx: 5, dy: 0)), bookmarkBase: BookmarkList())
        #expect(!edits.fits(operation.inverse(id: UUID(), author: "Alice", time: RandomEdits.date), bookmarkBase: BookmarkList()))
    }

    @Test func derivedUUIDsAreWellFormedDistinctAndRepeatable() {
        let ids = (0..<2000).map { StableUUID.derived(seed: 5, item: "id \($0)") }
        #expect(Set(ids).count == 2000)
        #expect(ids == (0..<2000).map { StableUUID.derived(seed: 5, item: "id \($0)") })
        for id in ids {
            let text = id.uuidString
            #expect(Array(text)[14] == "8" && "89AB".contains(Array(text)[19]), "\(text)")
        }
    }
}
