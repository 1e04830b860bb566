import Foundation
import RedlineCore
import Testing

/// XFDF read and written by the core: every subtype's attributes survive the trip on every page rotation, commands
/// turn one set into another, and malformed or hostile files are one-line errors naming the line.
@Suite struct XFDFTests {
    /// Four pages: upright, and turned 90, 180 and 270 degrees, with crop boxes off the origin.
    static let pages = [PageRotation.none, .quarter, .half, .threeQuarters].map { rotation in
        PageGeometry(mediaBox: PDFBox(x1: -10, y1: -20, x2: 642, y2: 832), cropBox: PDFBox(x1: 10, y1: 20, x2: 582, y2: 752), rotation: rotation)
    }
    static let date = PDFDate(year: 2026, month: 11, day: 24, hour: 9, minute: 30, second: 5, offsetMinutes: 60)

    static func sample(onPage page: Int) -> [Annotation] {
        let red = RGBColor(red: 255, green: 0, blue: 0), blue = RGBColor(red: 0, green: 0, blue: 255)
        func make(_ id: String, _ subtype: String, _ rect: Rect, _ drawing: AnnotationDrawing = .none, contents: String? = nil,
                  inReplyTo: String? = nil, state: AnnotationState? = nil, flags: Int = Annotation.printFlag) -> Annotation {
            Annotation(id: AnnotationID("\(id)-\(page)"), pageIndex: page, subtype: AnnotationSubtype(rawValue: subtype), rect: rect,
                       author: "Alice \u{1B}[31m", created: date, modified: date, contents: contents,
                       inReplyTo: inReplyTo.map { AnnotationID("\($0)-\(page)") }, state: state, flags: flags, drawing: drawing)
        }
        return [
            make("note", "Text", Rect(x: 40, y: 40, width: 20, height: 20), AnnotationDrawing(color: RGBColor(red: 255, green: 209, blue: 0), icon: "Comment"),
                 contents: "Fix this <now> & \"then\"\nsecond line"),
            make("reply", "Text", Rect(x: 40, y: 40, width: 20, height: 20), contents: "Agreed", inReplyTo: "note"),
            make("state", "Text", Rect(x: 40, y: 40, width: 20, height: 20), contents: "Accepted set by Alice", inReplyTo: "note",
                 state: .accepted, flags: 4 | 32),
            make("box", "FreeText", Rect(x: 71, y: 99, width: 71, height: 19), AnnotationDrawing(color: red, lineWidth: 0, fontSize: 14, rotation: 90),
                 contents: "Approved"),
            make("pen", "Ink", Rect(x: 70, y: 298, width: 232, height: 44),
                 AnnotationDrawing(color: blue, lineWidth: 2, inkList: [[Point(x: 72, y: 300), Point(x: 300, y: 300)], [Point(x: 72, y: 320)]])),
            make("marker", "Ink", Rect(x: 64, y: 392, width: 244, height: 16),
                 AnnotationDrawing(color: RGBColor(red: 255, green: 224, blue: 0), opacity: 0.35, lineWidth: 14, inkList: [[Point(x: 72, y: 400), Point(x: 300, y: 400)]])),
            make("words", "Highlight", Rect(x: 71, y: 149, width: 202, height: 36),
                 AnnotationDrawing(color: RGBColor(red: 255, green: 224, blue: 0), opacity: 0.35,
                                   quads: [[Point(x: 72, y: 150), Point(x: 272, y: 150), Point(x: 72, y: 164), Point(x: 272, y: 164)]])),
            make("under", "Underline", Rect(x: 72, y: 200, width: 100, height: 12), AnnotationDrawing(color: red,
                 quads: [[Point(x: 72, y: 200), Point(x: 172, y: 200), Point(x: 72, y: 212), Point(x: 172, y: 212)]])),
            make("strike", "StrikeOut", Rect(x: 72, y: 220, width: 100, height: 12), AnnotationDrawing(color: red,
                 quads: [[Point(x: 72, y: 220), Point(x: 172, y: 220), Point(x: 72, y: 232), Point(x: 172, y: 232)]])),
            make("wave", "Squiggly", Rect(x: 72, y: 240, width: 100, height: 12), AnnotationDrawing(color: blue,
                 quads: [[Point(x: 72, y: 240), Point(x: 172, y: 240), Point(x: 72, y: 252), Point(x: 172, y: 252)]])),
            make("square", "Square", Rect(x: 300, y: 40, width: 80, height: 50), AnnotationDrawing(color: red, lineWidth: 3, interiorColor: blue),
                 contents: "a box"),
            make("circle", "Circle", Rect(x: 300, y: 100, width: 80, height: 50), AnnotationDrawing(color: blue, lineWidth: 1)),
            make("line", "Line", Rect(x: 300, y: 160, width: 100, height: 40),
                 AnnotationDrawing(color: red, lineWidth: 2, vertices: [Point(x: 302, y: 162), Point(x: 398, y: 198)])),
            make("polygon", "Polygon", Rect(x: 300, y: 210, width: 100, height: 60),
                 AnnotationDrawing(color: red, lineWidth: 1, vertices: [Point(x: 302, y: 212), Point(x: 398, y: 212), Point(x: 350, y: 268)])),
            make("polyline", "PolyLine", Rect(x: 300, y: 280, width: 100, height: 60),
                 AnnotationDrawing(color: blue, lineWidth: 1, vertices: [Point(x: 302, y: 282), Point(x: 350, y: 338), Point(x: 398, y: 282)])),
            make("stamp", "Stamp", Rect(x: 300, y: 350, width: 120, height: 40), AnnotationDrawing(color: red, subject: "Approved", icon: "Approved")),
        ]
    }

