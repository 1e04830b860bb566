import TestSupport
import Foundation
import RedlineCore
import Testing

/// Widths proportional to the number of characters; enough to check placement rules.
struct FixedMeasurer: TextMeasuring {
    func metrics(of text: String, fontSize: Double) -> TextMetrics {
        TextMetrics(width: Double(text.count) * fontSize * 0.5, ascent: fontSize * 0.8, descent: fontSize * 0.2)
    }
}

@Suite struct MarkupFileTests {
    @Test func readsTheDocumentedExample() throws {
        let json = #"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 72, "y": 100, "text": "Approved", "size": 14, "color": "red"}]}"#
        let layer = try MarkupFile.decode(Data(json.utf8))
        #expect(layer.items.count == 1)
        let item = try #require(layer.items.first)
        #expect(item.pageIndex == 0)
        #expect(item.content == .text(TextMarkup(origin: Point(x: 72, y: 100), text: "Approved", fontSize: 14, color: .red)))
    }

    @Test func sizeAndColourHaveDefaultsAndColoursTakeHex() throws {
        let json = ##"{"version": 1, "items": [{"page": 2, "kind": "text", "x": 1.5, "y": 2, "text": "é", "color": "#12AB9f"}]}"##
        let item = try #require(try MarkupFile.decode(Data(json.utf8)).items.first)
        guard case .text(let text) = item.content else { Issue.record("not text"); return }
        #expect(text.fontSize == 14)
        #expect(text.color == .custom(RGBColor(red: 0x12, green: 0xAB, blue: 0x9F)))
    }

