import Foundation
import TestSupport
import Testing

/// Shapes applied from a markup file, flattened and as annotations, read back by MuPDF and pikepdf and drawn by
/// poppler and MuPDF where the markup put them, on an upright page and on a page turned by /Rotate 90; carried by
/// XFDF into another copy; and on every fixture.
@Suite struct ShapesInFilesTests {
    /// Page 1 (612 × 792) holds one of each kind in its empty lower half; page 3 (shown 792 × 612) a rectangle and
    /// an arrow.
    static let markup = """
        {"version": 1, "items": [
          {"page": 1, "kind": "rectangle", "points": [[72, 400], [272, 500]], "width": 4, "color": "red"},
          {"page": 1, "kind": "ellipse", "points": [[300, 400], [500, 500]], "color": "blue", "fill": true},
          {"page": 1, "kind": "line", "points": [[72, 560], [272, 560]], "color": "black"},
          {"page": 1, "kind": "arrow", "points": [[300, 560], [500, 560]], "color": "purple", "comment": "Move this \\"up\\" <here>\\nplease"},
          {"page": 1, "kind": "polygon", "points": [[72, 620], [272, 620], [172, 720]], "color": "green", "fill": true},
          {"page": 1, "kind": "polyline", "points": [[300, 620], [400, 720], [500, 620]], "width": 3, "color": "red"},
          {"page": 1, "kind": "stamp", "points": [[400, 730], [560, 775]], "name": "Approved"},
          {"page": 1, "kind": "stamp", "points": [[72, 730], [222, 770]], "name": "Seen by QA", "color": "blue"},
          {"page": 3, "kind": "rectangle", "points": [[100, 300], [300, 450]], "width": 3, "color": "blue"},
          {"page": 3, "kind": "arrow", "points": [[400, 500], [700, 500]], "width": 2, "color": "black"}
        ]}
        """

    enum Expected { case red, blue, green, purple, dark, paper }

    /// Where each shape must show and where it must not, in display points (pixels at 72 dpi).
    static let probes: [Int: [(x: Int, y: Int, Expected)]] = [
        1: [(172, 402, .red), (172, 450, .paper), (74, 450, .red),     // the rectangle's top and left edges, its inside
            (400, 450, .blue), (302, 402, .paper),                     // the ellipse filled; its box's corner is not
            (172, 560, .dark), (172, 567, .paper),                      // the line
            (400, 560, .purple),                                        // the arrow
            (172, 650, .green), (75, 715, .paper),                      // the polygon filled; outside its slope
            (350, 670, .red), (400, 660, .paper),                       // the polyline, open between its ends
            (147, 732, .blue), (74, 750, .blue)],                       // the stamp of one's own words, its frame
        3: [(200, 301, .blue), (200, 375, .paper), (550, 500, .dark)],
    ]

    static func matches(_ pixel: (red: Int, green: Int, blue: Int), _ expected: Expected) -> Bool {
        let (r, g, b) = pixel
        switch expected {
        case .red: return r > 150 && g < 90 && b < 90
        case .blue: return b > 150 && r < 90 && g < 130
        case .green: return g > 150 && r < 120 && b < 150
        case .purple: return r > 80 && b > 130 && g < 90
        case .dark: return r + g + b < 200
        case .paper: return r > 225 && g > 225 && b > 225
        }
    }

    /// The standard stamp's frame, as Redline draws it. Imported from XFDF, which carries no appearance, a standard
    /// stamp is drawn by each reader as its own picture of it (poppler's is teal); one of the reviewer's own words,
    /// which readers do not know, Redline draws again as it was.
    static let stampProbes: [(x: Int, y: Int, Expected)] = [(480, 732, .red), (402, 752, .red), (480, 773, .red)]

    static func checkPixels(_ path: String, renderer: String, stamp: Bool = true) throws {
        for (page, probes) in Self.probes.mapValues({ $0 }).merging(stamp ? [1: Self.probes[1]! + Self.stampProbes] : [:], uniquingKeysWith: { $1 }) {
            let picture = renderer == "mupdf" ? try MuPDFProbe.render(page, of: path) : try PopplerRender.page(page, of: path)
            for (x, y, expected) in probes {
                #expect(Self.matches(picture.rgb(x, y), expected), "\(renderer), page \(page) at (\(x), \(y)): \(picture.rgb(x, y)), not \(expected)")
            }
        }
    }

    func apply(_ source: String, _ markup: String, annotations: Bool, to output: String) throws {
        let result = try ProcessRunner.run(TestPaths.redline, ["apply", source, "--markup", markup, "--output", output] + (annotations ? ["--annotations"] : []))
        try #require(result.status == 0, "\(result.stderr)")
        let check = try ProcessRunner.run("qpdf", ["--check", output])
        #expect(check.status == 0, "\(check.stdout)")
    }