    static let all = (0..<4).flatMap(sample(onPage:))

    static func close(_ a: Point, _ b: Point) -> Bool { abs(a.x - b.x) < 0.01 && abs(a.y - b.y) < 0.01 }
    static func close(_ a: Rect, _ b: Rect) -> Bool { close(a.origin, b.origin) && close(Point(x: a.maxX, y: a.maxY), Point(x: b.maxX, y: b.maxY)) }

    @Test func everySubtypeSurvivesTheTripOnEveryRotation() throws {
        let text = XFDF.document(Self.all, pages: Self.pages)
        let read = try XFDF.annotations(from: Array(text.utf8), pages: Self.pages)
        try #require(read.count == Self.all.count)
        for (back, original) in zip(read, Self.all) {
            #expect(back.id == original.id && back.subtype == original.subtype && back.pageIndex == original.pageIndex)
            #expect(Self.close(back.rect, original.rect), "\(original.id): \(back.rect) against \(original.rect)")
            // The ESC in the author cannot be held by XML 1.0: it comes back as U+FFFD.
            #expect(back.author == original.author?.replacingOccurrences(of: "\u{1B}", with: "\u{FFFD}") && back.contents == original.contents)
            #expect(back.created == original.created && back.modified == original.modified)
            #expect(back.inReplyTo == original.inReplyTo && back.replyType == original.replyType && back.state == original.state)
            #expect(back.flags == original.flags)
            let a = back.drawing, b = original.drawing
            #expect(a.color == b.color && a.opacity == b.opacity && a.lineWidth == b.lineWidth && a.interiorColor == b.interiorColor)
            #expect(a.fontSize == b.fontSize && a.subject == b.subject && a.icon == b.icon && a.rotation == b.rotation)
            #expect(a.inkList.count == b.inkList.count && zip(a.inkList, b.inkList).allSatisfy { $0.count == $1.count && zip($0, $1).allSatisfy(Self.close) },
                    "\(original.id): ink \(a.inkList)")
            #expect(a.quads.flatMap { $0 }.count == b.quads.flatMap { $0 }.count
                    && zip(a.quads.flatMap { $0 }, b.quads.flatMap { $0 }).allSatisfy(Self.close), "\(original.id): quads \(a.quads)")
            #expect(a.vertices.count == b.vertices.count && zip(a.vertices, b.vertices).allSatisfy(Self.close), "\(original.id): vertices")
        }
        #expect(XFDF.document(read, pages: Self.pages) == text, "written again, the same text")
    }

    /// What Acrobat and PDFBox write beyond place, colour and text: line endings, intents, border styles and dashes, a
    /// cloud's intensity, fringes, a text box's background, alignment and style, rich text, and the popup's place.
    static func looks(onPage page: Int) -> [Annotation] {
        func make(_ id: String, _ subtype: String, _ rect: Rect, _ drawing: AnnotationDrawing, contents: String? = nil) -> Annotation {
            Annotation(id: AnnotationID("\(id)-\(page)"), pageIndex: page, subtype: AnnotationSubtype(rawValue: subtype), rect: rect,
                       author: "Bob", created: date, modified: date, contents: contents, flags: Annotation.printFlag, drawing: drawing)
        }
        var arrow = AnnotationDrawing(color: RGBColor(red: 255, green: 0, blue: 0), lineWidth: 2,
                                      vertices: [Point(x: 302, y: 162), Point(x: 398, y: 198)])
        arrow.lineEndings = ["Circle", "ClosedArrow"]
        arrow.intent = "LineArrow"
        arrow.borderStyle = .dashed
        arrow.dashes = [3, 2]
        var cloud = AnnotationDrawing(color: RGBColor(red: 0, green: 0, blue: 255), lineWidth: 1)
        cloud.borderStyle = .cloudy(intensity: 1.5)
        cloud.fringe = [4, 4, 4, 4]
        cloud.intent = "PolygonCloud"
        cloud.vertices = [Point(x: 302, y: 212), Point(x: 398, y: 212), Point(x: 350, y: 268)]
        var callout = AnnotationDrawing(color: RGBColor(red: 0, green: 128, blue: 0), lineWidth: 1, fontSize: 11)
        callout.background = RGBColor(red: 255, green: 255, blue: 204)
        callout.justification = .centered
        callout.defaultStyle = "font: Helvetica 11pt; text-align:center; color:#008000"
        callout.richText = #"<body xmlns="http://www.w3.org/1999/xhtml" xfa:spec="2.0.2" xmlns:xfa="http://www.xfa.org/schema/xfa-data/1.0/"><p>Check <b>this</b> &amp; that</p></body>"#
        callout.popup = AnnotationDrawing.Popup(rect: Rect(x: 420, y: 40, width: 150, height: 90), isOpen: true)
        callout.callout = [Point(x: 40, y: 150), Point(x: 60, y: 120), Point(x: 70, y: 120)]
        callout.lineEndings = ["OpenArrow"]
        var note = AnnotationDrawing(color: RGBColor(red: 255, green: 209, blue: 0), icon: "Comment")
        note.popup = AnnotationDrawing.Popup(rect: Rect(x: 420, y: 300, width: 180, height: 120), isOpen: false)
        var square = AnnotationDrawing(color: RGBColor(red: 255, green: 0, blue: 0), lineWidth: 2)
        square.borderStyle = .beveled
        return [
            make("arrow", "Line", Rect(x: 300, y: 160, width: 100, height: 40), arrow),
            make("cloud", "Polygon", Rect(x: 296, y: 206, width: 108, height: 66), cloud),
            make("callout", "FreeText", Rect(x: 70, y: 90, width: 120, height: 30), callout, contents: "Check this & that"),
            make("note", "Text", Rect(x: 40, y: 40, width: 20, height: 20), note, contents: "See the margin"),
            make("bevel", "Square", Rect(x: 300, y: 40, width: 80, height: 50), square),
        ]
    }

    @Test func theLookBeyondColourSurvivesTheTripOnEveryRotation() throws {
        let originals = (0..<4).flatMap(Self.looks(onPage:))
        let text = XFDF.document(originals, pages: Self.pages)
        let read = try XFDF.annotations(from: Array(text.utf8), pages: Self.pages)
        try #require(read.count == originals.count)
        for (back, original) in zip(read, originals) {
            #expect(back.drawing.isClose(to: original.drawing), "\(original.id): \(back.drawing) against \(original.drawing)")
            #expect(Self.close(back.rect, original.rect))
        }
        #expect(XFDF.document(read, pages: Self.pages) == text, "written again, the same text")
        // As Acrobat spells them; the rich text is XHTML inside the element, not escaped text.
        #expect(text.contains(#"head="Circle" tail="ClosedArrow" intent="LineArrow" style="dash" dashes="3,2""#))
        #expect(text.contains(#"intent="PolygonCloud" style="cloudy" intensity="1.5" fringe="4,4,4,4""#))
        #expect(text.contains(##"color="#FFFFCC""##) && text.contains(#"justification="centered""#))
        #expect(text.contains(#"head="OpenArrow" callout="50,602,70,632,80,632""#), "a callout's one ending and its line, in user space")
        #expect(!text.contains("tail=\"None\""), "a callout has one end")
        #expect(text.contains("<p>Check <b>this</b> &amp; that</p>"))
        #expect(text.contains("<defaultstyle>font: Helvetica 11pt; text-align:center; color:#008000</defaultstyle>"))
        #expect(text.contains(#"<popup page="0" rect="430,622,580,712" open="yes"/>"#), "the popup in user space")
        #expect(text.contains(#"style="bevelled""#))
    }

    /// Acrobat writes a text box's colour into its style and leaves a default black in its appearance string: the
    /// colour read is the style's, as from a PDF.
    @Test func aTextBoxsColourIsItsStylesBeforeItsDefaultBlack() throws {
        let text = """
            <xfdf xmlns="http://ns.adobe.com/xfdf/"><annots><freetext page="0" rect="100,500,300,560" name="rich"><contents>Rich</contents>
            <defaultappearance>/Helv 12 Tf 0 0 0 rg</defaultappearance><defaultstyle>font: Helvetica 12pt; color:#800080</defaultstyle>
            </freetext></annots></xfdf>
            """
        let read = try XFDF.annotations(from: Array(text.utf8), pages: Self.pages)
        #expect(read.first?.drawing.color == RGBColor(red: 128, green: 0, blue: 128))
        #expect(read.first?.drawing.fontSize == 12)
    }

    @Test func theFileSaysWhatISO19444Says() throws {
        let text = XFDF.document(Self.sample(onPage: 1), pages: Self.pages)
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xfdf xmlns=\"http://ns.adobe.com/xfdf/\" xml:space=\"preserve\">"))
        // Page 2 is turned 90 degrees: the display point (72, 300) is user (10 + 300, 20 + 72).
        #expect(text.contains("<gesture>310,92;310,320</gesture>"), "ink in user space")
        #expect(text.contains(#"<text page="1" rect="#))
        #expect(text.contains(#"inreplyto="note-1" replyType="reply" statemodel="Review" state="Accepted""#))
        #expect(text.contains(#"flags="print,noview""#))
        #expect(text.contains("<contents>Fix this &lt;now&gt; &amp; \"then\"\nsecond line</contents>"))
        // XML 1.0 cannot hold an ESC even as a reference: a strict reader would refuse the file.
        #expect(text.contains("title=\"Alice \u{FFFD}[31m\""), "an escape becomes U+FFFD, never raw, never &#27;")
        #expect(text.contains("<defaultappearance>/Helv 14 Tf 1 0 0 rg</defaultappearance>"))
        #expect(!text.unicodeScalars.contains("\u{1B}"))
    }

    @Test func aCommandTurnsOneSetIntoAnother() throws {
        // Authors without the ESC the sample carries, which XML cannot: what is compared is the command's work.
        let old = Self.sample(onPage: 0).map { annotation in
            var plain = annotation
            plain.author = "Alice"
            return plain
        }
        var new = old
        new.removeAll { $0.id == "circle-0" }
        new[0].contents = "Changed"
        new[4].rect = new[4].rect.offsetBy(dx: 10, dy: 5)
        new[4].drawing = new[4].drawing.translated(dx: 10, dy: 5)
        new.append(Annotation(id: "added", pageIndex: 2, subtype: .freeText, rect: Rect(x: 10, y: 10, width: 50, height: 20),
                              contents: "new", flags: 4, drawing: AnnotationDrawing(color: RGBColor(red: 0, green: 0, blue: 0), fontSize: 12)))
        let command = XFDFCommand.between(old, new)
        #expect(command.add.map(\.id) == ["added"] && command.modify.map(\.id) == ["note-0", "pen-0"])
        #expect(command.delete == [XFDFCommand.Deletion(pageIndex: 0, id: "circle-0")])
        let applied = command.applied(to: old)
        #expect(applied.map(\.id) == new.map(\.id))
        #expect(XFDFCommand.between(applied, new).isEmpty)

        // As XML and back: the same command.
        let text = XFDF.document(command, pages: Self.pages)
        #expect(text.contains("<delete>\n    <id page=\"0\">circle-0</id>\n  </delete>"))
        let read = try XFDF.command(from: Array(text.utf8), pages: Self.pages)
        #expect(read.add.map(\.id) == ["added"] && read.modify.map(\.id) == ["note-0", "pen-0"] && read.delete == command.delete)
        #expect(XFDFCommand.between(read.applied(to: old), new).modify.allSatisfy { $0.id == "pen-0" || $0.id == "added" },
                "only rounding to 1/10000 pt can differ")
    }

    @Test func anImportReplacesByNameAndNamesTheNameless() throws {
        let existing = Self.sample(onPage: 0)
        let text = """
            <?xml version="1.0"?><xfdf xmlns="http://ns.adobe.com/xfdf/"><annots>
            <square page="0" rect="10,20,110,70" name="square-0" color="#00FF00"/>
            <circle page="0" rect="10,20,110,70"/>
            </annots></xfdf>
            """
        let command = try XFDF.command(from: Array(text.utf8), pages: Self.pages)
        let after = command.applied(to: existing)
        #expect(after.count == existing.count + 1)
        #expect(after.first { $0.id == "square-0" }?.drawing.color == RGBColor(red: 0, green: 255, blue: 0), "replaced")
        #expect(UUID(uuidString: after.last?.id.rawValue ?? "") != nil, "the nameless one gets a UUID")
    }

    static func error(_ text: String) -> String {
        do {
            _ = try XFDF.command(from: Array(text.utf8), pages: pages)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        ("not xml at all", "line 1: not XML: text before the root element"),
        ("<fdf/>", "line 1: the root element is <fdf>, not <xfdf>"),
        ("<xfdf xmlns=\"urn:other\"><annots/></xfdf>", "line 1: the root element is <xfdf> of namespace urn:other, not <xfdf>"),
        ("<xfdf>\n<annots>\n<sqare page=\"0\" rect=\"0,0,1,1\"/></annots></xfdf>", "line 3: unknown element <sqare>"),
        ("<xfdf><annots>\n\n<square page=\"0\" rect=\"0,0,x,1\"/></annots></xfdf>", "line 3: rect of <square> holds \"x\", not a number"),
        ("<xfdf><annots><square page=\"4\" rect=\"0,0,1,1\"/></annots></xfdf>",
         "line 1: page=\"4\" of <square> is out of range: the document has 4 pages, counted from 0"),
        ("<xfdf><annots><square page=\"0\" rect=\"0,0,1,1\" opacity=\"nan\"/></annots></xfdf>", "line 1: opacity=\"nan\" of <square> is not a number"),
        ("<xfdf><annots><square page=\"0\" rect=\"0,0,1e999,1\"/></annots></xfdf>", "line 1: rect of <square> holds \"1e999\", not a number"),
        ("<xfdf><annots><square page=\"0\" rect=\"0,0,\(String(repeating: "7", count: 43)),1\"/></annots></xfdf>",
         "line 1: rect of <square> holds \"\(String(repeating: "7", count: 40))…\", a number beyond what a PDF number holds (±3.403e+38)"),
        ("<xfdf><annots><square page=\"0\" rect=\"0,0,1,1\" width=\"-4e40\"/></annots></xfdf>",
         "line 1: width=\"-4e40\" of <square> is beyond what a PDF number holds (±3.403e+38)"),
        ("<xfdf><annots><square page=\"0\" rect=\"0,0,1,1\"><blob/></square></annots></xfdf>", "line 1: unknown element <blob> in <square>"),
        ("<xfdf><annots><square page=\"0\" rect=\"0,0,1,1\" flags=\"print,shiny\"/></annots></xfdf>",
         "line 1: flags of <square> names an unknown flag \"shiny\""),
        ("<xfdf><annots><square page=\"0\" rect=\"0,0,1,1\" date=\"yesterday\"/></annots></xfdf>",
         "line 1: date=\"yesterday\" of <square> is not a PDF date like D:20261124093000+01'00'"),
        ("<xfdf><delete><id page=\"0\"> </id></delete></xfdf>", "line 1: <id> in <delete> names no annotation"),
        ("<xfdf><annots>\n<square page=\"0\" rect=\"0,0,1,1\" name=\"D\"/>\n<circle page=\"0\" rect=\"0,0,1,1\" name=\"D\"/></annots></xfdf>",
         "line 3: the name \"D\" is given twice (first on line 2)"),
        ("<xfdf><modify><square page=\"0\" rect=\"0,0,1,1\" name=\"D\"/></modify>\n<delete><id page=\"0\">D</id></delete></xfdf>",
         "line 2: \"D\" is both deleted and changed (line 1)"),
        ("<xfdf><annots><square page=\"0\" rect=\"0x10,0,1,1\"/></annots></xfdf>", "line 1: rect of <square> holds \"0x10\", not a number"),
        ("<xfdf><annots><square page=\"0\" rect=\"0,0,1,1\" opacity=\"2\"/></annots></xfdf>", "line 1: opacity=\"2\" of <square> is not between 0 and 1"),
        ("<xfdf><annots><line page=\"0\" rect=\"0,0,9,9\" start=\"1,1\"/></annots></xfdf>", "line 1: <line> has start without end: a line needs both"),
        ("<xfdf><annots><line page=\"0\" rect=\"0,0,9,9\" end=\"1,1\"/></annots></xfdf>", "line 1: <line> has end without start: a line needs both"),
        ("<xfdf><annots><square page=\"0\" rect=\"0,0,1,1\" width=\"-5\"/></annots></xfdf>", "line 1: width=\"-5\" of <square> is not between 0 and 1000"),
        ("<xfdf><annots><text page=\"0\" rect=\"0,0,1,1\"><contents>a&#27;b</contents></text></annots></xfdf>", "line 1: not XML: &#27; is no character"),
        ("<xfdf><annots><text page=\"0\" rect=\"0,0,1,1\"><contents>a\u{1B}b</contents></text></annots></xfdf>",
         "line 1: not XML: the control character U+001B is not allowed in XML (in <contents>)"),
        ("<xfdf><annots>\n<square page=\"0\" rect=\"0,0,1,1\">\n</annots></xfdf>", "line 3: not XML: </annots> closes <square> of line 2"),
        ("<xfdf><annots><square page=\"0\" rect=\"0,0,1,1\"><contents>&nbsp;</contents></square></annots></xfdf>",
         "line 1: not XML: the entity &nbsp; is not allowed (only XML's own five are)"),
        ("<xfdf><annots>\n<text page=\"0\" rect=\"0,0,1,1\" statemodel=\"Review\" state=\"Bananas\"/></annots></xfdf>",
         "line 2: state=\"Bananas\" statemodel=\"Review\" of <text> is not a review state (Accepted, Rejected, Cancelled, Completed or None in the Review model; Marked or Unmarked in the Marked model)"),
        ("<xfdf><annots><text page=\"0\" rect=\"0,0,1,1\" statemodel=\"Review\" state=\"Marked\"/></annots></xfdf>",
         "line 1: state=\"Marked\" statemodel=\"Review\" of <text> is not a review state (Accepted, Rejected, Cancelled, Completed or None in the Review model; Marked or Unmarked in the Marked model)"),
        ("<xfdf><annots>\n<text page=\"0\" rect=\"0,0,1,1\" name=\"L1\" inreplyto=\"L2\"/>\n<text page=\"0\" rect=\"0,0,1,1\" name=\"L2\" inreplyto=\"L1\"/></annots></xfdf>",
         "line 2: inreplyto=\"L2\" of \"L1\" makes a loop of replies"),
        ("<xfdf><annots><text page=\"0\" rect=\"0,0,1,1\" name=\"Self\" inreplyto=\"Self\"/></annots></xfdf>",
         "line 1: inreplyto=\"Self\" of \"Self\" makes a loop of replies"),
        ("<xfdf><annots>\n<text page=\"0\" rect=\"0,0,1,1\" name=\"S\" statemodel=\"Review\" state=\"Accepted\"/></annots></xfdf>",
         "line 2: the review state of <text> answers nothing: it needs inreplyto"),
        ("<xfdf><annots><ink page=\"0\" rect=\"0,0,1,1\">\n<inklist></inklist></ink></annots></xfdf>", "line 2: <inklist> holds no <gesture>"),
        ("<xfdf><annots><line page=\"0\" rect=\"0,0,1,1\" head=\"Banana\"/></annots></xfdf>",
         "line 1: head=\"Banana\" of <line> is not a line ending (Butt, Circle, ClosedArrow, Diamond, None, OpenArrow, RClosedArrow, ROpenArrow, Slash, Square)"),
        ("<xfdf><annots><square page=\"0\" rect=\"0,0,1,1\" style=\"wavy\"/></annots></xfdf>",
         "line 1: style=\"wavy\" of <square> is not a border style (solid, dash, bevelled, inset, underline, cloudy)"),
        ("<xfdf><annots><square page=\"0\" rect=\"0,0,1,1\" style=\"cloudy\" intensity=\"9\"/></annots></xfdf>",
         "line 1: intensity=\"9\" of <square> is not between 0 and 2"),
        ("<xfdf><annots><square page=\"0\" rect=\"0,0,1,1\" dashes=\"0,0\"/></annots></xfdf>",
         "line 1: dashes of <square> needs one to sixteen lengths from 0 to 1000, not all 0, not 0,0"),
        ("<xfdf><annots><square page=\"0\" rect=\"0,0,1,1\" fringe=\"1,2\"/></annots></xfdf>",
         "line 1: fringe of <square> needs four distances of 0 or more, not 1,2"),
        ("<xfdf><annots><freetext page=\"0\" rect=\"0,0,1,1\" justification=\"justified\"/></annots></xfdf>",
         "line 1: justification=\"justified\" of <freetext> is not left, centered or right"),
        ("<xfdf><annots><line page=\"0\" rect=\"0,0,1,1\" intent=\"Line Arrow/x\"/></annots></xfdf>",
         "line 1: intent=\"Line Arrow/x\" of <line> is not a name like FreeTextCallout"),
        ("<xfdf><annots><text page=\"0\" rect=\"0,0,1,1\">\n<popup page=\"0\" rect=\"0,0,1,1\" open=\"maybe\"/></text></annots></xfdf>",
         "line 2: open=\"maybe\" of <popup> is not yes or no"),
        ("<xfdf><annots><text page=\"0\" rect=\"0,0,1,1\"><popup page=\"0\"/></text></annots></xfdf>", "line 1: <popup> has no rect"),
        ("<xfdf><annots><ink page=\"0\" rect=\"0,0,1,1\"><inklist>\n<gesture> </gesture></inklist></ink></annots></xfdf>", "line 2: <gesture> holds no point"),
        ("<xfdf><annots><square page=\"0\" rect=\"0,0,1,1\" date=\"2024-01-01\"/></annots></xfdf>",
         "line 1: date=\"2024-01-01\" of <square> is not a PDF date like D:20261124093000+01'00'"),
        ("<xfdf><annots><square page=\"0\" rect=\"0,0,1,1\" date=\"D:20241399250000Z\"/></annots></xfdf>",
         "line 1: date=\"D:20241399250000Z\" of <square> is not a PDF date like D:20261124093000+01'00'"),
        ("<xfdf><annots><freetext page=\"0\" rect=\"0,0,1,1\">\n<defaultappearance>/Helv 100000 Tf 0 g</defaultappearance></freetext></annots></xfdf>",
         "line 2: the font size 100000 in <defaultappearance> of <freetext> is not between 0 and 1000"),
        ("<xfdf><annots><freetext page=\"0\" rect=\"0,0,1,1\" callout=\"1,2,3\"/></annots></xfdf>",
         "line 1: callout of <freetext> needs two or three points (4 or 6 numbers), not 3"),
        ("<xfdf><annots><text page=\"0\" rect=\"0,0,1,1\"><contents-richtext>plain</contents-richtext></text></annots></xfdf>",
         "line 1: <contents-richtext> holds 0 elements, not one <body>"),
    ])
    func malformedFilesAreOneLineErrorsNamingTheLine(text: String, message: String) {
        #expect(Self.error(text) == message)
    }

    /// Checked against the document: a `<modify>` of a name it does not have (deleted meanwhile, or never there) is
    /// refused rather than made anew, and a reply may not close a loop through the document's own threads; a
    /// review state as the file's own export writes it passes.
    @Test func aCommandIsCheckedAgainstTheDocumentsAnnotations() throws {
        let existing = [
            Annotation(id: "A", pageIndex: 0, subtype: "Square", rect: Rect(x: 1, y: 1, width: 5, height: 5)),
            Annotation(id: "B", pageIndex: 0, subtype: .text, rect: Rect(x: 1, y: 1, width: 5, height: 5), inReplyTo: "A"),
        ]
        func error(_ text: String) -> String? {
            do {
                _ = try XFDF.command(from: Array(text.utf8), pages: Self.pages, existing: existing)
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(error("<xfdf>\n<modify><square page=\"0\" rect=\"0,0,1,1\" name=\"Gone\"/></modify></xfdf>")
                == "line 2: <modify> changes \"Gone\", which the document does not have")
        #expect(error("<xfdf><modify>\n<square page=\"0\" rect=\"0,0,1,1\" name=\"A\" inreplyto=\"B\"/></modify></xfdf>")
                == "line 2: inreplyto=\"B\" of \"A\" makes a loop of replies")
        #expect(error("<xfdf>\n\n<delete><id page=\"0\">Gone</id></delete></xfdf>")
                == "line 3: <delete> names \"Gone\", which the document does not have")
        #expect(error("<xfdf><add>\n<text page=\"0\" rect=\"0,0,1,1\" name=\"S\" inreplyto=\"Nobody\" statemodel=\"Review\" state=\"Accepted\"/></add></xfdf>")
                == "line 2: the review state \"S\" answers \"Nobody\", which neither this file nor the document has")
        #expect(error("<xfdf><add><text page=\"0\" rect=\"0,0,1,1\" name=\"R\" inreplyto=\"Nobody\"/></add></xfdf>") == nil,
                "a plain reply to a missing name stands alone")
        let text = "<xfdf><modify><square page=\"0\" rect=\"0,0,9,9\" name=\"A\"/></modify><add><text page=\"0\" rect=\"0,0,1,1\" "
            + "name=\"C\" inreplyto=\"B\" statemodel=\"review\" state=\"accepted\"/></add></xfdf>"
        #expect(error(text) == nil)
        let state = try XFDF.command(from: Array(text.utf8), pages: Self.pages, existing: existing).add.first?.state
        #expect(state == .accepted, "written as ISO 32000 spells it: \(String(describing: state))")
    }

    /// The attacks XML readers are known for are refused before anything is expanded or read.
    @Test func entityExpansionAndExternalEntitiesAreRefused() {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE xfdf [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>
            <xfdf><annots><text page="0" rect="0,0,1,1"><contents>&c;</contents></text></annots></xfdf>
            """
        #expect(Self.error(laughs) == "line 2: not XML: a document type declaration (DOCTYPE) is not allowed: it can define entities")
        let external = "<?xml version=\"1.0\"?>\n<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><xfdf>&e;</xfdf>"
        #expect(Self.error(external).contains("DOCTYPE) is not allowed"))
        #expect(Self.error("<xfdf>&e;</xfdf>") == "line 1: not XML: the entity &e; is not allowed (only XML's own five are)")
    }

    @Test func hugeOrDeepFilesAreRefused() {
        let huge = [UInt8](repeating: UInt8(ascii: " "), count: XFDF.largestFile + 1)
        #expect(throws: XFDFError(line: 0, message: "the file is larger than 32 MiB")) { try XFDF.command(from: huge, pages: Self.pages) }
        let deep = "<xfdf>" + String(repeating: "<a>", count: 100_000)
        #expect(Self.error(deep) == "line 1: not XML: elements nested deeper than 64")
        #expect(Self.error("<xfdf><annots>") == "line 1: not XML: <annots> is never closed")
        #expect(Self.error(String(decoding: [0x3C, 0x78, 0xFF, 0x3E], as: UTF8.self)).contains("not XML"))
    }

    /// Thousands of annotations are read on every core, in parts: the fault told is still the first in the file, a
    /// name given twice before a bad number included, and the nameless are named as one reading in order names them.
    @Test func theFirstFaultInTheFileIsTheOneToldHoweverManyAnnotations() throws {
        func file(_ lines: [Int: String]) -> String {
            "<xfdf><annots>\n" + (0..<20_000).map { index in
                lines[index] ?? "<square page=\"0\" rect=\"0,0,1,1\" name=\"a\(index)\"/>"
            }.joined(separator: "\n") + "\n</annots></xfdf>"
        }
        let bad = "<square page=\"0\" rect=\"0,0,x,1\" name=\"bad\"/>"
        #expect(Self.error(file([19_000: bad])) == "line \(19_002): rect of <square> holds \"x\", not a number")
        #expect(Self.error(file([19_000: bad, 12: bad])) == "line 14: rect of <square> holds \"x\", not a number")
        #expect(Self.error(file([19_000: bad, 30: "<square page=\"0\" rect=\"0,0,1,1\" name=\"a3\"/>"]))
                == "line 32: the name \"a3\" is given twice (first on line 5)")
        let nameless = (0..<20_000).map { _ in "<circle page=\"0\" rect=\"0,0,1,1\"/>" }.joined()
        let read = try XFDF.command(from: Array("<xfdf><annots>\(nameless)</annots></xfdf>".utf8), pages: Self.pages).add
        #expect(read.map(\.order) == Array(0..<20_000))
        #expect(Set(read.map(\.id)).count == 20_000)
        let again = try XFDF.command(from: Array("<xfdf><annots>\(nameless)</annots></xfdf>".utf8), pages: Self.pages).add
        #expect(again.map(\.id) == read.map(\.id))
    }

    /// White space around numbers is passed over as before reading them got its fast path: spaces and tabs, line ends
    /// between points, and other white space (a no-break space, an em space) by its Unicode properties.
    @Test func whiteSpaceAroundNumbersIsPassedOver() throws {
        let text = "<xfdf><annots><square page=\"0\" rect=\" 10 ,\t20,\u{A0}30\u{2003},40 \"/>"
            + "<ink page=\"0\" rect=\"0,0,50,50\"><inklist><gesture>\r\n 1,2;\t3,4 \n</gesture></inklist></ink></annots></xfdf>"
        let read = try XFDF.command(from: Array(text.utf8), pages: Self.pages).add
        #expect(read.count == 2)
        #expect(read.first.map { [$0.rect.width, $0.rect.height] } == [20, 20])
        #expect(read.last?.drawing.inkList.first?.count == 2)
        #expect(Self.error(text.replacingOccurrences(of: "\t20", with: "\u{AD}20")).contains("not a number"))
    }

}
