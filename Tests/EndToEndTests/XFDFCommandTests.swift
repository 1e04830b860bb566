import Foundation
import RedlineCore
import TestSupport
import Testing

/// A namespace-aware XML parser other than Redline's (Python's expat, as other tools read XFDF) on a file.
enum NamespaceAwareXML {
    /// What the parser refuses, or nil when it reads the file.
    static func problem(in path: String) throws -> String? {
        let script = """
            import sys, xml.parsers.expat
            parser = xml.parsers.expat.ParserCreate(namespace_separator=" ")
            try:
                parser.ParseFile(open(sys.argv[1], "rb"))
            except xml.parsers.expat.ExpatError as error:
                print(error)
            """
        let result = try ProcessRunner.run(TestPaths.python, ["-c", script, path])
        let said = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return result.status != 0 ? result.stderr : said.isEmpty ? nil : said
    }
}

/// `redline xfdf export` and `import` on files other tools annotated, checked by MuPDF.
@Suite(.serialized) struct XFDFCommandTests {
    static let annotated = ["pdfjs_issue14438.pdf", "pdfcpu_text_annotations.pdf", "pypdf_annotated_pdf.pdf", "pdfjs_file_pdfjs_test.pdf"]
    /// Every real document the tests carry that opens without a password (the encrypted one needs one; pdf.js's
    /// Pages-tree-refs has a page tree that loops, refused as qpdf refuses it).
    static let everyFixture: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: TestPaths.fixture(""))) ?? []
        return names.filter { $0.hasSuffix(".pdf") && !$0.contains("_enc-") && $0 != "pdfjs_Pages-tree-refs.pdf" }.sorted()
    }()

    func redline(_ arguments: String...) throws -> ProcessResult {
        try ProcessRunner.run(TestPaths.redline, arguments)
    }

    /// The sample document with `annotations` (XFDF elements) imported by `redline xfdf import`.
    func imported(_ annotations: String, in folder: TemporaryFolder) throws -> String {
        let xfdf = folder.file("in.xfdf"), output = folder.file("out.pdf")
        try ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xfdf xmlns=\"http://ns.adobe.com/xfdf/\"><annots>\n" + annotations
             + "\n</annots></xfdf>\n").write(toFile: xfdf, atomically: true, encoding: .utf8)
        let result = try redline("xfdf", "import", TestPaths.sample, xfdf, "--output", output)
        try #require(result.status == 0, "\(result.stderr)")
        // How the copy was written, as `apply` says it: the sample takes an update appended to its bytes.
        #expect(result.stdout == "\(output): \(WriteOutcome.appended(bytes: try appendedBytes(output, after: TestPaths.sample)))\n", "\(result.stdout)")
        return output
    }

    /// How many bytes `copy` holds after the original's, which come first.
    func appendedBytes(_ copy: String, after original: String) throws -> Int {
        let (written, source) = (try #require(FileManager.default.contents(atPath: copy)), try #require(FileManager.default.contents(atPath: original)))
        #expect(written.prefix(source.count) == source)
        return written.count - source.count
    }

    /// A copy of `source` with every page's /Annots removed, by pikepdf.
    func stripped(_ source: String, to destination: String) throws {
        let script = """
            import pikepdf, sys
            pdf = pikepdf.open(sys.argv[1])
            for page in pdf.pages:
                if "/Annots" in page.obj: del page.obj["/Annots"]
            pdf.save(sys.argv[2])
            """
        let result = try ProcessRunner.run(TestPaths.python, ["-c", script, source, destination])
        try #require(result.status == 0, "\(result.stderr)")
    }

    /// `redline xfdf export` of `source`, imported into `source` stripped of its annotations (written to `rebuilt`), and
    /// exported again: both exports' text.
    func roundTrip(_ source: String, to rebuilt: String, in folder: TemporaryFolder) throws -> (first: String, second: String) {
        let first = folder.file("first.xfdf"), second = folder.file("second.xfdf"), bare = folder.file("bare.pdf")
        #expect(try redline("xfdf", "export", source, "--output", first).status == 0)
        try stripped(source, to: bare)
        let imported = try redline("xfdf", "import", bare, first, "--output", rebuilt)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try redline("xfdf", "export", rebuilt, "--output", second).status == 0)
        #expect(try NamespaceAwareXML.problem(in: first) == nil)
        return (try String(contentsOfFile: first, encoding: .utf8), try String(contentsOfFile: second, encoding: .utf8))
    }

    /// Export, import into the document stripped of its annotations, export again: the same XFDF, and MuPDF reads the
    /// same annotations from the rebuilt file as from the original.
    @Test(arguments: everyFixture)
    func exportImportExportIsTheSame(file: String) throws {
        let folder = TemporaryFolder()
        let source = TestPaths.fixture(file)
        let rebuilt = folder.file("rebuilt.pdf")
        let (a, b) = try roundTrip(source, to: rebuilt, in: folder)
        #expect(a == b, "the XFDF written again is the same")
        #expect(!a.contains("flags=\"\""), "no flags, no attribute")
        #expect(a.contains("<annots"))

        // pikepdf reads the dictionaries as written (MuPDF would draw appearances for the imported annotations and
        // grow their rects to fit).
        // XFDF cannot hold an ink without strokes (pdf.js's file has four, with no /InkList and no /Rect).
        let strokeless = Set(try MuPDFProbe.annotations(in: source).flatMap(\.annotations)
            .filter { $0.type == "Ink" && $0.ink.allSatisfy(\.isEmpty) }.compactMap(\.id))
        let original = try AnnotationProbe.read(source).filter {
            !["/Link", "/Widget", "/Popup"].contains($0.subtype ?? "") && !($0.NM.map(strokeless.contains) ?? false)
        }
        let back = try AnnotationProbe.read(rebuilt).filter { $0.subtype != "/Popup" }
        try #require(original.count == back.count, "\(original.map(\.subtype)) against \(back.map(\.subtype))")
        for (was, now) in zip(original, back) {
            #expect(was.subtype == now.subtype && was.page == now.page)
            // Some writers put the corners the other way round: the same rectangle.
            func normal(_ r: [Double]) -> [Double] { r.count == 4 ? [min(r[0], r[2]), min(r[1], r[3]), max(r[0], r[2]), max(r[1], r[3])] : r }
            #expect(zip(normal(was.rect), normal(now.rect)).allSatisfy { abs($0 - $1) < 0.01 }, "\(was.subtype ?? ""): \(was.rect) against \(now.rect)")
            #expect(was.Contents == now.Contents && was.T == now.T)
            // No /RT means /R (ISO 32000-1 table 170): written out, it says the same.
            #expect(was.State == now.State && was.StateModel == now.StateModel
                    && (was.IRTObject == nil || (was.RT ?? "/R") == (now.RT ?? "/R")), "\(was.RT ?? "none") against \(now.RT ?? "none")")
            #expect((was.IRTObject == nil) == (now.IRTObject == nil), "the thread link survives")
            // Line endings, intent, border, justification, styles, rich text and the popup's place come back.
            #expect(was.look == now.look, "\(was.subtype ?? "") \(was.NM ?? ""): \(was.look) against \(now.look)")
        }
        // MuPDF reads the colours and ink of the rebuilt file as of the original.
        let colours = try MuPDFProbe.annotations(in: source).flatMap(\.annotations)
            .filter { !["Link", "Widget", "Popup"].contains($0.type) && !($0.id.map(strokeless.contains) ?? false) }
        let rebuiltColours = try MuPDFProbe.annotations(in: rebuilt).flatMap(\.annotations).filter { $0.type != "Popup" }
        if colours.count == rebuiltColours.count {
            for (was, now) in zip(colours, rebuiltColours) {
                #expect(was.type == now.type && was.stroke.count == now.stroke.count
                        && zip(was.stroke, now.stroke).allSatisfy { abs($0 - $1) < 0.003 }, "\(was.type): \(was.stroke) against \(now.stroke)")
                #expect(was.ink.count == now.ink.count)
            }
        }
        #expect(try QPDFCheck.errors(in: rebuilt) == nil)
    }

    /// Rich text whose names XML with namespaces forbids (an attribute 8a, an undeclared prefix, xml: rebound, one
    /// attribute under two prefixes) is left out of the export, which Python's namespace-aware expat reads; rich text
    /// that is well-formed is kept.
    @Test func richTextThatBreaksNamespacesIsLeftOutOfTheExport() throws {
        let folder = TemporaryFolder()
        let xfdf = folder.file("rich.xfdf")
        let result = try redline("xfdf", "export", TestPaths.fixture("hostile/rich-text-odd-names.pdf"), "--output", xfdf)
        try #require(result.status == 0, "\(result.stderr)")
        #expect(try NamespaceAwareXML.problem(in: xfdf) == nil)
        let text = try String(contentsOfFile: xfdf, encoding: .utf8)
        #expect(text.components(separatedBy: "<contents-richtext>").count - 1 == 1, "only the well-formed one: \(text)")
        #expect(text.contains("a:x=\"1\">fine</p>"))
        for note in 0..<5 { #expect(text.contains("<contents>note \(note)</contents>"), "every note is still there") }
    }

    /// An ink of 100,000 strokes goes out and comes back the same.
    @Test func anInkOfAHundredThousandStrokesMakesTheTrip() throws {
        let folder = TemporaryFolder()
        let source = folder.file("ink.pdf"), rebuilt = folder.file("rebuilt.pdf")
        let script = """
            import pikepdf, sys
            from pikepdf import Array, Dictionary, Name, String
            pdf = pikepdf.open(sys.argv[1])
            strokes = [Array([100 + i % 300, 100 + (i // 300) % 500, 101 + i % 300, 101 + (i // 300) % 500]) for i in range(100000)]
            ink = pdf.make_indirect(Dictionary(Type=Name.Annot, Subtype=Name.Ink, Rect=[90, 90, 410, 610], InkList=Array(strokes),
                                               NM=String("big-ink"), T=String("Bob"), C=[0, 0, 1], F=4))
            pdf.pages[0].obj.Annots = Array([ink])
            pdf.save(sys.argv[2])
            """
        try #require(try ProcessRunner.run(TestPaths.python, ["-c", script, TestPaths.sample, source]).status == 0)
        let (a, b) = try roundTrip(source, to: rebuilt, in: folder)
        #expect(a == b)
        #expect(a.components(separatedBy: "<gesture>").count - 1 == 100_000)
    }

    /// A file's own export imported into it changes no annotation: every dictionary reads as it did.
    @Test(arguments: annotated)
    func importingAFilesOwnExportChangesNoAnnotation(file: String) throws {
        let folder = TemporaryFolder()
        let source = TestPaths.fixture(file)
        let exported = folder.file("own.xfdf"), output = folder.file("same.pdf")
        #expect(try redline("xfdf", "export", source, "--output", exported).status == 0)
        let result = try redline("xfdf", "import", source, exported, "--output", output)
        #expect(result.status == 0, "\(result.stderr)")
        let before = try AnnotationProbe.read(source), after = try AnnotationProbe.read(output)
        #expect(before.map(\.digest) == after.map(\.digest), "every annotation as it was")
    }

    /// A command naming an annotation of the file changes that one, in place, and nothing else.
    @Test func aModifyCommandMovesTheNamedAnnotationAndDeleteRemovesOne() throws {
        let folder = TemporaryFolder()
        let source = TestPaths.fixture("pdfjs_issue14438.pdf")
        let before = try MuPDFProbe.annotations(in: source)[0].annotations
        let circle = try #require(before.first { $0.type == "Circle" }), square = try #require(before.first { $0.type == "Square" })
        let command = folder.file("command.xfdf")
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <xfdf xmlns="http://ns.adobe.com/xfdf/">
              <modify><circle page="0" rect="100,100,160,130" name="\(circle.id ?? "")" color="#0000FF" width="2"/></modify>
              <delete><id page="0">\(square.id ?? "")</id></delete>
            </xfdf>
            """.write(toFile: command, atomically: true, encoding: .utf8)
        let output = folder.file("out.pdf")
        let result = try redline("xfdf", "import", source, command, "--output", output)
        #expect(result.status == 0, "\(result.stderr)")
        let after = try MuPDFProbe.annotations(in: output)[0].annotations
        #expect(after.count == before.count - 1 && !after.contains { $0.id == square.id })
        let moved = try #require(after.first { $0.id == circle.id })
        // MuPDF's rect is in the page's top-left space: user y 100…130 on a 792 pt page is 662…692.
        #expect(zip(moved.rect, [100, 662, 160, 692]).allSatisfy { abs($0 - $1) < 0.01 }, "\(moved.rect)")
        #expect(moved.stroke == [0, 0, 1] && moved.width == 2)
        for (was, now) in zip(before.filter { $0.id != square.id && $0.id != circle.id }, after.filter { $0.id != circle.id }) {
            #expect(was.id == now.id && was.rect == now.rect && was.hasAppearance == now.hasAppearance, "untouched: \(was.type)")
        }
    }

    @Test(arguments: [
        ("<xfdf><annots>\n<sqare page=\"0\" rect=\"0,0,1,1\"/></annots></xfdf>", "line 2: unknown element <sqare>"),
        ("<xfdf><annots><square page=\"9\" rect=\"0,0,1,1\"/></annots></xfdf>", "page=\"9\" of <square> is out of range"),
        ("<!DOCTYPE x [<!ENTITY a \"aaaa\">]><xfdf/>", "DOCTYPE) is not allowed"),
        ("{\"json\": true}", "not XML"),
    ])
    func malformedXFDFIsExitOneNamingTheLineAndNothingIsWritten(text: String, message: String) throws {
        let folder = TemporaryFolder()
        let bad = folder.file("bad.xfdf"), output = folder.file("out.pdf")
        try text.write(toFile: bad, atomically: true, encoding: .utf8)
        let result = try redline("xfdf", "import", TestPaths.sample, bad, "--output", output)
        #expect(result.status == 1 && result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// `--output` naming the PDF would have replaced it with XML; a full disk on standard output is an error, not a crash.
    @Test func exportNeverDestroysThePDFAndSaysWhenItCannotWrite() throws {
        let folder = TemporaryFolder()
        let victim = folder.file("victim.pdf")
        try FileManager.default.copyItem(atPath: TestPaths.fixture("pdfjs_issue14438.pdf"), toPath: victim)
        let refused = try redline("xfdf", "export", victim, "--output", victim)
        #expect(refused.status == 1 && refused.stderr.contains("that is the PDF being read"))
        #expect(FileManager.default.contents(atPath: victim) == FileManager.default.contents(atPath: TestPaths.fixture("pdfjs_issue14438.pdf")))
        let full = try ProcessRunner.run("sh", ["-c", "'\(TestPaths.redline)' xfdf export '\(victim)' > /dev/full"])
        #expect(full.status == 3 && full.stderr.contains("No space left on device"), "\(full.status): \(full.stderr.prefix(300))")
    }

    /// Deleting an annotation takes its replies and states along: nothing points at a removed object, and its text is
    /// gone from the file.
    @Test func aDeletedAnnotationTakesItsThreadAlong() throws {
        let folder = TemporaryFolder()
        let source = TestPaths.fixture("pdfcpu_text_annotations.pdf")
        let command = folder.file("delete.xfdf"), output = folder.file("out.pdf")
        try "<xfdf><delete><id page=\"0\">redline-9f3be24771e73ff1</id></delete></xfdf>".write(toFile: command, atomically: true, encoding: .utf8)
        let result = try redline("xfdf", "import", source, command, "--output", output)
        #expect(result.status == 0, "\(result.stderr)")
        let left = try AnnotationProbe.read(output)
        #expect(left.allSatisfy { $0.IRTObject == nil }, "no reply is left pointing at the deleted highlight")
        let listed = try redline("annotations", output)
        #expect(!listed.stdout.contains("Steve van Loben Sels") && !listed.stdout.contains("set by reviewer"), "\(listed.stdout)")
        let qpdf = try ProcessRunner.run("qpdf", ["--qdf", "--object-streams=disable", output, folder.file("plain.pdf")])
        #expect(qpdf.status == 0)
        let bytes = try #require(FileManager.default.contents(atPath: folder.file("plain.pdf")))
        // The replies' texts ("Accepted set by reviewer", …) are gone from the file, not only from the page.
        #expect(bytes.range(of: Data("set by reviewer".utf8)) == nil)
    }

    @Test func exportOfOnePageAndOfAPageThatIsNotThere() throws {
        let source = TestPaths.fixture("pdfjs_issue14438.pdf")
        let one = try redline("xfdf", "export", source, "--page", "1")
        #expect(one.status == 0 && one.stdout.contains("page=\"0\"") && !one.stdout.contains("page=\"1\""))
        let missing = try redline("xfdf", "export", source, "--page", "99")
        #expect(missing.status == 1 && missing.stderr.contains("there is no page 99"))
    }
    /// XFDF carries no appearances; what Redline draws (a text box, an ink) is given one by its painter on import,
    /// so a reader that never draws annotations afresh shows them too, where poppler draws them.
    @Test func importedAnnotationsRedlineDrawsGetAnAppearance() throws {
        let folder = TemporaryFolder()
        let output = try imported("""
            <ink page="0" rect="90,590,310,710" name="I" color="#0000FF" width="4"><inklist><gesture>100,600;200,700;300,600</gesture></inklist></ink>
            <freetext page="0" rect="100,400,300,430" name="F"><contents>Imported words</contents>
            <defaultappearance>/Helv 14 Tf 1 0 0 rg</defaultappearance></freetext>
            <circle page="0" rect="400,400,450,450" name="C" color="#00FF00"/>
            """, in: folder)
        let annotations = try MuPDFProbe.annotations(in: output)[0].annotations
        #expect(annotations.first { $0.id == "I" }?.hasAppearance == true)
        #expect(annotations.first { $0.id == "F" }?.hasAppearance == true)
        #expect(annotations.first { $0.id == "C" }?.hasAppearance == true, "a circle is drawn from its keys")
        #expect(try PopplerText.text(in: output, page: 1).contains("Imported words"))
        let page = try PopplerRender.page(1, of: output)
        var blue = 0
        for y in 82..<202 { for x in 90..<310 { let p = page.rgb(x, y); if p.blue > 150 && p.red < 100 && p.green < 100 { blue += 1 } } }
        #expect(blue > 100, "the ink is drawn in blue where it goes: \(blue)")
    }

    /// Shapes, lines, polygons and carets XFDF brings are drawn from their keys: every reader shows the same, where
    /// poppler draws no caret and PDFium no line or polygon without an appearance. Each shows in its colour inside its
    /// box in poppler's and MuPDF's renders, and nothing of it outside.
    @Test func importedShapesLinesPolygonsAndCaretsGetAnAppearanceEveryReaderDraws() throws {
        let folder = TemporaryFolder()
        let output = try imported("""
            <square page="0" rect="60,600,200,700" name="S" color="#FF0000" width="3"/>
            <circle page="0" rect="240,600,380,700" name="C" color="#0000FF" interior-color="#00FF00" width="2"/>
            <line page="0" rect="60,450,300,560" name="L" color="#FF0000" width="3" start="70,460" end="290,550" head="Square" tail="ClosedArrow"/>
            <polygon page="0" rect="340,450,520,560" name="P" color="#0000FF" width="2"><vertices>350,460;510,460;430,550</vertices></polygon>
            <polyline page="0" rect="60,300,300,400" name="Y" color="#FF0000" width="2" head="Circle" tail="OpenArrow" style="dash" dashes="6,3">
            <vertices>70,310;180,390;290,310</vertices></polyline>
            <caret page="0" rect="400,300,440,340" name="K" color="#0000FF"/>
            """, in: folder)
        let written = try MuPDFProbe.annotations(in: output)[0].annotations
        for name in ["S", "C", "L", "P", "Y", "K"] {
            #expect(written.first { $0.id == name }?.hasAppearance == true, "\(name) has an appearance")
        }
        // PDF user space boxes and the colour each is drawn in: red or blue.
        let boxes: [(name: String, box: [Int], red: Bool)] = [("S", [60, 600, 200, 700], true), ("C", [240, 600, 380, 700], false),
                                                              ("L", [60, 450, 300, 560], true), ("P", [340, 450, 520, 560], false),
                                                              ("Y", [60, 300, 300, 400], true), ("K", [400, 300, 440, 340], false)]
        for (reader, page) in [("poppler", try PopplerRender.page(1, of: output)), ("MuPDF", try MuPDFProbe.render(1, of: output, dpi: 72))] {
            func isRed(_ p: (red: Int, green: Int, blue: Int)) -> Bool { p.red > 180 && p.green < 90 && p.blue < 90 }
            func isBlue(_ p: (red: Int, green: Int, blue: Int)) -> Bool { p.blue > 180 && p.red < 90 && p.green < 90 }
            var inside = [String: Int](), outside = 0
            for y in 0..<page.height {
                for x in 0..<page.width {
                    let pixel = page.rgb(x, y)
                    guard isRed(pixel) || isBlue(pixel) else { continue }
                    let userY = page.height - y
                    if let owner = boxes.first(where: { $0.red == isRed(pixel) && (($0.box[0] - 1)...($0.box[2] + 1)).contains(x)
                                                        && (($0.box[1] - 1)...($0.box[3] + 1)).contains(userY) }) {
                        inside[owner.name, default: 0] += 1
                    } else {
                        outside += 1
                    }
                }
            }
            for (name, _, _) in boxes { #expect(inside[name, default: 0] > 40, "\(reader) draws \(name): \(inside[name, default: 0]) pixels") }
            #expect(outside < 20, "\(reader): \(outside) coloured pixels outside every box")
            var green = 0
            for y in (page.height - 690)..<(page.height - 610) { for x in 260..<360 where page.rgb(x, y).green > 180 && page.rgb(x, y).red < 90 { green += 1 } }
            #expect(green > 2_000, "\(reader) fills the circle green: \(green) pixels")
        }
    }

    /// A line whose `rect` is the box of its two points: its round end and arrowhead reach past it. The rect grows
    /// to hold them, so readers show them whole instead of cut at the box's edge.
    @Test func aLineEndingPastItsRectIsShownWhole() throws {
        let folder = TemporaryFolder()
        let output = try imported("""
            <line page="0" rect="100,200,300,260" name="L" color="#FF0000" width="3" start="100,200" end="300,260" head="Circle" tail="ClosedArrow"/>
            """, in: folder)
        let line = try #require(try MuPDFProbe.annotations(in: output)[0].annotations.first { $0.id == "L" })
        // Display space, y down: the circle's centre at (100, 592), its radius 6 and half the stroke.
        #expect(line.rect[0] <= 100 - 7 && line.rect[3] >= 592 + 7 && line.rect[2] >= 300, "\(line.rect)")
        for (reader, page) in [("poppler", try PopplerRender.page(1, of: output)), ("MuPDF", try MuPDFProbe.render(1, of: output, dpi: 72))] {
            var red = 0
            for y in 585..<600 { for x in 93..<100 where page.rgb(x, y).red > 180 && page.rgb(x, y).green < 90 { red += 1 } }
            #expect(red > 5, "\(reader): the circle's left half shows (\(red) red pixels left of the rect XFDF gave)")
        }
    }

    /// What draws nothing (a line and a square of width 0: ISO 32000-1 §12.5.4 draws no border of width 0) gets an
    /// empty appearance, so no reader draws a line of its own where Redline's screen shows none; a square whose line
    /// is wider than its box is its box painted in the line's colour, as a reader shows the stroke within /Rect.
    @Test func shapesThatDrawNothingOrOnlyTheirLineLookTheSameEverywhere() throws {
        let folder = TemporaryFolder()
        let output = try imported("""
            <line page="0" rect="60,450,300,560" name="L" color="#FF0000" width="0" start="70,460" end="290,550"/>
            <square page="0" rect="60,600,200,700" name="Z" color="#0000FF" width="0"/>
            <square page="0" rect="300,600,340,640" name="W" color="#FF0000" width="60"/>
            <circle page="0" rect="400,600,440,640" name="O" color="#0000FF" width="60"/>
            """, in: folder)
        let written = try MuPDFProbe.annotations(in: output)[0].annotations
        for name in ["L", "Z", "W", "O"] { #expect(written.first { $0.id == name }?.hasAppearance == true, "\(name) has an appearance") }
        for (reader, page) in [("poppler", try PopplerRender.page(1, of: output)), ("MuPDF", try MuPDFProbe.render(1, of: output, dpi: 72))] {
            func count(_ xs: Range<Int>, _ userYs: Range<Int>, _ matches: ((red: Int, green: Int, blue: Int)) -> Bool) -> Int {
                var found = 0
                for userY in userYs { for x in xs where matches(page.rgb(x, page.height - userY)) { found += 1 } }
                return found
            }
            let red: ((red: Int, green: Int, blue: Int)) -> Bool = { $0.red > 180 && $0.green < 90 && $0.blue < 90 }
            let blue: ((red: Int, green: Int, blue: Int)) -> Bool = { $0.blue > 180 && $0.red < 90 && $0.green < 90 }
            #expect(count(55..<305, 445..<565, red) == 0, "\(reader) draws no line of width 0")
            #expect(count(55..<205, 595..<705, blue) == 0, "\(reader) draws no square of width 0")
            #expect(count(301..<339, 601..<639, red) > 38 * 38 * 9 / 10, "\(reader) paints the over-wide square's box red")
            #expect(count(405..<435, 605..<635, blue) > 30 * 30 * 9 / 10, "\(reader) paints the over-wide circle's middle blue")
        }
    }

    /// Inks, a highlighter's stroke, a dot, highlights, underlines, strike-outs and squigglies imported from XFDF are written as
    /// operators, not drawn by cairo: poppler and MuPDF show them as they show the same markup `apply --annotations`
    /// drew with cairo, pixel for pixel but for antialiasing.
    @Test func importedInksAndTextMarksLookAsCairoDrewThem() throws {
        let folder = TemporaryFolder()
        let markup = folder.file("markup.json"), drawn = folder.file("drawn.pdf"), exported = folder.file("drawn.xfdf")
        let bare = folder.file("bare.pdf"), written = folder.file("written.pdf")
        try #"""
            {"version": 1, "items": [
              {"page": 1, "kind": "ink", "strokes": [[[80, 300], [200, 340], [300, 300]], [[80, 360], [300, 380]]], "width": 3, "color": "blue"},
              {"page": 1, "kind": "ink", "strokes": [[[80, 420], [400, 430]]], "width": 14, "color": "yellow", "opacity": 0.35},
              {"page": 1, "kind": "ink", "strokes": [[[450, 300]]], "width": 8, "color": "red"},
              {"page": 1, "kind": "highlight", "rects": [[72, 120, 200, 12], [72, 136, 150, 12]], "color": "green"},
              {"page": 1, "kind": "underline", "rects": [[72, 152, 200, 12]]},
              {"page": 1, "kind": "strike-out", "rects": [[72, 184, 200, 12]], "color": "blue"},
              {"page": 1, "kind": "squiggly", "rects": [[72, 200, 200, 12]], "color": "red"}]}
            """#.write(toFile: markup, atomically: true, encoding: .utf8)
        let applied = try redline("apply", TestPaths.sample, "--markup", markup, "--annotations", "--output", drawn)
        try #require(applied.status == 0, "\(applied.stderr)")
        #expect(try redline("xfdf", "export", drawn, "--output", exported).status == 0)
        try stripped(drawn, to: bare)
        let imported = try redline("xfdf", "import", bare, exported, "--output", written)
        try #require(imported.status == 0, "\(imported.stderr)")
        let annotations = try MuPDFProbe.annotations(in: written)[0].annotations
        #expect(annotations.count == 7 && annotations.allSatisfy(\.hasAppearance), "\(annotations.map(\.type))")
        #expect(annotations.filter { $0.type == "Squiggly" }.count == 1)
        for (reader, render) in [("poppler", { try PopplerRender.page(1, of: $0) }), ("MuPDF", { try MuPDFProbe.render(1, of: $0, dpi: 72) })]
            as [(String, (String) throws -> RenderedPage)] {
            let (cairo, operators, plain) = (try render(drawn), try render(written), try render(bare))
            var marked = 0, differing = 0
            for y in 0..<cairo.height {
                for x in 0..<cairo.width where cairo.difference(from: plain, x, y) > 60 || operators.difference(from: plain, x, y) > 60 {
                    marked += 1
                    if cairo.difference(from: operators, x, y) > 90 { differing += 1 }
                }
            }
            #expect(marked > 3_000, "\(reader): the markup shows (\(marked) pixels)")
            #expect(differing * 50 < marked, "\(reader): \(differing) of \(marked) marked pixels differ")
            // The dot: a stroke of one point, round-capped.
            var red = 0
            for y in 294..<306 { for x in 444..<456 where operators.rgb(x, y).red > 180 && operators.rgb(x, y).green < 90 { red += 1 } }
            #expect(red > 20, "\(reader): the dot shows (\(red) red pixels)")
        }
    }

    /// An annotation of the file whose author changes keeps the appearance it has; one that moves is drawn anew where
    /// it now stands.
    @Test func aFilesShapeKeepsItsAppearanceUnlessItMoves() throws {
        let folder = TemporaryFolder()
        let source = TestPaths.fixture("pdfjs_issue14438.pdf")
        let exported = folder.file("file.xfdf")
        #expect(try redline("xfdf", "export", source, "--output", exported).status == 0)
        let before = try MuPDFProbe.annotations(in: source)[0].annotations
        let caret = try #require(before.first { $0.type == "Caret" && $0.id != nil }), square = try #require(before.first { $0.type == "Square" && $0.id != nil })
        var xfdf = try String(contentsOfFile: exported, encoding: .utf8)
        // The square's author changes; the caret moves 30 points right.
        let squareElement = try #require(xfdf.range(of: "<square[^>]*name=\"\(NSRegularExpression.escapedPattern(for: square.id!))\"[^>]*>",
                                                    options: .regularExpression))
        xfdf.replaceSubrange(squareElement, with: String(xfdf[squareElement]).replacingOccurrences(of: #"title="[^"]*""#, with: #"title="Another reviewer""#,
                                                                                             options: .regularExpression))
        let caretElement = try #require(xfdf.range(of: "<caret[^>]*name=\"\(NSRegularExpression.escapedPattern(for: caret.id!))\"[^>]*>",
                                                   options: .regularExpression))
        let rect = try #require(String(xfdf[caretElement]).firstMatch(of: /rect="([^"]*)"/))
        let moved = rect.1.split(separator: ",").enumerated().map { index, value in
            String(Double(value)! + (index % 2 == 0 ? 30 : 0))
        }.joined(separator: ",")
        xfdf.replaceSubrange(caretElement, with: String(xfdf[caretElement]).replacingOccurrences(of: "rect=\"\(rect.1)\"", with: "rect=\"\(moved)\""))
        let changed = folder.file("changed.xfdf"), output = folder.file("out.pdf")
        try xfdf.write(toFile: changed, atomically: true, encoding: .utf8)
        let result = try redline("xfdf", "import", source, changed, "--output", output)
        try #require(result.status == 0, "\(result.stderr)")
        let after = try MuPDFProbe.annotations(in: output)[0].annotations
        let newSquare = try #require(after.first { $0.id == square.id }), newCaret = try #require(after.first { $0.id == caret.id })
        #expect(newSquare.appearanceDigest == square.appearanceDigest, "the square keeps its look")
        #expect(newCaret.hasAppearance && newCaret.appearanceDigest != caret.appearanceDigest, "the moved caret is drawn anew")
        // poppler draws the moved caret where it now stands (twice the points in pixels: it is 8 points wide).
        let page = try PopplerRender.page(1, of: output, dpi: 144), old = try PopplerRender.page(1, of: source, dpi: 144)
        let box = newCaret.rect.map { Int(($0 * 2).rounded()) }
        var differing = 0
        for y in max(0, box[1])..<min(page.height, box[3]) { for x in max(0, box[0])..<min(page.width, box[2]) where page.difference(from: old, x, y) > 96 { differing += 1 } }
        #expect(differing > 10, "the caret shows where it moved: \(differing) pixels changed in \(box)")
    }

    /// Appearances drawn for many imported annotations share what they can: one embedded font and one copy of each
    /// distinct set of resources, not one per annotation (60,000 appearances were 60,000 documents read by qpdf).
    @Test func manyImportedAppearancesShareOneFontAndTheirResources() throws {
        let folder = TemporaryFolder()
        var elements: [String] = []
        for index in 0..<30 {
            let y = 100 + (index % 10) * 28, x = 40 + (index / 10) * 180
            elements.append("<freetext page=\"0\" rect=\"\(x),\(y),\(x + 170),\(y + 24)\" name=\"T\(index)\"><contents>Box\(index) words</contents>"
                            + "<defaultappearance>/Helv 12 Tf 0 0 1 rg</defaultappearance></freetext>")
        }
        for index in 0..<10 {
            let y = 450 - index * 8
            elements.append("<ink page=\"0\" rect=\"40,\(y - 5),560,\(y + 5)\" name=\"I\(index)\" color=\"#FF0000\" width=\"2\">"
                            + "<inklist><gesture>45,\(y);300,\(y + 3);555,\(y)</gesture></inklist></ink>")
        }
        let output = try imported(elements.joined(separator: "\n"), in: folder)
        let script = """
            import pikepdf, sys
            pdf = pikepdf.open(sys.argv[1])
            fonts, resources, drawn = set(), set(), 0
            for annot in pdf.pages[0].obj.get("/Annots", []):
                if str(annot.get("/NM", "")).startswith(("T", "I")) and "/AP" in annot:
                    drawn += 1
                    form = annot.AP.N
                    resources.add(form.Resources.objgen)
                    for font in form.Resources.get("/Font", {}).values():
                        for descendant in font.get("/DescendantFonts", [font]):
                            descriptor = descendant.get("/FontDescriptor")
                            if descriptor is not None:
                                for key in ("/FontFile", "/FontFile2", "/FontFile3"):
                                    if key in descriptor: fonts.add(descriptor[key].objgen)
            print(drawn, len(resources), len(fonts))
            """
        let probe = try ProcessRunner.run(TestPaths.python, ["-c", script, output])
        try #require(probe.status == 0, "\(probe.stderr)")
        let counts = probe.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(counts.count == 3, "\(probe.stdout)")
        #expect(counts[0] == 40, "every text box and ink has its appearance: \(counts[0])")
        #expect(counts[1] <= 2, "the appearances share their resources: \(counts[1]) sets for 40")
        #expect(counts[2] == 1, "one font is embedded for 30 text boxes: \(counts[2])")
        let text = try PopplerText.text(in: output, page: 1)
        #expect((0..<30).allSatisfy { text.contains("Box\($0) words") }, "\(text)")
        #expect(try MuPDFProbe.annotations(in: output)[0].annotations.filter { ($0.id ?? "").hasPrefix("T") || ($0.id ?? "").hasPrefix("I") }.allSatisfy(\.hasAppearance))
    }

    /// More drawings than one of the painter's documents holds (`AppearanceDrawings.pagesPerDocument`): the writer
    /// reads several and lets each go when its drawings are copied; every annotation still gets its own drawing.
    @Test func appearancesDrawnInSeveralDocumentsAreEachAnnotationsOwn() throws {
        let folder = TemporaryFolder()
        let count = AppearanceDrawings.pagesPerDocument + 40
        var elements: [String] = []
        for index in 0..<count {
            // A grid of small text boxes (text is what the painter draws into its documents; paths alone are written
            // as operators), one colour for the first document's drawings and another for the second's.
            let x = 40 + (index % 64) * 8, y = 60 + (index / 64) * 9
            let colour = index < AppearanceDrawings.pagesPerDocument ? "1 0 0" : "0 0 1"
            elements.append("<freetext page=\"0\" rect=\"\(x),\(y),\(x + 8),\(y + 9)\" name=\"I\(index)\"><contents>█</contents>"
                            + "<defaultappearance>/Helv 5 Tf \(colour) rg</defaultappearance></freetext>")
        }
        elements.append("<freetext page=\"0\" rect=\"300,700,560,730\" name=\"Last\"><contents>Drawn last of all</contents>"
                        + "<defaultappearance>/Helv 14 Tf 0 0 0 rg</defaultappearance></freetext>")
        let output = try imported(elements.joined(separator: "\n"), in: folder)
        let script = """
            import pikepdf, sys
            pdf = pikepdf.open(sys.argv[1])
            forms, decoded = set(), 0
            for annot in pdf.pages[0].obj.get("/Annots", []):
                if "/AP" in annot:
                    form = annot.AP.N
                    forms.add(form.objgen)
                    if len(form.read_bytes()) > 0 and "/Resources" in form: decoded += 1
            print(len(forms), decoded)
            """
        let probe = try ProcessRunner.run(TestPaths.python, ["-c", script, output])
        try #require(probe.status == 0, "\(probe.stderr)")
        let counts = probe.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(counts == [count + 1, count + 1], "one drawing of its own for each of \(count + 1) annotations: \(probe.stdout)")
        #expect(try PopplerText.text(in: output, page: 1).contains("Drawn last of all"))
        let page = try PopplerRender.page(1, of: output)
        /// How many red and blue pixels the box of text `index` holds.
        func colours(ofBox index: Int) -> (red: Int, blue: Int) {
            let x = 40 + (index % 64) * 8, y = 60 + (index / 64) * 9
            var (red, blue) = (0, 0)
            for row in (page.height - y - 9)..<(page.height - y) {
                for column in x..<(x + 8) {
                    let pixel = page.rgb(column, row)
                    if pixel.red > 200 && pixel.blue < 80 && pixel.green < 80 { red += 1 }
                    if pixel.blue > 200 && pixel.red < 80 && pixel.green < 80 { blue += 1 }
                }
            }
            return (red, blue)
        }
        for index in [0, AppearanceDrawings.pagesPerDocument - 1] {
            let found = colours(ofBox: index)
            #expect(found.red > 3 && found.blue == 0, "box \(index) is red: \(found)")
        }
        for index in [AppearanceDrawings.pagesPerDocument, count - 1] {
            let found = colours(ofBox: index)
            #expect(found.blue > 3 && found.red == 0, "box \(index) is blue: \(found)")
        }
    }

    /// pdf.js's test file carries four Inks without /InkList (or /Rect): `annotations` lists them, XFDF cannot hold
    /// them, and the export says which it left out instead of dropping them in silence.
    @Test func inksWithoutStrokesAreNamedWhenTheExportLeavesThemOut() throws {
        let folder = TemporaryFolder()
        let source = TestPaths.fixture("pdfjs_issue14438.pdf"), xfdf = folder.file("out.xfdf")
        let result = try redline("xfdf", "export", source, "--output", xfdf)
        try #require(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("4 Ink annotations without strokes left out"), "\(result.stderr)")
        for id in ["{6a45cd9e-034f-48e9-94d9-b0097807fdef}", "{7253d922-a64e-4346-aa51-23693692c2cd}"] {
            #expect(result.stderr.contains(id), "\(id): \(result.stderr)")
            #expect(!(try String(contentsOfFile: xfdf, encoding: .utf8)).contains(id))
        }
        // A file whose every annotation XFDF holds says nothing.
        let quiet = try redline("xfdf", "export", TestPaths.sample, "--output", folder.file("sample.xfdf"))
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
    }

    /// A text box filled with a colour and centred (Acrobat's callouts) is not what Redline's painter draws: it is left
    /// to readers, who draw it from /C, /Q and /DA, and poppler shows the yellow box with its blue words.
    @Test func aFilledCentredTextBoxIsLeftToReadersToDraw() throws {
        let folder = TemporaryFolder()
        let output = try imported("""
            <freetext page="0" rect="100,600,300,640" name="Boxed" color="#FFFF00" justification="centered" width="1">
            <contents>Centred</contents><defaultappearance>/Helv 14 Tf 0 0 1 rg</defaultappearance></freetext>
            """, in: folder)
        let written = try #require(try AnnotationProbe.read(output).first { $0.NM == "Boxed" })
        #expect(written.look["FreeText C"] == .numbers([1, 1, 0]) && written.look["Q"] == .text("1"), "\(written.look)")
        #expect(try MuPDFProbe.annotations(in: output)[0].annotations.first { $0.id == "Boxed" }?.hasAppearance == false)
        let page = try PopplerRender.page(1, of: output)
        let height = page.height
        var yellow = 0, blue = 0
        for y in (height - 640)..<(height - 600) {
            for x in 100..<300 {
                let p = page.rgb(x, y)
                if p.red > 200 && p.green > 200 && p.blue < 80 { yellow += 1 }
                if p.blue > 150 && p.red < 100 && p.green < 100 { blue += 1 }
            }
        }
        #expect(yellow > 200 * 40 / 2, "the box is filled yellow: \(yellow) pixels")
        #expect(blue > 20, "its words are blue: \(blue) pixels")
    }

    /// Words on several lines, or wider than the box the file gives them, are not what the painter draws (one line,
    /// cut at the box's edge): such a text box is left to readers, who wrap it inside its box; an Acrobat callout
    /// keeps its line (/CL) and its one arrowhead (/LE, a name).
    @Test func textBoxesThePainterWouldCutAreLeftToReadersAndCalloutsKeepTheirLine() throws {
        let folder = TemporaryFolder()
        let output = try imported("""
            <freetext page="0" rect="100,500,250,560" name="Lines" width="0"><contents>First paragraph.&#13;Second paragraph.</contents>
            <defaultappearance>/Helv 12 Tf 0 0 1 rg</defaultappearance></freetext>
            <freetext page="0" rect="100,400,160,420" name="Wide" width="0"><contents>Far too many words for so small a box</contents>
            <defaultappearance>/Helv 12 Tf 0 0 1 rg</defaultappearance></freetext>
            <freetext page="0" rect="300,600,420,640" name="Fits" width="0"><contents>Fits</contents>
            <defaultappearance>/Helv 12 Tf 0 0 1 rg</defaultappearance></freetext>
            <freetext page="0" rect="200,300,400,340" name="Callout" head="OpenArrow" callout="150,250,180,320,200,320" intent="FreeTextCallout">
            <contents>Look here</contents><defaultappearance>/Helv 12 Tf 0 0 0 rg</defaultappearance></freetext>
            """, in: folder)
        let drawn = try MuPDFProbe.annotations(in: output)[0].annotations
        #expect(drawn.first { $0.id == "Lines" }?.hasAppearance == false && drawn.first { $0.id == "Wide" }?.hasAppearance == false)
        #expect(drawn.first { $0.id == "Fits" }?.hasAppearance == true, "one short line is the painter's")
        #expect(drawn.first { $0.id == "Callout" }?.hasAppearance == false, "the painter draws no callout line")
        let text = try PopplerText.text(in: output, page: 1)
        // One line would be cut after "Far too"; poppler wraps the words inside the box, as far as it holds them.
        #expect(text.contains("Second paragraph") && text.contains("words for"), "poppler wraps the words: \(text)")
        let callout = try #require(try AnnotationProbe.read(output).first { $0.NM == "Callout" })
        #expect(callout.look["LE"] == .text("/OpenArrow") && callout.look["CL"] == .numbers([150, 250, 180, 320, 200, 320]), "\(callout.look)")
    }

    /// What a file holds that XFDF cannot say (a line ending of no standard name, an intent with a space) is read
    /// as the standard has it, so the file's export imports again.
    @Test func aFilesOddLineEndingsAndIntentsExportAsXFDFThatImportsAgain() throws {
        let folder = TemporaryFolder()
        let odd = folder.file("odd.pdf"), xfdf = folder.file("odd.xfdf"), back = folder.file("back.pdf")
        let script = """
            import pikepdf, sys
            pdf = pikepdf.open(sys.argv[1])
            line = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Line, NM="Odd",
                Rect=[100, 100, 200, 200], L=[100, 100, 200, 200], C=[1, 0, 0],
                LE=[pikepdf.Name("/Foo"), pikepdf.Name.OpenArrow], IT=pikepdf.Name("/Line Arrow")))
            pdf.pages[0].obj.Annots = pdf.make_indirect(pikepdf.Array([line]))
            pdf.save(sys.argv[2])
            """
        let made = try ProcessRunner.run(TestPaths.python, ["-c", script, TestPaths.sample, odd])
        try #require(made.status == 0, "\(made.stderr)")
        #expect(try redline("xfdf", "export", odd, "--output", xfdf).status == 0)
        let exported = try String(contentsOfFile: xfdf, encoding: .utf8)
        #expect(exported.contains(#"head="None" tail="OpenArrow""#) && !exported.contains("intent="), "\(exported)")
        let result = try redline("xfdf", "import", odd, xfdf, "--output", back)
        #expect(result.status == 0, "\(result.stderr)")
    }
}