    @Test func flattenedShapesAreDrawnWhereTheMarkupPutThem() throws {
        let folder = TemporaryFolder()
        let markup = folder.file("shapes.json"), output = folder.file("flat.pdf")
        try Self.markup.write(toFile: markup, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.run(TestPaths.redline, ["apply", TestPaths.sample, "--markup", markup, "--output", output])
        try #require(result.status == 0, "\(result.stderr)")
        // The arrow's comment has no place on a flattened page, and the user is told.
        #expect(result.stderr.contains("1 comment is not in a flattened copy: --annotations keeps it"), "\(result.stderr)")
        #expect(try MuPDFProbe.annotations(in: output).allSatisfy(\.annotations.isEmpty))
        try Self.checkPixels(output, renderer: "poppler")
        try Self.checkPixels(output, renderer: "mupdf")
    }

    @Test func shapesAsAnnotationsAreTheKindsReadersKnowAndDrawWhereTheyWereMade() throws {
        let folder = TemporaryFolder()
        let markup = folder.file("shapes.json"), output = folder.file("annotated.pdf")
        try Self.markup.write(toFile: markup, atomically: true, encoding: .utf8)
        try apply(TestPaths.sample, markup, annotations: true, to: output)
        let pages = try MuPDFProbe.annotations(in: output)
        #expect(pages[0].annotations.map(\.type) == ["Square", "Circle", "Line", "Line", "Polygon", "PolyLine", "Stamp", "Stamp"])
        #expect(pages[2].annotations.map(\.type) == ["Square", "Line"])
        // Lines and polygons carry their points, in display space on the turned page as on the upright one.
        func points(_ annotation: MuPDFAnnotation) -> [[Double]] { annotation.points.map { $0.map { ($0 * 100).rounded() / 100 } } }
        #expect(points(pages[0].annotations[4]) == [[72, 620], [272, 620], [172, 720]])
        #expect(points(pages[0].annotations[5]) == [[300, 620], [400, 720], [500, 620]])
        #expect(points(pages[2].annotations[1]) == [[400, 500], [700, 500]])
        #expect(pages.flatMap(\.annotations).allSatisfy { $0.hasAppearance })
        // The arrow's comment is its /Contents, as readers show it in its popup.
        #expect(pages[0].annotations[3].content == "Move this \"up\" <here>\nplease")
        // The keys: the arrow's head, the fills, where the rectangle's box stands inside its /Rect.
        let held = try AnnotationProbe.read(output)
        let arrow = try #require(held.first { $0.page == 1 && $0.look["LE"] != nil })
        #expect(arrow.look["LE"] == .texts(["/None", "/OpenArrow"]))
        #expect(held.filter { $0.look["IC"] != nil }.map(\.subtype) == ["/Circle", "/Polygon"])
        let square = try #require(held.first { $0.page == 1 && $0.subtype == "/Square" })
        #expect(square.look["RD"] == .numbers([1, 1, 1, 1]) && square.rect == [71, 291, 273, 393])
        // The stamp's box is its /Rect, its name the standard one.
        let stamp = try #require(held.first { $0.subtype == "/Stamp" })
        #expect(stamp.rect == [400, 17, 560, 62])
        try Self.checkPixels(output, renderer: "poppler")
        try Self.checkPixels(output, renderer: "mupdf")

        // Carried by XFDF into a fresh copy: the same annotations, drawn the same.
        let xfdf = folder.file("shapes.xfdf"), imported = folder.file("imported.pdf")
        let export = try ProcessRunner.run(TestPaths.redline, ["xfdf", "export", output, "--output", xfdf])
        try #require(export.status == 0, "\(export.stderr)")
        let load = try ProcessRunner.run(TestPaths.redline, ["xfdf", "import", TestPaths.sample, xfdf, "--output", imported])
        try #require(load.status == 0, "\(load.stderr)")
        let again = try MuPDFProbe.annotations(in: imported)
        #expect(again.map { $0.annotations.map(\.type) } == pages.map { $0.annotations.map(\.type) })
        #expect(zip(again.flatMap(\.annotations), pages.flatMap(\.annotations)).allSatisfy { points($0) == points($1) })
        #expect(try AnnotationProbe.read(imported).map(\.look) == held.map(\.look))
        try Self.checkPixels(imported, renderer: "poppler", stamp: false)
        try Self.checkPixels(imported, renderer: "mupdf", stamp: false)
    }

    /// On page 3 (/Rotate 90, shown 792 × 612): notes stay upright where they were put, in poppler (which keeps
    /// every note upright) and in MuPDF alike, and so in Redline reopening the file; a note's popup opens on the
    /// page even from its corner; a callout's /RD says where its words are in the page's own coordinates, as /Rect
    /// does. Read back, from the file and through XFDF, each is where it was put.
    @Test func notesStayUprightAndCalloutsKeepTheirWordsBoxOnATurnedPage() throws {
        let folder = TemporaryFolder()
        let markup = folder.file("turned.json"), output = folder.file("turned.pdf")
        try """
            {"version": 1, "items": [
              {"page": 3, "kind": "note", "points": [[400, 300]], "comment": "upright"},
              {"page": 3, "kind": "note", "points": [[772, 592]], "comment": "in the corner"},
              {"page": 3, "kind": "text", "x": 300, "y": 200, "text": "Why?", "size": 12, "color": "blue", "callout": [150, 100]},
              {"page": 1, "kind": "note", "points": [[592, 772]], "comment": "upright page, corner"}
            ]}
            """.write(toFile: markup, atomically: true, encoding: .utf8)
        try apply(TestPaths.sample, markup, annotations: true, to: output)
        for picture in [try PopplerRender.page(3, of: output), try MuPDFProbe.render(3, of: output)] {
            #expect(Self.matches(picture.rgb(410, 303), .paper) == false && picture.rgb(410, 303).blue < 120, "the note's yellow where it was put")
            #expect(Self.matches(picture.rgb(430, 310), .paper), "nothing an icon's width to the right")
            #expect(Self.matches(picture.rgb(418, 301), .paper) && !Self.matches(picture.rgb(401, 318), .paper),
                    "upright: its folded corner at the top right")
        }
        let held = try AnnotationProbe.read(output)
        for note in held where note.subtype == "/Text" {
            guard case .numbers(let popup)? = note.look["popup rect"] else { Issue.record("no popup: \(note.look)"); continue }
            #expect(popup[0] >= 0 && popup[1] >= 0 && popup[2] <= 612 && popup[3] <= 792, "the popup on the page: \(popup)")
            #expect(note.F & 16 != 0, "NoRotate, as Acrobat writes notes")
        }
        // The callout's words, in the page's own coordinates: /Rect less /RD (shown at x 300–, y 200– on screen,
        // which is user x 200–, y 300– on this page).
        let callout = try #require(held.first { $0.subtype == "/FreeText" })
        guard case .numbers(let fringe)? = callout.look["RD"] else { Issue.record("no /RD"); return }
        #expect(abs(callout.rect[0] + fringe[0] - 199) < 0.01 && abs(callout.rect[1] + fringe[3] - 299) < 0.01, "\(callout.rect) \(fringe)")
        // Read back: where they were put, from the file and through XFDF.
        let xfdf = folder.file("turned.xfdf"), imported = folder.file("imported.pdf")
        try #require(try ProcessRunner.run(TestPaths.redline, ["xfdf", "export", output, "--output", xfdf]).status == 0)
        try #require(try ProcessRunner.run(TestPaths.redline, ["xfdf", "import", TestPaths.sample, xfdf, "--output", imported]).status == 0)
        #expect(try AnnotationProbe.read(imported).filter { $0.subtype != "/Popup" }.map(\.look["RD"]) == held.filter { $0.subtype != "/Popup" }.map(\.look["RD"]))
        for file in [output, imported] {
            let listed = try ProcessRunner.run(TestPaths.redline, ["annotations", file, "--json"])
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
            let rects = entries.filter { $0["type"] as? String == "Text" }.compactMap { $0["rect"] as? [Double] }
            #expect(rects == [[592, 772, 612, 792], [400, 300, 420, 320], [772, 592, 792, 612]], "\(file): \(rects)")
        }
    }