    @Test(arguments: [
        (#"{"version": 1, "items": [{"page": 1, "kind": "text", "y": 1, "text": "a"}]}"#, #"item 1: field "x": is missing"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 1, "y": 1, "text": "a"}, {"page": 0, "kind": "text", "x": 1, "y": 1, "text": "a"}]}"#,
         #"item 2: field "page": pages count from 1, got 0"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "text", "x": "72", "y": 1, "text": "a"}]}"#, #"item 1: field "x": must be a number"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 1, "y": 1, "text": "a", "size": true}]}"#, #"item 1: field "size": must be a number"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 1, "y": 1, "text": "a", "color": "teal"}]}"#,
         #"item 1: field "color": "teal" is not blue, black, red, purple, yellow, green, pink or #RRGGBB"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "sticker", "x": 1, "y": 1}]}"#, #"item 1: field "kind": unknown kind "sticker" (expected "text", "ink", "highlight", "underline", "strike-out", "squiggly", "rectangle", "ellipse", "line", "arrow", "polygon", "polyline", "stamp" or "note")"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "note", "points": [[10, 10], [60, 60]]}]}"#,
         #"item 1: field "points": a note's icon is a square of 12 to 40 points, got 50 × 50"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "note", "points": [[10, 10], [30, 20]]}]}"#,
         #"item 1: field "points": a note's icon is a square of 12 to 40 points, got 20 × 10"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "note", "points": [[1, 1], [2, 2], [3, 3]]}]}"#,
         #"item 1: field "points": must be one corner [x, y] or two opposite corners of a square, got 3"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "note", "points": [[1, 1]], "width": 2}]}"#,
         #"item 1: field "width": is not a field of a note item (known: id, page, kind, points, color, comment)"#),
        (#"{"version": 1, "items": [{"page": 1.5, "kind": "text", "x": 1, "y": 1, "text": "a"}]}"#, #"item 1: field "page": must be a whole number"#),
        (#"{"version": 1, "items": [{"page": 1e23, "kind": "text", "x": 1, "y": 1, "text": "a"}]}"#, #"item 1: field "page": 1e+23 is too large"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 1, "y": 1, "text": "a", "size": 1e-320}]}"#,
         #"item 1: field "size": must be at least 1 and at most 1000 points, got 9.99989e-321"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "ink", "strokes": [[[1, 1]]], "width": 5e-324}]}"#,
         #"item 1: field "width": must be at least 0.01 and at most 200 points, got 4.94066e-324"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 1, "y": 1, "text": "a"},]}"#,
         #"not valid JSON: a comma before "]" at line 1, column 82 (JSON allows none after the last entry)"#),
        ("{\"version\": 1, \"items\": [\n  {\"page\": 1, \"kind\": \"text\", \"x\": 1, \"y\": 1, \"text\": \"a,]\",\n  }\n]}",
         #"not valid JSON: a comma before "}" at line 2, column 60 (JSON allows none after the last entry)"#),
        (#"{"version": 1, "items": [],}"#, #"not valid JSON: a comma before "}" at line 1, column 27 (JSON allows none after the last entry)"#),
        (#"{"version": 2, "items": []}"#, "version 2 is not supported (this Redline reads version 1)"),
        (#"{"items": []}"#, #"field "version" is missing or not a whole number"#),
        (#"[1, 2]"#, "the top level must be a JSON object"),
        (#"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 1, "y": 1, "text": "a"}, 7]}"#, "item 2: not a JSON object"),
        (#"{"version": 1, "items": {}}"#, #"field "items" is missing or not an array"#),
        (#"{"version": 1, "items": [], "colour": "red"}"#, #"unknown field "colour" (known: version, document, items, annotations, bookmarks)"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 1, "y": 1, "text": "a", "colour": "red"}]}"#,
         #"item 1: field "colour": is not a field of a text item (known: id, page, kind, x, y, text, size, color, callout)"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 1, "y": 1, "text": "B\u0000C"}]}"#,
         #"item 1: field "text": contains the control character U+0000"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 1, "y": 1, "text": "B\u001b[2JC"}]}"#,
         #"item 1: field "text": contains the control character U+001B"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 1, "y": null, "text": "a"}]}"#, #"item 1: field "y": is missing"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": 3, "x": 1, "y": 1}]}"#, #"item 1: field "kind": must be a string"#),
        (#"{"version": 1, "items": [], "annotations": {"added": [{"id": "a", "page": 1, "type": "Text"}]}}"#,
         #"field "annotations": added.[0].rect is missing"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 1, "y": 1, "text": "a"}, {"page": 1, "kind": "text", "x": 1, "y": 1, "text": "Approved", "text": "Rejected"}]}"#,
         #"item 2: field "text" is given twice"#),
        (#"{"version": 1, "version": 1, "items": []}"#, #"the top level: field "version" is given twice"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "ink", "strokes": [[[1, 1], [2, 2]]], "color": "red", "color": "blue"}]}"#,
         #"item 1: field "color" is given twice"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 1e400, "y": 1, "text": "a"}]}"#,
         #"item 1: field "x": is too large to be a number of points"#),
        ("{\"version\": 1, \"items\": [{\"page\": 1, \"kind\": \"text\", \"x\": 1, \"y\": 1, \"text\": \"B\u{1B}C\"}]}",
         #"not valid JSON: the control character U+001B inside the string begun at line 1, column 78 (line 1, column 80): JSON takes none as typed in a string (it writes them \n, \t, \r, \u00XX; a text item's words are one line and take none)"#),
        // A line break typed into a string: named where it is, not by the item the decoder was reading.
        ("{\"version\": 1, \"items\": [\n  {\"page\": 1, \"kind\": \"text\", \"x\": 1, \"y\": 1,\n   \"text\": \"Approved\nby QA\"}]}",
         #"not valid JSON: a line break inside the string begun at line 3, column 12 (line 3, column 21): JSON takes none as typed in a string (it writes them \n, \t, \r, \u00XX; a text item's words are one line and take none)"#),
        ("{\"version\": 1, \"items\": [{\"page\": 1, \"kind\": \"text\", \"x\": 1, \"y\": 1, \"text\": \"a\tb\"}]}",
         #"not valid JSON: a tab inside the string begun at line 1, column 78 (line 1, column 80): JSON takes none as typed in a string (it writes them \n, \t, \r, \u00XX; a text item's words are one line and take none)"#),
        // An escape JSON does not have, named where it is (it was "a control character" with no place).
        (#"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 1, "y": 1, "text": "a\qb"}]}"#,
         #"not valid JSON: the escape \q inside the string begun at line 1, column 78 (line 1, column 80) is not JSON's: JSON knows \", \\, \/, \b, \f, \n, \r, \t and \u with four hexadecimal digits"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 1, "y": 1, "text": "\u12"}]}"#,
         #"not valid JSON: the escape \u12 inside the string begun at line 1, column 78 (line 1, column 79) is not JSON's: JSON knows \", \\, \/, \b, \f, \n, \r, \t and \u with four hexadecimal digits"#),
        // Columns are characters, as an editor counts them, and a byte-order mark is none.
        ("\u{FEFF}{\"version\": 1, \"items\": [{\"page\": 1, \"kind\": \"text\", \"x\": 1, \"y\": 1, \"text\": \"Grüße\tb\"}]}",
         #"not valid JSON: a tab inside the string begun at line 1, column 78 (line 1, column 84): JSON takes none as typed in a string (it writes them \n, \t, \r, \u00XX; a text item's words are one line and take none)"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 1, "y": 1, "text": "\ud800"}]}"#,
         #"item 1: field "text": is not a valid JSON string: a control character (a line break, a tab, an escape) must be written as \n, \t or \u001b, and a \u escape must name a whole character (a surrogate comes in pairs)"#),
        ("{\"version\": 1,\n \"items\": [{\"page\": 1 \"kind\": \"text\"}]}", "not valid JSON: Invalid value around line 2, column 23."),
        // Where Foundation's reader says "Invalid value" or "Unexpected end of file" and no more.
        ("null", "the top level must be a JSON object"),
        (#"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 1, "y": 1, "text": null}]}"#, #"item 1: field "text": must be a string"#),
        ("", #"not valid JSON: the file is empty: a markup file is one JSON object, {"version": 1, "items": […]}"#),
        (" \n\t ", #"not valid JSON: the file is empty: a markup file is one JSON object, {"version": 1, "items": […]}"#),
        (#"{"version": 1, "items": []}"# + "\n" + #"{"version": 1, "items": []}"#,
         "not valid JSON: more follows the JSON object that ends at line 1, column 27 (line 2, column 1): a markup file holds one object"),
        ("// reviewed\n" + #"{"version": 1, "items": []}"#, #"not valid JSON: JSON has no comments: "//" at line 1, column 1"#),
        (#"{"version": 1 /* first */, "items": []}"#, #"not valid JSON: JSON has no comments: "/*" at line 1, column 15"#),
        (#"{"version": 1, "items": [{"page": 1, "kind": "a // b /* c */ } ]"}]}"#,
         #"item 1: field "kind": unknown kind "a // b /* c */ } ]" (expected "text", "ink", "highlight", "underline", "strike-out", "squiggly", "rectangle", "ellipse", "line", "arrow", "polygon", "polyline", "stamp" or "note")"#),
        ("{\"version\": 1,\n \"items\": [{\"page\": 1", "not valid JSON: the file ends before the { at line 2, column 12 is closed"),
        (#"{"version": 1, "items": [{"page": 1, "text": "unfinished"#, "not valid JSON: the file ends inside the string begun at line 1, column 46"),
    ])
    func refusesBadFilesNamingItemAndField(json: String, message: String) {
        #expect(throws: MarkupFileError(message)) { try MarkupFile.decode(Data(json.utf8)) }
    }

    /// Latin-1 text (an old editor's) is not JSON: said as such, with the line, not as a field of the wrong kind.
    /// Annotation changes written by hand give only the kinds they make: a file that only deletes has no `added`.
    @Test func annotationChangesNeedOnlyTheKindsTheyMake() throws {
        let edits = try MarkupFile.decodeEdits(Data(#"{"version": 1, "items": [], "annotations": {"deleted": ["n1"]}}"#.utf8))
        #expect(edits.annotations.deleted == ["n1"] && edits.annotations.added.isEmpty && edits.annotations.changedContents.isEmpty)
        let added = try MarkupFile.decodeEdits(Data(#"{"version": 1, "items": [], "annotations": {"changedContents": {"n2": {"contents": "New", "modified": "2026-11-22T13:00:00+01:00"}}}}"#.utf8))
        #expect(added.annotations.changedContents["n2"]?.contents == "New" && added.annotations.deleted.isEmpty)
    }

    @Test func bytesThatAreNotUTF8AreSaidToBe() {
        var data = Data(#"{"version": 1, "items": [{"page": 1,"#.utf8) + Data("\n".utf8)
        data += Data(#""kind": "text", "x": 1, "y": 1, "text": "caf"#.utf8) + Data([0xE9]) + Data(#""}]}"#.utf8)
        #expect(throws: MarkupFileError("not UTF-8 text: line 2 holds the byte 0xE9, which UTF-8 does not allow there (save the file as UTF-8)")) {
            try MarkupFile.decode(data)
        }
    }

    @Test func refusesTextWiderThanItsPage() {
        var layer = MarkupLayer()
        layer.add(pageIndex: 0, content: .text(TextMarkup(origin: Point(x: 0, y: 10), text: String(repeating: "w", count: 40), fontSize: 10)))
        #expect(throws: MarkupFileError(#"item 1: field "text": 200 pt wide at this size, wider than its page (100 pt): shorten it or make it smaller"#)) {
            try MarkupFile.validate(layer, pageSizes: [Size(width: 100, height: 100)], measuredBy: FixedMeasurer())
        }
    }

    @Test func refusesItemsOffTheirPageOrOnMissingPages() {
        var layer = MarkupLayer()
        layer.add(pageIndex: 0, content: .text(TextMarkup(origin: Point(x: 10, y: 10), text: "ok")))
        layer.add(pageIndex: 3, content: .text(TextMarkup(origin: Point(x: 10, y: 10), text: "no")))
        #expect(throws: MarkupFileError(#"item 2: field "page": page 4 does not exist (the document has 2)"#)) {
            try MarkupFile.validate(layer, pageSizes: [Size(width: 100, height: 100), Size(width: 100, height: 100)],
                                    measuredBy: FixedMeasurer())
        }
        var offPage = MarkupLayer()
        offPage.add(pageIndex: 0, content: .text(TextMarkup(origin: Point(x: 150, y: 10), text: "x")))
        #expect(throws: MarkupFileError(#"item 1: field "x": 150 is off the page (0 to 100)"#)) {
            try MarkupFile.validate(offPage, pageSizes: [Size(width: 100, height: 100)], measuredBy: FixedMeasurer())
        }
    }

    /// The editor keeps text wholly on its page; a markup file is held to the same rule: text that starts on the page
    /// but runs past its right or bottom edge is refused, saying where it may go.
    @Test func refusesTextRunningPastThePagesEdge() {
        var right = MarkupLayer()
        right.add(pageIndex: 0, content: .text(TextMarkup(origin: Point(x: 80, y: 10), text: "wide", fontSize: 10)))
        #expect(throws: MarkupFileError(#"item 1: field "x": the text runs past the page's right edge (to 100 of 99 pt): move it left to at most 79"#)) {
            try MarkupFile.validate(right, pageSizes: [Size(width: 99, height: 100)], measuredBy: FixedMeasurer())
        }
        var bottom = MarkupLayer()
        bottom.add(pageIndex: 0, content: .text(TextMarkup(origin: Point(x: 10, y: 95), text: "low", fontSize: 10)))
        #expect(throws: MarkupFileError(#"item 1: field "y": the text runs past the page's bottom edge (to 105 of 100 pt): move it up to at most 90"#)) {
            try MarkupFile.validate(bottom, pageSizes: [Size(width: 100, height: 100)], measuredBy: FixedMeasurer())
        }
        var fits = MarkupLayer()
        fits.add(pageIndex: 0, content: .text(TextMarkup(origin: Point(x: 80, y: 90), text: "edge", fontSize: 10)))
        #expect(throws: Never.self) { try MarkupFile.validate(fits, pageSizes: [Size(width: 100, height: 100)], measuredBy: FixedMeasurer()) }
    }

    @Test func encodingThenDecodingGivesTheSameMarkup() throws {
        var layer = MarkupLayer()
        layer.add(pageIndex: 0, content: .text(TextMarkup(origin: Point(x: 72.25, y: 100), text: "Überprüft ✓", fontSize: 18, color: .purple)))
        layer.add(pageIndex: 4, content: .text(TextMarkup(origin: Point(x: 1, y: 2), text: "b", color: .custom(RGBColor(hex: "#010203")!))))
        let decoded = try MarkupFile.decode(MarkupFile.encode(layer, document: "/tmp/x.pdf"))
        #expect(decoded.items.map(\.content) == layer.items.map(\.content))
        #expect(decoded.items.map(\.pageIndex) == [0, 4])
    }
}

@Suite struct MarkupTests {
    @Test func keptInsideMovesAsLittleAsNeeded() {
        let item = MarkupItem(id: MarkupID.numbered(1), pageIndex: 0,
                              content: .text(TextMarkup(origin: Point(x: 95, y: -3), text: "abcd", fontSize: 10)))
        let kept = item.keptInside(pageSize: Size(width: 100, height: 100), measuredBy: FixedMeasurer())
        // Moved only as far as puts it, with the point of its annotation's box around it, on the page.
        #expect(kept.bounds(measuredBy: FixedMeasurer()).origin == Point(x: 79, y: 1))
    }

    /// A stroke along the page's edge reaches half its width past it; its annotation's box stops at the page.
    @Test func anInkAlongTheEdgeHasItsAnnotationBoxOnThePage() {
        let item = MarkupItem(id: MarkupID.numbered(1), pageIndex: 0,
                              content: .ink(InkMarkup(strokes: [[Point(x: 0, y: 792), Point(x: 20, y: 780)]], width: 2)))
        let page = Size(width: 612, height: 792)
        let date = PDFDate(year: 2026, month: 11, day: 22, hour: 10, minute: 0, offsetMinutes: 0)
        let box = MarkupAnnotations.annotation(for: item, author: "a", at: date, onPage: page, measuredBy: FixedMeasurer()).rect
        #expect(box.minX == 0 && box.maxY == 792 && box.maxX > 20 && box.minY < 780, "\(box)")
        #expect(MarkupAnnotations.annotation(for: item, author: "a", at: date, measuredBy: FixedMeasurer()).rect.minX < 0)
    }

    @Test func colourCycleIsBlueBlackRedPurple() {
        #expect([MarkupColor.blue.next, .black.next, .red.next, .purple.next] == [.black, .red, .purple, .blue])
    }
}
