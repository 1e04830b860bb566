import Foundation
import RedlineCore
import TestSupport
import Testing

/// `redline flatten FILE --output OUT` on real annotated files: the copy has the annotations' look in its pages
/// (poppler and MuPDF draw the flattened page as they drew the annotated one) and no longer has them as annotations;
/// the page's own content streams are untouched, links stay, hidden review states go, and the file is clean.
@Suite struct FlattenCommandTests {
    func flatten(_ source: String, in folder: TemporaryFolder, password: String? = nil) throws -> (ProcessResult, String) {
        let output = folder.file("final.pdf")
        let result = try ProcessRunner.run(TestPaths.redline, ["flatten", source, "--output", output] + (password.map { ["--password", $0] } ?? []))
        return (result, output)
    }

    /// Pixels that differ by more than anti-aliasing between two renders of the same size.
    static func differing(_ a: RenderedPage, _ b: RenderedPage) -> Int {
        guard a.width == b.width, a.height == b.height else { return Int.max }
        var count = 0
        for y in 0..<a.height {
            for x in 0..<a.width where a.difference(from: b, x, y) > 30 { count += 1 }
        }
        return count
    }

    @Test(arguments: [("pdfjs_issue14438.pdf", 14, 0, 4), ("pdfcpu_text_annotations.pdf", 1, 7, 0)])
    func theFinalCopyLooksAsTheAnnotatedPageDidWithoutTheAnnotations(fixture: String, burned: Int, dropped: Int, kept: Int) throws {
        let folder = TemporaryFolder()
        let source = folder.copy(fixture: fixture)
        let (result, output) = try flatten(source, in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\(burned) annotation\(burned == 1 ? "" : "s") drawn into 1 page"), "\(result.stdout)")
        #expect(try QPDFCheck.errors(in: output) == nil)

        // MuPDF finds only what has no area to draw in (pdf.js's four inks with an empty /Rect, which no viewer draws).
        let left = try MuPDFProbe.annotations(in: output)[0].annotations
        #expect(left.count == kept && left.allSatisfy { $0.type == "Ink" }, "\(left.map(\.type))")
        if kept > 0 { #expect(result.stdout.contains("\(kept) stay annotations: ") && result.stdout.contains("(Ink, page 1: no area on the page)")) }
        if dropped > 0 { #expect(result.stdout.contains("\(dropped) hidden ones (review states, notes never shown) removed")) }

        // Drawn by two renderers: the page as it looked with its annotations, now with none.
        let mupdf = Self.differing(try MuPDFProbe.render(1, of: source), try MuPDFProbe.render(1, of: output))
        #expect(mupdf == 0, "MuPDF: \(mupdf) pixels differ")
        let poppler = Self.differing(try PopplerRender.page(1, of: source), try PopplerRender.page(1, of: output))
        // Poppler clips an annotation to its /Rect rounded to whole pixels: one pixel column at most.
        #expect(poppler <= 40, "poppler: \(poppler) pixels differ")

        // The page's own content streams are there, untouched, between the wrapper's `q` and what was drawn.
        let before = try PDFProbe.read(source).contents(ofPage: 0)
        let after = try PDFProbe.read(output).contents(ofPage: 0)
        #expect(after.count == before.count + 2 && Array(after.dropFirst().prefix(before.count)) == before)
    }

    /// The appearances are named in a new /XObject dictionary written beside the page's own: a scanned page keeps its
    /// image under its name, and looks as it did with the annotation, in MuPDF, pixel for pixel.
    @Test func aPagesOwnImagesStayNamedBesideTheAppearances() throws {
        let folder = TemporaryFolder()
        let markup = folder.file("markup.json"), annotated = folder.file("annotated.pdf")
        try #"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 60, "y": 80, "text": "Seen", "size": 18, "color": "red"}]}"#
            .write(toFile: markup, atomically: true, encoding: .utf8)
        let source = folder.copy(fixture: "pikepdf_sandwich.pdf")
        let applied = try ProcessRunner.run(TestPaths.redline, ["apply", source, "--markup", markup, "--annotations", "--output", annotated])
        #expect(applied.status == 0, "\(applied.stderr)")
        let (result, output) = try flatten(annotated, in: folder)
        #expect(result.status == 0 && result.stdout.hasPrefix("1 annotation drawn into 1 page"), "\(result.stdout) \(result.stderr)")
        #expect(try QPDFCheck.errors(in: output) == nil)
        let probe = "import pikepdf, sys\npdf = pikepdf.open(sys.argv[1])\npage = pdf.pages[0]\nprint(' '.join(sorted(str(key) for key in page.Resources.XObject.keys())))"
        let names = { (path: String) in
            try ProcessRunner.run(TestPaths.python, ["-c", probe, path]).stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        }
        let own = try names(source), flattened = try names(output)
        #expect(!own.isEmpty && Set(flattened) == Set(own + ["/RedlineAnnotation1"]), "\(own) → \(flattened)")
        #expect(try MuPDFProbe.annotations(in: output)[0].annotations.isEmpty)
        let differing = Self.differing(try MuPDFProbe.render(1, of: annotated), try MuPDFProbe.render(1, of: output))
        #expect(differing == 0, "MuPDF: \(differing) pixels differ")
    }

    /// A reply written in Redline has no appearance of its own, so flattening keeps it as an annotation; what it
    /// answered is drawn into the page, so it no longer points at it (an /IRT to an annotation no page lists) but
    /// stands alone as a note, with its words, and the report says so.
    @Test func aReplyToAnAnnotationDrawnIntoThePageStandsAlone() throws {
        let folder = TemporaryFolder()
        let source = folder.copy(fixture: "pdfjs_issue14438.pdf")
        let note = try #require(try AnnotationProbe.read(source).first { $0.subtype == "/Text" && $0.NM != nil })
        let replied = folder.file("replied.pdf")
        let reply = try ProcessRunner.run(TestPaths.redline, ["reply", source, "--to", note.NM!, "--text", "Done, thanks", "--output", replied])
        try #require(reply.status == 0, "\(reply.stderr)")
        let (result, output) = try flatten(replied, in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("what it answers is drawn into the page, so it stands alone"), "\(result.stdout)")
        #expect(try QPDFCheck.errors(in: output) == nil)
        let left = try AnnotationProbe.read(output)
        #expect(!left.contains { $0.NM == note.NM }, "the note is part of the page now")
        let kept = try #require(left.first { $0.Contents == "Done, thanks" }, "the reply's words stay")
        #expect(kept.IRTObject == nil && kept.RT == nil, "it answers nothing that is gone")
    }

    /// A book's links are navigation, not review: they stay, and pages without markup annotations are not touched.
    @Test func linksStayAndUnannotatedPagesAreUntouched() throws {
        let folder = TemporaryFolder()
        let source = folder.copy(fixture: "pypdf_GeoTopo-komprimiert.pdf")
        let (result, output) = try flatten(source, in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("no markup annotations to flatten: the copy holds the document as it was"), "\(result.stdout)")
        let before = try PDFProbe.read(source), after = try PDFProbe.read(output)
        #expect(after.pageCount == before.pageCount)
        for index in 0..<before.pageCount {
            #expect(after.value("annots", ofPage: index) == before.value("annots", ofPage: index), "page \(index + 1)'s links")
            #expect(after.contents(ofPage: index) == before.contents(ofPage: index))
        }
    }

    /// Redline's own annotations (`apply --annotations`) on a page turned by /Rotate 90 flatten to the same look.
    @Test func redlinesOwnAnnotationsOnATurnedPageFlattenToTheirLook() throws {
        let folder = TemporaryFolder()
        let source = folder.copy(fixture: "qpdf_inherited-rotate.pdf")
        let markup = folder.file("markup.json")
        try """
        {"version": 1, "items": [
          {"page": 1, "kind": "text", "x": 60, "y": 80, "text": "Flattened note", "size": 18, "color": "red"},
          {"page": 1, "kind": "ink", "strokes": [[[40, 200], [120, 260], [200, 210]]], "width": 3, "color": "blue"}
        ]}
        """.write(toFile: markup, atomically: true, encoding: .utf8)
        let annotated = folder.file("annotated.pdf")
        let applied = try ProcessRunner.run(TestPaths.redline, ["apply", source, "--markup", markup, "--annotations", "--output", annotated])
        try #require(applied.status == 0, "\(applied.stderr)")
        let (result, output) = try flatten(annotated, in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("2 annotations drawn into 1 page"), "\(result.stdout)")
        // The last line says how the copy was written: appended to the annotated file's bytes, which come first.
        let (copy, original) = (try #require(FileManager.default.contents(atPath: output)), try #require(FileManager.default.contents(atPath: annotated)))
        #expect(copy.prefix(original.count) == original)
        #expect(result.stdout.hasSuffix("\(output): \(WriteOutcome.appended(bytes: copy.count - original.count))\n"), "\(result.stdout)")
        #expect(try MuPDFProbe.annotations(in: output)[0].annotations.isEmpty)
        #expect(Self.differing(try MuPDFProbe.render(1, of: annotated), try MuPDFProbe.render(1, of: output)) == 0)
        #expect(Self.differing(try PopplerRender.page(1, of: annotated), try PopplerRender.page(1, of: output)) <= 40)
        #expect(try PopplerText.text(in: output, page: 0).contains("Flattened note"), "the note's words are in the page now")
    }

    /// Encryption is kept with its passwords; a wrong one writes nothing; an unwritable place leaves nothing behind.
    @Test func encryptedFilesStayEncryptedAndFailuresWriteNothing() throws {
        let folder = TemporaryFolder()
        let source = folder.copy(fixture: "qpdf_enc-XI-R6_V5_U-view.pdf")
        let (wrong, output) = try flatten(source, in: folder, password: "nope")
        #expect(wrong.status == 2 && !FileManager.default.fileExists(atPath: output), "\(wrong.stderr)")
        let (right, _) = try flatten(source, in: folder, password: "view")
        #expect(right.status == 0, "\(right.stderr)")
        #expect(try PDFProbe.read(output, password: "view").pageCount == 30)
        #expect((try? PDFProbe.read(output)) == nil, "the copy still asks for its password")
        let nowhere = try ProcessRunner.run(TestPaths.redline, ["flatten", TestPaths.fixture("pdfcpu_text_annotations.pdf"),
                                                                "--output", folder.file("missing/final.pdf")])
        #expect(nowhere.status == 3, "\(nowhere.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("missing")))
    }
    /// A file cut short is the input's fault: exit 2 naming it, nothing written, for flatten and apply alike.
    @Test func aFileCutShortIsTheInputsFault() throws {
        let folder = TemporaryFolder()
        let cut = folder.file("cut.pdf")
        let whole = try #require(FileManager.default.contents(atPath: TestPaths.sample))
        try whole.prefix(1620).write(to: URL(fileURLWithPath: cut))
        let markup = folder.file("markup.json")
        try #"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 72, "y": 100, "text": "Hi"}]}"#
            .write(toFile: markup, atomically: true, encoding: .utf8)
        for arguments in [["flatten", cut, "--output", folder.file("out.pdf")],
                          ["apply", cut, "--markup", markup, "--output", folder.file("out.pdf")]] {
            let result = try ProcessRunner.run(TestPaths.redline, arguments)
            #expect(result.status == 2 && result.stderr.hasPrefix("redline: \(cut): not a usable PDF"), "\(arguments[0]): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.file("out.pdf")))
        }
    }

    /// Permissions that forbid changing annotations bind a user, not the document's owner: their password lifts them.
    @Test func theOwnersPasswordLiftsTheAnnotationPermission() throws {
        let folder = TemporaryFolder()
        let restricted = folder.file("restricted.pdf")
        try ProcessRunner.run("qpdf", ["--encrypt", "", "owner", "256", "--annotate=n", "--modify=none", "--",
                                       TestPaths.fixture("pdfcpu_text_annotations.pdf"), restricted])
        let (refused, output) = try flatten(restricted, in: folder)
        #expect(refused.status == 3 && refused.stderr.contains("permissions do not allow changing annotations"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let (owner, _) = try flatten(restricted, in: folder, password: "owner")
        #expect(owner.status == 0 && owner.stdout.hasPrefix("1 annotation drawn into 1 page"), "\(owner.stdout) \(owner.stderr)")
        #expect(try MuPDFProbe.annotations(in: output)[0].annotations.isEmpty)
    }

    /// A final copy appended to the original still holds the comments it drew in (the original's bytes come first):
    /// flatten says so, and `--rewrite` (or save_strategy = "rewrite") writes a copy in which none of their words is left.
    @Test func aFinalCopyCanLeaveOutTheCommentsItDrewIn() throws {
        let folder = TemporaryFolder()
        let source = TestPaths.fixture("pdfcpu_text_annotations.pdf")
        let words = Data("set by reviewer".utf8)
        #expect(try #require(FileManager.default.contents(atPath: source)).range(of: words) != nil)
        let (appended, output) = try flatten(source, in: folder)
        try #require(appended.status == 0, "\(appended.stderr)")
        #expect(try #require(FileManager.default.contents(atPath: output)).range(of: words) != nil)
        #expect(appended.stderr.contains("the flattened comments can still be read from this copy; flatten --rewrite writes one without them"),
                "\(appended.stderr)")

        let rewritten = folder.file("rewritten.pdf")
        let asked = try ProcessRunner.run(TestPaths.redline, ["flatten", source, "--output", rewritten, "--rewrite"])
        try #require(asked.status == 0, "\(asked.stderr)")
        #expect(try #require(FileManager.default.contents(atPath: rewritten)).range(of: words) == nil)
        #expect(asked.stdout.hasSuffix("\(rewritten): \(WriteOutcome.rewritten(because: WriteOutcome.rewriteAsked))\n"), "\(asked.stdout)")
        #expect(!asked.stderr.contains("still be read"), "\(asked.stderr)")
        #expect(try QPDFCheck.errors(in: rewritten) == nil)

        let config = folder.file("config")
        try FileManager.default.createDirectory(atPath: config + "/redline", withIntermediateDirectories: true)
        try "save_strategy = \"rewrite\"\n".write(toFile: config + "/redline/config.toml", atomically: true, encoding: .utf8)
        let configured = folder.file("configured.pdf")
        let fromConfig = try ProcessRunner.run(TestPaths.redline, ["flatten", source, "--output", configured], environment: ["XDG_CONFIG_HOME": config])
        try #require(fromConfig.status == 0, "\(fromConfig.stderr)")
        #expect(try #require(FileManager.default.contents(atPath: configured)).range(of: words) == nil)
    }

}