    /// Callouts pointing at the page's corners and edges (their /Rect cut at the page's edge, their arrow reaching to
    /// it) come back from XFDF drawn as they were, upright page and turned: the same pixels in poppler and MuPDF.
    @Test func calloutsPointingAtThePagesEdgesComeBackFromXFDFAsTheyWere() throws {
        let folder = TemporaryFolder()
        let markup = folder.file("edges.json"), output = folder.file("edges.pdf")
        try """
            {"version": 1, "items": [
              {"page": 1, "kind": "text", "x": 100, "y": 100, "text": "to 0,0", "callout": [0, 0]},
              {"page": 1, "kind": "text", "x": 100, "y": 200, "text": "to 5,5", "callout": [5, 5]},
              {"page": 1, "kind": "text", "x": 400, "y": 600, "text": "to the far corner", "callout": [612, 792]},
              {"page": 1, "kind": "text", "x": 300, "y": 400, "text": "away from the edges", "callout": [200, 300]},
              {"page": 3, "kind": "text", "x": 300, "y": 300, "text": "turned, to 0,0", "callout": [0, 0]}
            ]}
            """.write(toFile: markup, atomically: true, encoding: .utf8)
        try apply(TestPaths.sample, markup, annotations: true, to: output)
        let xfdf = folder.file("edges.xfdf"), imported = folder.file("imported.pdf")
        try #require(try ProcessRunner.run(TestPaths.redline, ["xfdf", "export", output, "--output", xfdf]).status == 0)
        try #require(try ProcessRunner.run(TestPaths.redline, ["xfdf", "import", TestPaths.sample, xfdf, "--output", imported]).status == 0)
        #expect(try MuPDFProbe.annotations(in: imported).flatMap(\.annotations).filter { $0.type == "FreeText" }.allSatisfy(\.hasAppearance))
        for page in [1, 3] {
            #expect(try PopplerRender.page(page, of: imported).ppmPixels == PopplerRender.page(page, of: output).ppmPixels, "poppler, page \(page)")
            #expect(try MuPDFProbe.render(page, of: imported).ppmPixels == MuPDFProbe.render(page, of: output).ppmPixels, "MuPDF, page \(page)")
        }
    }

