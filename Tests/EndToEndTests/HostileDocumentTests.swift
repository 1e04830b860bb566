import Foundation
import TestSupport
import Testing

/// The reproducers in Tests/Fixtures/hostile (each named for its case in the README there) on the real
/// binary: whatever a document holds, every command exits with one of Redline's codes and one line at most,
/// prints nothing a terminal would act on, and finishes.
@Suite struct HostileDocumentTests {
    static let folder = TestPaths.fixture("hostile")
    static let fixtures = (try? FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".pdf") }.sorted()) ?? []
    static let markup = #"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 72, "y": 72, "text": "Checked"}]}"#

    func fixture(_ name: String) -> String { Self.folder + "/" + name }

    func words(_ path: String, page: Int) throws -> [String] {
        try PopplerText.words(in: path, page: page).map(\.text)
    }

    @Test(arguments: fixtures)
    func everyCommandFinishesCleanlyOn(_ name: String) throws {
        let command = try RedlineCommand()
        let markup = command.folder.file("markup.json")
        try Self.markup.write(toFile: markup, atomically: true, encoding: .utf8)
        let output = command.folder.file("out.pdf")
        for arguments in [["annotations", fixture(name)], ["annotations", fixture(name), "--json"],
                          ["bookmarks", fixture(name)], ["bookmarks", fixture(name), "--json"],
                          ["apply", fixture(name), "--markup", markup, "--output", output],
                          ["flatten", fixture(name), "--output", output]] {
            // A liveness guard far above the second these take: 20,000 annotations once took over a minute.
            let result = try command.run(arguments, timeLimit: 45)
            #expect(result.problems.isEmpty, "\(arguments[0]) \(name): \(result.problems)")
            if arguments.contains("--json"), result.status == 0 {
                #expect((try? JSONSerialization.jsonObject(with: result.stdoutBytes)) != nil, "\(arguments[0]) \(name): JSON")
            }
            if arguments[0] == "apply" || arguments[0] == "flatten", result.status == 0 {
                let pages = try ProcessRunner.run("qpdf", ["--show-npages", output]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                #expect(Int(pages) ?? 0 > 0, "\(arguments[0]) \(name) wrote a copy qpdf cannot open")
            }
        }
    }

    @Test(arguments: ["rotate-1e19.pdf", "rotate-real-1e19.pdf", "rotate-int64-max.pdf", "rotate-not-a-multiple.pdf"])
    func aRotationOutOfRangeIsNoRotation(_ name: String) throws {
        let command = try RedlineCommand()
        let markup = command.folder.file("markup.json")
        try Self.markup.write(toFile: markup, atomically: true, encoding: .utf8)
        let output = command.folder.file("out.pdf")
        let result = try command.run(["apply", fixture(name), "--markup", markup, "--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        // Placed as on an unrotated page, where poppler draws it too.
        let word = try #require(try PopplerText.words(in: output, page: 1).first { $0.text == "Checked" })
        #expect(abs(word.xMin - 72) <= 1 && abs(word.yMin - 72) <= 1, "\(word)")
    }

    @Test func flagsAndRectanglesOutOfRangeReadAsAbsent() throws {
        let command = try RedlineCommand()
        for name in ["annotation-flags-real-1e19.pdf", "annotation-rect-400-digit-real.pdf"] {
            let result = try command.run(["annotations", fixture(name), "--json"])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            let listed = try #require(try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [[String: Any]])
            #expect(listed.count == 1, "\(name): the annotation is still listed")
            if name.contains("rect") { #expect(listed.first?["rect"] as? [Double] == [0, 792, 0, 792], "an unusable /Rect is no area") }
        }
    }

    @Test func aPageLargerThanAnyPrinterStillTakesMarkup() throws {
        let command = try RedlineCommand()
        let markup = command.folder.file("markup.json")
        // Page 1 is the oversized one.
        try #"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 72, "y": 72, "text": "Checked"}]}"#
            .write(toFile: markup, atomically: true, encoding: .utf8)
        for name in ["mediabox-real-1e20.pdf", "mediabox-negative-huge.pdf"] {
            let output = command.folder.file("out-\(name)")
            let result = try command.run(["apply", fixture(name), "--markup", markup, "--output", output])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            #expect(try QPDFCheck.errors(in: output) == nil)
            #expect(try ProcessRunner.run("qpdf", ["--show-npages", output]).stdout.hasPrefix("2"))
        }
    }

    /// A file cut short: qpdf's repair finds every page, but what lay past the cut (fonts, content streams) is gone and
    /// a copy shows those pages blank. The save still goes ahead (what is left is the user's), and says which pages
    /// lost what; the pages it names are exactly those the copy shows without their words, cut at several places
    /// (cut before its page tree, it is refused).
    /// A content stream whose /Length is wrong in a file without a cross-reference: qpdf's own rebuild trusts the
    /// length and loses the page when it is near 2^63; the data runs to `endstream`, where MuPDF finds it too.
    @Test(arguments: ["9223372036854775807", "18446744073709551616", "10", "-5", "11 0 R", "99 0 R"])
    func aStreamWhoseLengthIsWrongIsReadToItsEndstream(length: String) throws {
        let command = try RedlineCommand()
        let original = try String(contentsOfFile: fixture("stream-length-int64-max-no-xref.pdf"), encoding: .isoLatin1)
        let damaged = command.folder.file("damaged.pdf"), output = command.folder.file("out.pdf")
        try original.replacingOccurrences(of: "/Length 9223372036854775807", with: "/Length \(length)")
            .write(toFile: damaged, atomically: true, encoding: .isoLatin1)
        let markup = command.folder.file("markup.json")
        try Self.markup.write(toFile: markup, atomically: true, encoding: .utf8)
        let result = try command.run(["apply", damaged, "--markup", markup, "--output", output])
        #expect(result.status == 0 && !result.stderr.contains("could not be read whole"), "\(length): \(result.stderr)")
        #expect(try PopplerText.text(in: output, page: 1).contains("Page one: review copy"), "\(length)")
        #expect(try PopplerText.text(in: output, page: 2).contains("Page two: appendix"), "\(length)")
        let listed = try command.run(["annotations", damaged, "--json"])
        #expect(listed.status == 0 && listed.stdout.contains("comment-1"), "\(length): \(listed.stderr)")
    }

    /// An integer past 64 bits makes qpdf refuse the whole object holding it: a page whose /MediaBox or /Rotate has
    /// one was lost with its words, a content stream's dictionary took its page's words, a note its comment. Poppler
    /// and MuPDF read such a number as a real; so does Redline, wherever it stands, and digits in strings stay digits.
    @Test(arguments: [
        ("mediabox-20-digits.pdf", "", ""),
        ("rotate-huge-digits.pdf", "", ""),
        ("mediabox-20-digits.pdf", "/MediaBox [0 0 100000000000000000000 792]", "/MediaBox [0 0 612 792] /Rotate -99999999999999999999"),
        ("mediabox-20-digits.pdf", "<< /Length 52 >>", "<< /Length 52 /Redline 123456789012345678901234 >>"),
        ("mediabox-20-digits.pdf", "/Contents (Please check the totals)",
         "/Contents (Please check the totals 123456789012345678901234) /Redline [<< /N 123456789012345678901234 >>]"),
    ])
    func aNumberTooLongFor64BitsIsReadAsAReal(name: String, replacing: String, with: String) throws {
        let command = try RedlineCommand()
        let damaged = command.folder.file("damaged.pdf"), output = command.folder.file("out.pdf")
        let original = try String(contentsOfFile: fixture(name), encoding: .isoLatin1)
        #expect(replacing.isEmpty || original.contains(replacing))
        try (replacing.isEmpty ? original : original.replacingOccurrences(of: replacing, with: with))
            .write(toFile: damaged, atomically: true, encoding: .isoLatin1)
        let markup = command.folder.file("markup.json")
        try Self.markup.write(toFile: markup, atomically: true, encoding: .utf8)
        for arguments in [["apply", damaged, "--markup", markup, "--output", output], ["flatten", damaged, "--output", output]] {
            let result = try command.run(arguments)
            #expect(result.status == 0, "\(arguments[0]) \(name) \(with): \(result.stderr)")
            #expect(try PopplerText.text(in: output, page: 1).contains("Page one: review copy"), "\(arguments[0]) \(name) \(with)")
            #expect(try PopplerText.text(in: output, page: 2).contains("Page two: appendix"), "\(arguments[0]) \(name) \(with)")
            #expect(try QPDFCheck.errors(in: output) == nil)
        }
        let listed = try command.run(["annotations", damaged, "--json"])
        let notes = try #require(try JSONSerialization.jsonObject(with: listed.stdoutBytes) as? [[String: Any]])
        let expected = with.contains("totals 1") ? "Please check the totals 123456789012345678901234" : "Please check the totals"
        #expect(notes.map { $0["contents"] as? String } == [expected], "\(name) \(with)")
    }

    /// The same in a file whose cross-reference is intact: qpdf reads such an object only when a page or the save asks
    /// for it, after the file opened cleanly, and the copy lacked it (page 1's words, the note). The save is made again
    /// from the mended reading, appended or rewritten; the listing reads the note from it too.
    @Test(arguments: [
        ("<< /Length 52 >>", "<< /Length 9223372036854775807 >>"),
        ("<< /Length 52 >>", "<< /Length 18446744073709551616 >>"),
        ("<< /Length 52 >>", "<< /Length 52 /Redline -123456789012345678901234 >>"),
        ("/Contents (Please check the totals)", "/Contents (Please check the totals) /Redline 123456789012345678901234"),
    ])
    func anObjectQpdfCannotReadInAnIntactFileIsMended(replacing: String, with: String) throws {
        let command = try RedlineCommand()
        let damaged = command.folder.file("damaged.pdf"), output = command.folder.file("out.pdf")
        let original = try String(contentsOfFile: fixture("mediabox-20-digits.pdf"), encoding: .isoLatin1)
            .replacingOccurrences(of: "100000000000000000000", with: "612")
        #expect(original.contains(replacing))
        try Self.withCrossReferenceTable(original.replacingOccurrences(of: replacing, with: with))
            .write(toFile: damaged, atomically: true, encoding: .isoLatin1)
        let checked = try ProcessRunner.run("qpdf", ["--check", damaged])
        #expect(!checked.stderr.contains("reconstruct") && checked.stderr.contains("error reading object"), "\(checked.stderr)")
        let markup = command.folder.file("markup.json")
        try Self.markup.write(toFile: markup, atomically: true, encoding: .utf8)
        for extra in [[], ["--rewrite"]] {
            let result = try command.run(["apply", damaged, "--markup", markup, "--output", output] + extra)
            #expect(result.status == 0, "\(with) \(extra): \(result.stderr)")
            #expect(try PopplerText.text(in: output, page: 1).contains("Page one: review copy"), "\(with) \(extra)")
            #expect(try PopplerText.text(in: output, page: 2).contains("Page two: appendix"), "\(with) \(extra)")
            let listed = try command.run(["annotations", output, "--json"])
            #expect(listed.stdout.contains("Please check the totals"), "\(with) \(extra): the note is in the copy")
        }
        let listed = try command.run(["annotations", damaged, "--json"])
        #expect(listed.stdout.contains("Please check the totals"), "\(with): \(listed.stderr)")
        // What was mended to read it is said by every command that read the damaged object (the note), not only by
        // `flatten`: a value too damaged to keep is missing from the list or the XFDF for a reason the user is told.
        // A page's words neither reads: they say nothing.
        let exported = try command.run(["xfdf", "export", damaged])
        #expect(exported.status == 0 && exported.stdout.contains("Please check the totals"), "\(with): \(exported.stderr)")
        let flattened = try command.run(["flatten", damaged, "--output", command.folder.file("flat.pdf")])
        #expect(flattened.status == 0 && !flattened.stdout.contains("repaired to read it"), "\(with): \(flattened.stdout)")
        // `flatten` reads every page's content too, and so meets a stream's bad length as well.
        #expect(flattened.stderr.hasPrefix("redline: \(damaged): repaired to read it: ") && flattened.errorLines.count == 1, "\(with): \(flattened.stderr)")
        for said in [listed.stderr, exported.stderr] {
            if with.contains("/Contents") {
                #expect(said.hasPrefix("redline: \(damaged): repaired to read it: 1 object read with numbers too long for 64 bits as reals")
                        && said.split(separator: "\n").count == 1, "\(with): \(said)")
            } else {
                #expect(said.isEmpty, "\(with): \(said)")
            }
        }
    }

    /// The same inside an object stream: qpdf refused the note holding the number and every object after it in the
    /// stream (page 1's font and words, page 2), and the copy lost them. Each such object is written again loose.
    @Test func aNumberTooLongFor64BitsInAnObjectStreamIsReadAsAReal() throws {
        let command = try RedlineCommand()
        let plain = command.folder.file("plain.pdf"), packed = command.folder.file("packed.pdf"), damaged = command.folder.file("damaged.pdf")
        let output = command.folder.file("out.pdf")
        // A placeholder string as long as the number that replaces it: the object stream's offsets stay right.
        let original = try String(contentsOfFile: fixture("mediabox-20-digits.pdf"), encoding: .isoLatin1)
            .replacingOccurrences(of: "100000000000000000000", with: "612")
            .replacingOccurrences(of: "/Contents (Please check the totals)", with: "/Contents (Please check the totals) /Redline (xxxxxxxxxxxxxxxxxxxxxx)")
        try Self.withCrossReferenceTable(original).write(toFile: plain, atomically: true, encoding: .isoLatin1)
        let packing = try ProcessRunner.run("qpdf", [plain, "--object-streams=generate", "--stream-data=uncompress", packed])
        try #require(packing.status == 0, "\(packing.stderr)")
        let bytes = try #require(FileManager.default.contents(atPath: packed))
        let wide = Data(bytes).replacing(Data("(xxxxxxxxxxxxxxxxxxxxxx)".utf8), with: Data("123456789012345678901234".utf8))
        #expect(wide.count == bytes.count && wide != bytes)
        try wide.write(to: URL(fileURLWithPath: damaged))
        #expect(try ProcessRunner.run("qpdf", ["--check", damaged]).stderr.contains("64-bit integer"))
        let listed = try command.run(["annotations", damaged, "--json"])
        #expect(listed.stdout.contains("Please check the totals"), "\(listed.stderr)")
        let markup = command.folder.file("markup.json")
        try Self.markup.write(toFile: markup, atomically: true, encoding: .utf8)
        for arguments in [["apply", damaged, "--markup", markup, "--output", output], ["flatten", damaged, "--output", output]] {
            let result = try command.run(arguments)
            #expect(result.status == 0 && !result.stderr.contains("could not be read whole"), "\(arguments[0]): \(result.stderr)")
            #expect(try PopplerText.text(in: output, page: 1).contains("Page one: review copy"), "\(arguments[0])")
            #expect(try PopplerText.text(in: output, page: 2).contains("Page two: appendix"), "\(arguments[0])")
            #expect(try QPDFCheck.errors(in: output) == nil)
        }
        #expect(try command.run(["annotations", output, "--json"]).stdout.contains("Please check the totals"), "the note is in the copy")
    }

    /// A classic file's text with its cross-reference table made right for the objects as they now stand.
    static func withCrossReferenceTable(_ text: String) -> String {
        let body = String(text[..<text.range(of: "\nxref\n", options: .backwards)!.lowerBound]) + "\n"
        let trailer = text[text.range(of: "trailer", options: .backwards)!.lowerBound...]
        let trailerDictionary = trailer[..<trailer.range(of: "startxref")!.lowerBound]
        var offsets: [Int: Int] = [:]
        // Read as ISO Latin 1: one scalar is one byte of the file.
        let regex = try! Regex(#"(?m)^(\d+) 0 obj"#)
        for match in body.matches(of: regex) {
            let number = Int(match.output[1].substring!)!
            offsets[number] = body.unicodeScalars.distance(from: body.startIndex, to: match.range.lowerBound)
        }
        let count = (offsets.keys.max() ?? 0) + 1
        var table = "xref\n0 \(count)\n0000000000 65535 f \n"
        for number in 1..<count {
            let offset = String(offsets[number] ?? 0)
            table += String(repeating: "0", count: 10 - offset.count) + offset + (offsets[number] == nil ? " 00000 f \n" : " 00000 n \n")
        }
        return body + table + trailerDictionary + "startxref\n\(body.unicodeScalars.count)\n%%EOF\n"
    }

    @Test(arguments: [35, 50, 65, 80, 95])
    func aCopyOfAFileCutShortSaysWhichPagesItCouldNotReadWhole(percent: Int) throws {
        let command = try RedlineCommand()
        let whole = command.folder.file("whole.pdf"), cut = command.folder.file("cut.pdf"), output = command.folder.file("out.pdf")
        try PDFProbe.makeLongDocument(at: whole, pages: 30)
        let bytes = try #require(FileManager.default.contents(atPath: whole))
        try bytes.prefix(bytes.count * percent / 100).write(to: URL(fileURLWithPath: cut))
        let markup = command.folder.file("markup.json")
        try #"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 300, "y": 72, "text": "Checked"}]}"#
            .write(toFile: markup, atomically: true, encoding: .utf8)
        let result = try command.run(["apply", cut, "--markup", markup, "--output", output])
        if result.status != 0 {
            // Cut before its page tree: nothing to save from, said in one line, nothing written.
            #expect(result.status == 2 && result.stderr.contains("not a usable PDF"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
            return
        }
        var said = Set<Int>()
        if let line = result.stderr.split(separator: "\n").first(where: { $0.contains("could not be read whole") }) {
            let list = line.components(separatedBy: "damaged: page").last!.drop { $0 == "s" || $0 == " " }.prefix { $0 != "(" }
            for part in list.split(separator: ",") {
                let ends = part.trimmingCharacters(in: .whitespaces).split(separator: "–").compactMap { Int($0) }
                if let first = ends.first { said.formUnion(first...(ends.last ?? first)) }
            }
        }
        var blank = Set<Int>()
        for page in 1...30 where !(try PopplerText.text(in: output, page: page).contains("Page \(page)")) { blank.insert(page) }
        #expect(said == blank, "cut at \(percent) %: named \(said.sorted()), without their words \(blank.sorted()): \(result.stderr)")
        #expect(try PopplerText.text(in: output, page: 1).contains("Checked"))
    }

    /// Cut real files whose repair reads the wrong bytes into a page: a content stream running into the next object
    /// (a string that never closes), a font entry that is now the cross-reference stream, a scanned page's text layer
    /// cut. The page is named, and it is truly short of words in the copy.
    @Test(arguments: [("qpdf_boxes.pdf", 6000, 8), ("qpdf_boxes.pdf", 4000, 1), ("pikepdf_sandwich.pdf", 50000, 1)])
    func pagesARepairFilledWithOtherBytesAreNamed(name: String, length: Int, page: Int) throws {
        let command = try RedlineCommand()
        let cut = command.folder.file("cut.pdf"), output = command.folder.file("out.pdf"), markup = command.folder.file("markup.json")
        try #require(FileManager.default.contents(atPath: TestPaths.fixture(name))).prefix(length).write(to: URL(fileURLWithPath: cut))
        try #"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 20, "y": 20, "text": "Checked"}]}"#
            .write(toFile: markup, atomically: true, encoding: .utf8)
        let result = try command.run(["apply", cut, "--markup", markup, "--output", output])
        try #require(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stderr.split(separator: "\n").first { $0.contains("could not be read whole") }, "\(result.stderr)")
        let list = line.components(separatedBy: "damaged: page").last!.drop { $0 == "s" || $0 == " " }.prefix { $0 != "(" }
        var said = Set<Int>()
        for part in list.split(separator: ",") {
            let ends = part.trimmingCharacters(in: .whitespaces).split(separator: "–").compactMap { Int($0) }
            if let first = ends.first { said.formUnion(first...(ends.last ?? first)) }
        }
        #expect(said.contains(page), "\(line)")
        let whole = try PopplerText.text(in: TestPaths.fixture(name), page: page).split(whereSeparator: \.isWhitespace).count
        let left = try PopplerText.text(in: output, page: page).split(whereSeparator: \.isWhitespace).filter { $0 != "Checked" }.count
        #expect(left < whole, "page \(page) keeps \(left) of \(whole) words")
    }

    /// Files cut so short that nothing can be rebuilt are refused in the user's words, not qpdf's recovery's.
    @Test func filesCutPastRepairAreRefusedSayingWhatIsWrong() throws {
        let command = try RedlineCommand()
        let markup = command.folder.file("markup.json"), output = command.folder.file("out.pdf")
        try #"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 20, "y": 20, "text": "Checked"}]}"#
            .write(toFile: markup, atomically: true, encoding: .utf8)
        for (name, fraction, words) in [("pdfjs_issue14438.pdf", 2, "it has no trailer, and none could be rebuilt from what is left (the file is cut short, or is not a PDF)"),
                                        ("qpdf_boxes.pdf", 0, "its catalog or page tree is missing (the file is cut short, or damaged past repair)")] {
            let cut = command.folder.file("cut-\(name)")
            let bytes = try #require(FileManager.default.contents(atPath: TestPaths.fixture(name)))
            try bytes.prefix(fraction > 0 ? bytes.count / fraction : 2000).write(to: URL(fileURLWithPath: cut))
            let result = try command.run(["apply", cut, "--markup", markup, "--output", output])
            #expect(result.status == 2, "\(name): \(result.stderr)")
            #expect(result.stderr.hasPrefix("redline: \(cut): not a usable PDF: \(words)"), "\(name): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }

    @Test func xmpWithADoctypeIsNotReadAndNeverExpanded() throws {
        let command = try RedlineCommand()
        for name in ["xmp-external-entity-file.pdf", "xmp-entity-expansion.pdf"] {
            let listed = try command.run(["bookmarks", fixture(name), "--json"])
            #expect(listed.status == 0)
            #expect(listed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
            #expect(listed.errorLines == ["redline: \(fixture(name)): bookmarks not read: the XMP metadata is malformed: it declares DOCTYPE (XMP has none; external or nested entities are never read)"])
            #expect(listed.stderrBytes.count < 400 && listed.stdoutBytes.count < 100, "no expansion reached the output")

            // A bookmark added to such a document goes to the sidecar; the packet is kept as it was, unexpanded.
            let output = command.folder.file("out-\(name)")
            let added = try command.run(["bookmarks", "add", fixture(name), "--page", "1", "--output", output])
            #expect(added.status == 0, "\(added.stderr)")
            let original = try metadata(of: fixture(name)), copied = try metadata(of: output)
            #expect(copied == original, "the metadata stream is copied byte for byte")
            #expect(!copied.contains("root:x:0:0"), "no local file was read into it")
            #expect(try command.run(["bookmarks", output, "--json"]).stdout.contains("\"page\" : 1"))
        }
    }

    @Test func xmpThatIsNotUTF8IsRefusedWithItsReason() throws {
        let command = try RedlineCommand()
        for name in ["xmp-invalid-utf8-element-name.pdf", "xmp-invalid-utf8-processing-instruction.pdf", "xmp-invalid-utf8-attribute.pdf"] {
            let result = try command.run(["bookmarks", fixture(name), "--json"])
            #expect(result.status == 0)
            #expect(result.stderr.hasSuffix("bookmarks not read: the XMP metadata is malformed: it is not UTF-8 text\n"), "\(result.stderr)")
        }
        // UTF-16 with a byte order mark is XMP too, and its bookmark (page 2) is read.
        let utf16 = try command.run(["bookmarks", fixture("xmp-utf16.pdf"), "--json"])
        #expect(utf16.status == 0 && utf16.stderr.isEmpty, "\(utf16.stderr)")
        #expect(utf16.stdout.contains("\"page\" : 2"))
    }

    @Test func anEntityThatNamesAURLMakesNoRequest() throws {
        let listener = try LoopbackListener()
        let command = try RedlineCommand()
        // The fixture names port 47613; the copy names the port this test listens on (also five digits).
        var bytes = try Data(contentsOf: URL(fileURLWithPath: fixture("xmp-external-entity-http.pdf")))
        bytes = Data(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "47613", with: String(listener.port)).utf8)
        let document = command.folder.file("remote.pdf")
        try bytes.write(to: URL(fileURLWithPath: document))
        for arguments in [["bookmarks", document], ["bookmarks", "add", document, "--page", "1", "--output", command.folder.file("out.pdf")],
                          ["annotations", document]] {
            let result = try command.run(arguments)
            #expect(result.problems.isEmpty, "\(result.problems)")
        }
        #expect(listener.connections() == 0, "opening the document made a network request")
    }

    @Test func twentyThousandAnnotationsAndLongReplyChainsAreListedWhole() throws {
        let command = try RedlineCommand()
        let once = try command.run(["annotations", fixture("annotation-referenced-20000-times.pdf"), "--json"], timeLimit: 45)
        let listedOnce = try #require(try JSONSerialization.jsonObject(with: once.stdoutBytes) as? [[String: Any]])
        #expect(listedOnce.count == 1, "one object listed 20,000 times is one annotation")

        let identical = try command.run(["annotations", fixture("annotations-20000-identical.pdf"), "--json"], timeLimit: 45)
        let ids = try #require(try JSONSerialization.jsonObject(with: identical.stdoutBytes) as? [[String: Any]]).compactMap { $0["id"] as? String }
        #expect(ids.count == 20_000 && Set(ids).count == 20_000, "every copy has its own stable id")

        let chain = try command.run(["annotations", fixture("reply-chain-10000.pdf")], timeLimit: 45)
        let lines = chain.stdout.split(separator: "\n")
        #expect(lines.count == 10_001)
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("    p2  Note  Bob") }, "every reply is in the first comment's thread")
        #expect(lines.last?.contains("Reply 9999") == true, "oldest first")
    }

    @Test func textFromTheDocumentIsShownNotObeyed() throws {
        let command = try RedlineCommand()
        let document = fixture("escapes-in-text-fields.pdf")
        let text = try command.run(["annotations", document])
        #expect(text.problems.isEmpty, "\(text.problems)")
        #expect(text.stdout.contains(#"Mallory\x1B[8m"#) && text.stdout.contains(#"Totals \x1B]2;owned\x07 wrong \x1B[2J"#))
        #expect(text.stdout.contains(#"red\x9B1;1H here"#) && text.stdout.contains(#"id:id-\x1B[5m\x9B2J"#))
        let bookmarks = try command.run(["bookmarks", document])
        #expect(bookmarks.problems.isEmpty && bookmarks.stdout.contains(#"Chapter \x1B]2;owned\x07 \x9B2J end"#), "\(bookmarks.stdout)")

        // JSON stays exact: the values read back are the document's, escapes and all.
        let json = try command.run(["annotations", document, "--json"])
        #expect(json.problems.isEmpty, "\(json.problems)")
        let listed = try #require(try JSONSerialization.jsonObject(with: json.stdoutBytes) as? [[String: Any]])
        #expect(listed.first?["author"] as? String == "Mallory\u{1B}[8m")
        #expect(listed.first?["contents"] as? String == "Totals \u{1B}]2;owned\u{07} wrong \u{1B}[2J\u{1B}[31mred\u{9B}1;1H here")
        #expect(listed.first?["id"] as? String == "id-\u{1B}[5m\u{9B}2J")
        let names = try command.run(["bookmarks", document, "--json"])
        #expect(names.problems.isEmpty)
        #expect((try JSONSerialization.jsonObject(with: names.stdoutBytes) as? [[String: Any]])?.first?["name"] as? String
                == "Chapter \u{1B}]2;owned\u{07} \u{9B}2J end")

        // A file name is shown too, not obeyed.
        let missing = try command.run(["annotations", command.folder.file("no\u{1B}]2;owned\u{07}such.pdf")])
        #expect(missing.status == 2 && missing.problems.isEmpty)
        #expect(missing.stderr.contains(#"no\x1B]2;owned\x07such.pdf: no such file"#))
    }

    @Test func aReplyToADirectAnnotationJoinsItsThread() throws {
        let command = try RedlineCommand()
        let output = command.folder.file("replied.pdf")
        let reply = try command.run(["reply", fixture("direct-object-annotation.pdf"), "--to", "comment-1", "--text", "Done",
                                     "--output", output, "--author", "Bob"])
        #expect(reply.status == 0, "\(reply.stderr)")
        let threads = try command.run(["annotations", output]).stdout.split(separator: "\n")
        #expect(threads.count == 2 && threads[0].contains("Please check the totals") && threads[1].hasPrefix("    p2  Note  Bob"),
                "the reply is listed under the comment, not as a thread of its own: \(threads)")
        // pikepdf: /IRT is a reference to the very object page 2 lists, not a copy.
        let probe = try ProcessRunner.run(TestPaths.python, ["-c", """
            import pikepdf, sys
            pdf = pikepdf.open(sys.argv[1])
            annots = pdf.pages[1].Annots
            comment = [a for a in annots if a.get('/NM') == 'comment-1'][0]
            reply = [a for a in annots if a.get('/Contents') == 'Done'][0]
            print(comment.is_indirect, reply.IRT.is_indirect, reply.IRT.objgen == comment.objgen)
            """, output])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "True True True", "\(probe.stdout)\(probe.stderr)")
    }

    /// An annotation whose dictionary is followed by `stream … endstream` (qpdf reads a stream, PyMuPDF lists it) is
    /// listed by its dictionary, exported, answered and changed; it was skipped in silence.
    @Test func anAnnotationWrittenAsAStreamIsReadByItsDictionary() throws {
        let command = try RedlineCommand()
        let source = command.folder.file("stream-annotation.pdf")
        let made = try ProcessRunner.run(TestPaths.python, ["-c", """
            import pikepdf, sys
            pdf = pikepdf.open(sys.argv[1])
            note = pikepdf.Stream(pdf, b"not an annotation's business")
            for key, value in {"/Type": pikepdf.Name.Annot, "/Subtype": pikepdf.Name.Text, "/Rect": [100, 600, 120, 620],
                               "/Contents": pikepdf.String("Streamed note"), "/T": pikepdf.String("Alice"),
                               "/NM": pikepdf.String("streamed-1")}.items():
                note[key] = value
            pdf.pages[0].obj["/Annots"] = pdf.make_indirect(pikepdf.Array([pdf.make_indirect(note)]))
            pdf.save(sys.argv[2])
            """, TestPaths.sample, source])
        try #require(made.status == 0, "\(made.stderr)")
        let listed = try command.run(["annotations", source, "--json"])
        #expect(listed.status == 0 && listed.stdout.contains("Streamed note") && listed.stdout.contains("streamed-1"), "\(listed.stdout)\(listed.stderr)")
        let exported = try command.run(["xfdf", "export", source])
        #expect(exported.status == 0 && exported.stdout.contains("name=\"streamed-1\""), "\(exported.stdout)\(exported.stderr)")

        let replied = command.folder.file("replied.pdf")
        let reply = try command.run(["reply", source, "--to", "streamed-1", "--text", "Seen", "--output", replied, "--author", "Bob"])
        #expect(reply.status == 0, "\(reply.stderr)")
        let threads = try command.run(["annotations", replied]).stdout.split(separator: "\n")
        #expect(threads.count == 2 && threads[0].contains("Streamed note") && threads[1].contains("Bob") && threads[1].contains("Seen"),
                "the reply is listed under the note: \(threads)")
        #expect(try QPDFCheck.errors(in: replied) == nil)

        let xfdf = command.folder.file("modify.xfdf"), changed = command.folder.file("changed.pdf")
        try #"<?xml version="1.0"?><xfdf xmlns="http://ns.adobe.com/xfdf/"><annots><text page="0" rect="200,600,220,620" name="streamed-1" title="Alice"><contents>Moved note</contents></text></annots></xfdf>"#
            .write(toFile: xfdf, atomically: true, encoding: .utf8)
        let imported = try command.run(["xfdf", "import", source, xfdf, "--output", changed])
        #expect(imported.status == 0, "\(imported.stderr)")
        let after = try command.run(["annotations", changed, "--json"])
        #expect(after.stdout.contains("Moved note") && !after.stdout.contains("Streamed note"), "\(after.stdout)")
        #expect(try QPDFCheck.errors(in: changed) == nil)
        let flattened = command.folder.file("flat.pdf")
        #expect(try command.run(["flatten", source, "--output", flattened]).status == 0)
    }

    /// Annotations are read from the text qpdf writes of each one: every way a value can be written must read as a
    /// reader takes it (escapes, octal codes, UTF-16 and PDFDocEncoding, `#xx` in names, references to values,
    /// a reference to a reference, nesting near qpdf's limit, integers and reals at their edges).
    @Test func annotationValuesInEveryFormTheSyntaxAllowsReadAsTheyMean() throws {
        let command = try RedlineCommand()
        let path = command.folder.file("forms.pdf")
        let made = try ProcessRunner.run(TestPaths.python, ["-c", #"""
            import pikepdf, sys
            pdf = pikepdf.new()
            page = pdf.add_blank_page(page_size=(612, 792))
            rect = pdf.make_indirect(pikepdf.Array([100, 100.5, 200, -.5 + 300]))
            text = pdf.make_indirect(pikepdf.String("Line (one)\\ \\n\tTab\r\nend \x01"))
            indirect = pdf.make_indirect(pikepdf.String("twice"))
            twice = pdf.make_indirect(indirect)
            deep = pikepdf.Array([])
            for _ in range(400):
                deep = pikepdf.Array([deep])
            parent = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Text,
                Rect=[10, 10, 30, 30], NM=pikepdf.String("parent"), Contents=pikepdf.String("Ünïcode ✓ 日本"),
                T=pikepdf.String("Zoë"), M=pikepdf.String("D:20260102030405+01'00'")))
            popup = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Popup,
                Rect=[300, 300, 400, 380], Open=True))
            child = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Square,
                Rect=rect, NM=pikepdf.String("child"), Contents=text, T=twice, IRT=parent, Popup=popup,
                C=pikepdf.Array([1, pdf.make_indirect(0.5), 0]), IT=pikepdf.Name("/Odd#20Name"), Deep=deep,
                F=4294967295, CA=.25))
            page.Annots = pdf.make_indirect(pikepdf.Array([parent, child, popup]))
            pdf.save(sys.argv[1], object_stream_mode=pikepdf.ObjectStreamMode.generate)
            """#, path])
        #expect(made.status == 0, "\(made.stderr)")
        let listed = try command.run(["annotations", path, "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let parent = try #require(objects.first { $0["id"] as? String == "parent" })
        let child = try #require(objects.first { $0["id"] as? String == "child" }, "\(listed.stdout)")
        #expect(parent["contents"] as? String == "Ünïcode ✓ 日本" && parent["author"] as? String == "Zoë")
        #expect(parent["modified"] as? String == "2026-01-02T03:04:05+01:00")
        #expect(child["contents"] as? String == "Line (one)\\ \\n\tTab\r\nend \u{01}")
        #expect(child["author"] as? String == "twice" && child["inReplyTo"] as? String == "parent")
        #expect(child["rect"] as? [Double] == [100, 492.5, 200, 691.5], "\(child["rect"] ?? "none")")
        let exported = try command.run(["xfdf", "export", path])
        #expect(exported.stdout.contains(##"<square page="0" rect="100,100.5,200,299.5" name="child" title="twice" color="#FF8000" "##)
                && exported.stdout.contains(#"opacity="0.25" inreplyto="parent""#), "\(exported.stdout)")
        #expect(objects.count == 2, "the popup folds into its parent: \(objects.count)")
    }

    /// Inputs that never end or are no document: refused with one line, not read for ever.
    @Test func devicesFIFOsAndFoldersAreRefusedNotReadForEver() throws {
        let command = try RedlineCommand()
        let fifo = command.folder.file("pipe.pdf")
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, reason) in [("/dev/zero", "it is not a regular file"), (fifo, "it is not a regular file"),
                               (command.folder.path, "it is a folder")] {
            for arguments in [["annotations", path], [path], ["bookmarks", path]] {
                let result = try command.run(arguments, timeLimit: 30)
                #expect(result.status == 2 && result.problems.isEmpty, "\(arguments): \(result.problems) \(result.stderr)")
                #expect(result.stderr == "redline: \(path): cannot be read: \(reason)\n")
            }
        }
        // A markup file may be a pipe (scripts use /dev/stdin), but not one that never ends.
        let endless = try command.run(["apply", TestPaths.sample, "--markup", "/dev/zero", "--output", command.folder.file("o.pdf")], timeLimit: 60)
        #expect(endless.status == 1 && endless.stderr == "redline: /dev/zero: the markup file is larger than 64 MB\n")
        let piped = try ProcessRunner.run(TestPaths.redline, ["apply", TestPaths.sample, "--markup", "/dev/stdin", "--output", command.folder.file("o.pdf")],
                                          environment: command.environment,
                                          stdin: #"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 72, "y": 72, "text": "Piped"}]}"#)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(try PopplerText.words(in: command.folder.file("o.pdf"), page: 1).contains { $0.text == "Piped" })
        // So is a configuration that is not a plain file.
        try FileManager.default.createSymbolicLink(atPath: command.configFolder + "/redline/config.toml", withDestinationPath: "/dev/zero")
        let configured = try command.run(["bookmarks", TestPaths.sample], timeLimit: 30)
        #expect(configured.status == 1 && configured.stderr.hasSuffix("config.toml: is not a regular file\n"), "\(configured.stderr)")
    }

    /// XMP metadata that inflates to a gigabyte from a megabyte: read within a budget, copied as stored. Every
    /// command runs under a 1 GB address-space limit, which decoding it whole would break.
    @Test func aCompressedMetadataBombIsNeverInflated() throws {
        let command = try RedlineCommand()
        let bomb = command.folder.file("bomb.pdf")
        let made = try ProcessRunner.run(TestPaths.python, [TestPaths.tool("make_metadata_bomb.py"), TestPaths.sample, bomb, "1024"])
        #expect(made.status == 0, "\(made.stderr)")
        let markup = command.folder.file("markup.json")
        try Self.markup.write(toFile: markup, atomically: true, encoding: .utf8)
        func limited(_ arguments: [String]) throws -> ProcessResult {
            try ProcessRunner.run("prlimit", ["--as=1073741824", TestPaths.redline] + arguments, environment: command.environment, timeLimit: 60)
        }
        for arguments in [["annotations", bomb], ["bookmarks", bomb, "--json"], ["apply", bomb, "--markup", markup, "--output", command.folder.file("o.pdf")],
                          ["bookmarks", "add", bomb, "--page", "1", "--output", command.folder.file("b.pdf")]] {
            let result = try limited(arguments)
            #expect(result.status == 0 && result.problems.isEmpty, "\(arguments[0]): \(result.status) \(result.problems) \(result.stderr)")
        }
        #expect(try limited(["bookmarks", bomb]).stderr.hasSuffix("bookmarks not read: the XMP metadata is malformed: the packet is larger than 8 MB\n"))
        for output in ["o.pdf", "b.pdf"] {
            let size = try FileManager.default.attributesOfItem(atPath: command.folder.file(output))[.size] as? Int ?? 0
            #expect(size < 4 << 20, "\(output) is \(size) bytes: the metadata was copied as stored, not inflated")
            #expect(try ProcessRunner.run("qpdf", ["--show-npages", command.folder.file(output)]).stdout.hasPrefix("4"))
        }
        // The bookmark that could not go into that metadata went to the sidecar file, where the copy finds it.
        #expect(try command.run(["bookmarks", command.folder.file("b.pdf"), "--json"]).stdout.contains("\"page\" : 1"))
    }

    /// A document whose /ID is there but empty: its sidecar bookmarks must be found again from the copies saved.
    @Test func anEmptyIDStillLetsCopiesFindTheirSidecarBookmarks() throws {
        let command = try RedlineCommand(config: "bookmark_providers = [\"sidecar\"]\n")
        let output = command.folder.file("copy.pdf")
        let added = try command.run(["bookmarks", "add", fixture("id-empty-and-doctype.pdf"), "--page", "2", "--name", "Important", "--output", output])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try command.run(["bookmarks", output, "--json"]).stdout.contains("\"name\" : \"Important\""))
    }

    @Test func bookmarkNamesXMLCannotHoldSurviveASaveAndPrintNothing() throws {
        let command = try RedlineCommand()
        let output = command.folder.file("named.pdf")
        let added = try command.run(["bookmarks", "add", TestPaths.sample, "--page", "1", "--name", "x\u{FFFE} \u{1B}[2J", "--output", output])
        #expect(added.status == 0 && added.stderr.isEmpty, "\(added.stderr)")
        let listed = try command.run(["bookmarks", output, "--json"])
        #expect(listed.stderr.isEmpty)
        #expect((try JSONSerialization.jsonObject(with: listed.stdoutBytes) as? [[String: Any]])?.first?["name"] as? String == "x\u{FFFE} \u{1B}[2J")
    }

    @Test func emptyFilesLinkLoopsAndMisspeltFieldsAreNamedClearly() throws {
        let command = try RedlineCommand()
        let empty = command.folder.file("empty.pdf")
        FileManager.default.createFile(atPath: empty, contents: Data())
        #expect(try command.run(["annotations", empty]).stderr == "redline: \(empty): not a usable PDF: the file is empty\n")
        let loop = command.folder.file("loop.pdf")
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        #expect(try command.run(["annotations", loop]).stderr == "redline: \(loop): cannot be read: Too many levels of symbolic links\n")
        let markup = command.folder.file("markup.json")
        try #"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 72, "y": 72, "text": "a", "colour": "blue"}]}"#
            .write(toFile: markup, atomically: true, encoding: .utf8)
        let misspelt = try command.run(["apply", TestPaths.sample, "--markup", markup, "--output", command.folder.file("o.pdf")])
        #expect(misspelt.status == 1 && misspelt.stderr.contains(#"item 1: field "colour": is not a field of a text item"#), "\(misspelt.stderr)")
        let nothing = try command.run(["apply", TestPaths.sample, "--markup", command.folder.file("none.json"), "--output", command.folder.file("o.pdf")])
        #expect(nothing.stderr.hasSuffix("cannot read the markup file: No such file or directory\n"))
    }

    func metadata(of path: String) throws -> String {
        try ProcessRunner.run(TestPaths.python, ["-c", "import pikepdf,sys; sys.stdout.write(pikepdf.open(sys.argv[1]).Root.Metadata.read_bytes().decode('utf-8','replace'))", path]).stdout
    }
}