    /// A file's stamp of one's own words whose comment changes through XFDF keeps the picture it had (Acrobat's
    /// stamps are images, which a frame and words would replace); its comment is the new one.
    @Test func aStampWhoseCommentChangesThroughXFDFKeepsItsPicture() throws {
        let folder = TemporaryFolder()
        let markup = folder.file("stamp.json"), annotated = folder.file("annotated.pdf"), xfdf = folder.file("stamp.xfdf")
        let changed = folder.file("changed.xfdf"), output = folder.file("imported.pdf")
        try #"{"version": 1, "items": [{"page": 1, "kind": "stamp", "points": [[72, 600], [222, 640]], "name": "Seen by QA", "comment": "First"}]}"#
            .write(toFile: markup, atomically: true, encoding: .utf8)
        try apply(TestPaths.sample, markup, annotations: true, to: folder.file("redline.pdf"))
        // Its picture made another program's (a green box), as Acrobat's stamps are its own images.
        let painted = try ProcessRunner.run(TestPaths.python, ["-c", """
            import pikepdf, sys
            pdf = pikepdf.open(sys.argv[1])
            annot = pdf.pages[0].obj.Annots[0]
            annot.AP.N.write(b"0 0.6 0 rg 0 0 150 40 re f")
            pdf.save(sys.argv[2])
            """, folder.file("redline.pdf"), annotated])
        try #require(painted.status == 0, "\(painted.stderr)")
        let export = try ProcessRunner.run(TestPaths.redline, ["xfdf", "export", annotated, "--output", xfdf])
        try #require(export.status == 0, "\(export.stderr)")
        try String(contentsOfFile: xfdf, encoding: .utf8).replacingOccurrences(of: ">First<", with: ">Second<")
            .write(toFile: changed, atomically: true, encoding: .utf8)
        let load = try ProcessRunner.run(TestPaths.redline, ["xfdf", "import", annotated, changed, "--output", output])
        try #require(load.status == 0, "\(load.stderr)")
        let before = try #require(try MuPDFProbe.annotations(in: annotated)[0].annotations.first)
        let after = try #require(try MuPDFProbe.annotations(in: output)[0].annotations.first)
        #expect(after.content == "Second" && before.content == "First")
        #expect(after.appearanceDigest != nil && after.appearanceDigest == before.appearanceDigest)
    }

    /// Every fixture: a rectangle across the middle of its first page, flattened and as an annotation, shows its
    /// edge there in poppler's picture, whatever the page's boxes and rotation.
    @Test(arguments: XFDFCommandTests.everyFixture)
    func aRectangleShowsWhereItWasPutOnEveryFixture(file: String) throws {
        let folder = TemporaryFolder()
        let source = folder.copy(fixture: file)
        let listing = try ProcessRunner.run(TestPaths.redline, ["annotations", source, "--json"])
        try #require(listing.status == 0, "\(listing.stderr)")
        let first = try PopplerRender.page(1, of: source)
        let (width, height) = (Double(first.width), Double(first.height))
        let markup = folder.file("box.json")
        try #"{"version": 1, "items": [{"page": 1, "kind": "rectangle", "points": [[\#(width / 4), \#(height / 4)], [\#(width * 3 / 4), \#(height * 3 / 4)]], "width": 6, "color": "red"}]}"#
            .write(toFile: markup, atomically: true, encoding: .utf8)
        for annotations in [false, true] {
            let output = folder.file(annotations ? "annotated.pdf" : "flat.pdf")
            try apply(source, markup, annotations: annotations, to: output)
            let picture = try PopplerRender.page(1, of: output)
            let top = (Int(width / 2), Int(height / 4 + 3)), left = (Int(width / 4 + 3), Int(height / 2))
            for (x, y) in [top, left] {
                #expect(Self.matches(picture.rgb(x, y), .red), "\(file), \(annotations ? "annotation" : "flattened"): \(picture.rgb(x, y)) at (\(x), \(y))")
            }
        }
    }
}
