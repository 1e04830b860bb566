import Foundation
import RedlineCore
import Testing
import TestSupport

/// Saving appends an update to the original's bytes wherever that is right: on every real file the tests carry, the
/// original is a prefix of the copy, qpdf reads the copy without a warning, and qpdf, poppler and MuPDF read in it
/// what they read in a complete rewrite of the same save. Signatures over the original stay valid.
@Suite struct IncrementalSaveTests {
    static let everyFixture: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: TestPaths.fixture(""))) ?? []
        return names.filter { $0.hasSuffix(".pdf") && !$0.contains("_enc-") }.sorted().map(TestPaths.fixture) + [TestPaths.sample]
    }()

    static let markup = #"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 40, "y": 60, "text": "Appended", "size": 14, "color": "red"}]}"#

    func redline(_ arguments: [String]) throws -> ProcessResult { try ProcessRunner.run(TestPaths.redline, arguments) }

    /// (id, type, page, contents) of every annotation `redline annotations --json` lists.
    func annotations(_ path: String) throws -> [String] {
        let json = try redline(["annotations", "--json", path]).stdout
        let list = (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]) ?? []
        return list.map { "\($0["id"] ?? "") \($0["type"] ?? "") \($0["page"] ?? "") \($0["contents"] as? String ?? "")" }.sorted()
    }

    /// Every command that writes a copy appends by default, and writes the whole document anew when `--rewrite` or
    /// save_strategy = "rewrite" asks, saying so.
    @Test func everyCommandThatWritesACopyRewritesItWhenAsked() throws {
        let folder = TemporaryFolder()
        let source = TestPaths.fixture("pypdf_annotated_pdf.pdf")
        let original = try #require(FileManager.default.contents(atPath: source))
        let listed = try redline(["annotations", "--json", source])
        let first = try #require((try JSONSerialization.jsonObject(with: listed.stdoutBytes) as? [[String: Any]])?.first?["id"] as? String)
        let markup = folder.file("markup.json"), xfdf = folder.file("note.xfdf")
        try Self.markup.write(toFile: markup, atomically: true, encoding: .utf8)
        try #"<?xml version="1.0"?><xfdf xmlns="http://ns.adobe.com/xfdf/"><annots><text page="0" rect="50,50,70,70" name="added"><contents>Added</contents></text></annots></xfdf>"#
            .write(toFile: xfdf, atomically: true, encoding: .utf8)
        let config = folder.file("config")
        try FileManager.default.createDirectory(atPath: config + "/redline", withIntermediateDirectories: true)
        try "save_strategy = \"rewrite\"\n".write(toFile: config + "/redline/config.toml", atomically: true, encoding: .utf8)
        let commands: [(String, [String])] = [
            ("apply", ["apply", source, "--markup", markup]),
            ("reply", ["reply", source, "--to", first, "--text", "Agreed"]),
            ("review", ["review", source, "--to", first, "--state", "accepted"]),
            ("bookmarks add", ["bookmarks", "add", source, "--page", "1", "--name", "Start"]),
            ("xfdf import", ["xfdf", "import", source, xfdf]),
            ("flatten", ["flatten", source]),
        ]
        for (name, arguments) in commands {
            for (how, extra, environment) in [("by default", [String](), [String: String]()), ("with --rewrite", ["--rewrite"], [:]),
                                              ("with save_strategy", [], ["XDG_CONFIG_HOME": config])] {
                let output = folder.file("\(name)-\(how).pdf".replacingOccurrences(of: " ", with: "-"))
                let result = try ProcessRunner.run(TestPaths.redline, arguments + ["--output", output] + extra, environment: environment)
                try #require(result.status == 0, "\(name) \(how): \(result.stderr)")
                let copy = try #require(FileManager.default.contents(atPath: output))
                let appended = copy.prefix(original.count) == original
                #expect(appended == (how == "by default"), "\(name) \(how): the original's bytes come first: \(appended)")
                if how != "by default" {
                    #expect((result.stdout + result.stderr).contains(WriteOutcome.rewriteAsked), "\(name) \(how): \(result.stdout) \(result.stderr)")
                }
                #expect(try QPDFCheck.errors(in: output) == nil, "\(name) \(how)")
            }
        }
    }

    @Test(arguments: everyFixture)
    func anAppendedSaveReadsAsTheRewriteDoes(source: String) throws {
        let folder = TemporaryFolder()
        let markup = folder.file("markup.json")
        try Self.markup.write(toFile: markup, atomically: true, encoding: .utf8)
        let original = try #require(FileManager.default.contents(atPath: source))
        for mode in ["--annotations", "--flatten"] {
            let appended = folder.file("appended\(mode).pdf"), rewritten = folder.file("rewritten\(mode).pdf")
            let first = try redline(["apply", source, "--markup", markup, "--output", appended, mode])
            let second = try redline(["apply", source, "--markup", markup, "--output", rewritten, mode, "--rewrite"])
            // A document one refuses (damaged beyond use, forbidding changes) the other refuses alike.
            #expect(first.status == second.status, "\(source) \(mode): \(first.stderr) / \(second.stderr)")
            guard first.status == 0, second.status == 0 else { continue }
            let copy = try #require(FileManager.default.contents(atPath: appended))
            if first.stdout.contains(": appended to the original (") {
                #expect(copy.prefix(original.count) == original, "\(source) \(mode): the original's bytes come first, untouched")
                let check = try ProcessRunner.run("qpdf", ["--check", appended])
                #expect(check.status == 0 && !check.stdout.contains("WARNING"), "\(source) \(mode): \(check.stdout) \(check.stderr)")
                // poppler, stricter about cross-reference tables than qpdf, reads the copy as cleanly as the original.
                if try ProcessRunner.run("pdfinfo", [source]).stderr.isEmpty {
                    let info = try ProcessRunner.run("pdfinfo", [appended])
                    #expect(info.stderr.isEmpty, "\(source) \(mode): \(info.stderr)")
                }
            } else {
                #expect(first.stdout.contains(": rewritten whole: "), "\(source) \(mode): \(first.stdout)")
            }
            let pages = { (path: String) in try ProcessRunner.run("qpdf", ["--show-npages", path]).stdout }
            #expect(try pages(appended) == pages(rewritten), "\(source) \(mode)")
            #expect(try annotations(appended) == annotations(rewritten), "\(source) \(mode)")
            // MuPDF, another implementation, reads the update: the page count, and the new text where it was put.
            let probe = """
                import pymupdf, sys
                document = pymupdf.open(sys.argv[1])
                page = document[0]
                words = page.get_text() + " ".join(annotation.info.get("content", "") for annotation in page.annots())
                print(document.page_count, "Appended" in words)
                """
            let mupdf = try ProcessRunner.run(TestPaths.python, ["-c", probe, appended]).stdout
            let expected = try ProcessRunner.run(TestPaths.python, ["-c", probe, rewritten]).stdout
            #expect(mupdf == expected, "\(source) \(mode): MuPDF reads \(mupdf) where the rewrite gives \(expected)")
        }
    }


    /// The update holds only the file's annotations a writer said it changed: moving, rewording, recolouring and
    /// deleting the file's own annotations (and so their replies and popups) on every real file that has them reads
    /// after an appended save exactly as after a rewrite: every key `annotations --json` lists, rectangles included.
    @Test(arguments: everyFixture + ["mixed 40", "replies 6"])
    func editsOfTheFilesAnnotationsAppendedReadAsTheRewriteDoes(source: String) throws {
        let folder = TemporaryFolder()
        var source = source
        if !source.hasSuffix(".pdf") {
            // A crowded page of every kind with appearances and popups, and a thread, as another tool writes them.
            let shape = source.split(separator: " ").map(String.init)
            source = folder.file("\(shape[0]).pdf")
            let made = try ProcessRunner.run(TestPaths.python, [TestPaths.tool("make_crowded_document.py"), source, shape[0], shape[1]])
            #expect(made.status == 0, "\(made.stderr)")
        }
        let listing = try redline(["annotations", "--json", source])
        let listed = (try? JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [[String: Any]]) ?? []
        let candidates = listed.filter { ($0["inReplyTo"] is NSNull) && ($0["type"] as? String).map { !["Popup", "Link", "Widget"].contains($0) } ?? false }
            .compactMap { $0["id"] as? String }
        let replies = listed.filter { !($0["inReplyTo"] is NSNull) }.compactMap { $0["id"] as? String }
        // The first moved (its replies and popup along), the second (or a reply) reworded.
        guard let moved = candidates.first, let reworded = candidates.count > 1 ? candidates[1] : replies.first else { return }
        let date = "2026-11-28T05:00:00+00:00"
        var edits: [String: Any] = [
            "added": [], "deleted": [], "restyled": [:],
            "moved": [moved: ["dx": 12.5, "dy": -7.25, "modified": date]],
            "changedContents": [reworded: ["contents": "Reworded in an update", "modified": date]],
        ]
        if candidates.count >= 3 { edits["restyled"] = [candidates[2]: ["color": ["red": 10, "green": 120, "blue": 200], "modified": date]] }
        if candidates.count >= 4 { edits["deleted"] = [candidates[candidates.count - 1]] }
        let markup = folder.file("edits.json")
        let file: [String: Any] = ["version": 1, "items": [], "annotations": edits]
        try JSONSerialization.data(withJSONObject: file).write(to: URL(fileURLWithPath: markup))
        let appended = folder.file("appended.pdf"), rewritten = folder.file("rewritten.pdf")
        let first = try redline(["apply", source, "--markup", markup, "--output", appended])
        let second = try redline(["apply", source, "--markup", markup, "--output", rewritten, "--rewrite"])
        #expect(first.status == 0 && second.status == 0, "\(source): \(first.stderr) / \(second.stderr)")
        guard first.status == 0, second.status == 0 else { return }
        #expect(first.stdout.contains(": appended to the original ("), "\(source): \(first.stdout)")
        let after = try redline(["annotations", "--json", appended]).stdout
        #expect(after == (try redline(["annotations", "--json", rewritten]).stdout), "\(source)")
        // The edits are there: the moved one is elsewhere, the reworded one says so.
        #expect(after != listing.stdout && after.contains("Reworded in an update"), "\(source)")
        if first.stdout.contains(": appended to the original (") {
            let check = try ProcessRunner.run("qpdf", ["--check", appended])
            #expect(check.status == 0 && !check.stdout.contains("WARNING"), "\(source): \(check.stdout) \(check.stderr)")
        }
    }
    /// Saving the saved copy again appends a second update after the first.
    @Test func aSecondSaveAppendsAnotherUpdate() throws {
        let folder = TemporaryFolder()
        let markup = folder.file("markup.json")
        try Self.markup.write(toFile: markup, atomically: true, encoding: .utf8)
        let once = folder.file("once.pdf"), twice = folder.file("twice.pdf")
        #expect(try redline(["apply", TestPaths.sample, "--markup", markup, "--output", once, "--annotations"]).status == 0)
        let listed = try annotations(once)
        let id = try #require(listed.first { $0.contains("FreeText") }?.split(separator: " ").first.map(String.init))
        let reply = try redline(["reply", once, "--to", id, "--text", "Seen", "--output", twice])
        #expect(reply.status == 0, "\(reply.stderr)")
        let first = try #require(FileManager.default.contents(atPath: once))
        #expect(try #require(FileManager.default.contents(atPath: twice)).prefix(first.count) == first)
        #expect(try annotations(twice).count == listed.count + 1)
        let check = try ProcessRunner.run("qpdf", ["--check", twice])
        #expect(check.status == 0 && !check.stdout.contains("WARNING"), "\(check.stdout)")
    }

    /// The cross-reference tables are read by offset, in windows that grow: a table of 6,000 entries (120 KB, past the
    /// first window) with a later one pointing back at it by /Prev is appended to; the same with an entry near its
    /// end malformed in a way qpdf forgives is not (stricter readers would repair the copy), and the copy is
    /// rewritten whole, saying why.
    @Test(arguments: [false, true])
    func longCrossReferenceTablesAreReadWhole(broken: Bool) throws {
        let folder = TemporaryFolder()
        let source = folder.file("long-table.pdf"), saved = folder.file("saved.pdf"), markup = folder.file("markup.json")
        try Self.markup.write(toFile: markup, atomically: true, encoding: .utf8)
        // A file of 6,000 small objects with a classic table, then an update of one of them appended by hand with
        // its own table pointing back by /Prev. Prints where the first table starts and how many entries it has.
        let make = """
            import pikepdf, re, sys, json
            pdf = pikepdf.new()
            pdf.add_blank_page(page_size=(300, 300))
            pdf.Root.Filler = pikepdf.Array([pdf.make_indirect(pikepdf.Dictionary(N=n)) for n in range(6000)])
            pdf.save(sys.argv[1], object_stream_mode=pikepdf.ObjectStreamMode.disable)
            with pikepdf.open(sys.argv[1]) as reread:
                number = reread.Root.Filler[0].objgen[0]
            data = open(sys.argv[1], "rb").read()
            first = int(re.findall(rb"startxref\\s+(\\d+)", data)[-1])
            trailer = data[data.rindex(b"trailer"):]
            size = int(re.search(rb"/Size (\\d+)", trailer).group(1))
            root = re.search(rb"/Root (\\d+ \\d+ R)", trailer).group(1)
            update = b"\\n%d 0 obj\\n<< /N -1 >>\\nendobj\\n" % number
            offset = len(data) + 1
            table = len(data) + len(update)
            update += b"xref\\n0 1\\n0000000000 65535 f\\r\\n%d 1\\n%010d 00000 n\\r\\n" % (number, offset)
            update += b"trailer\\n<< /Size %d /Root %s /Prev %d >>\\nstartxref\\n%d\\n%%%%EOF\\n" % (size, root, first, table)
            open(sys.argv[1], "wb").write(data + update)
            print(json.dumps({"first": first, "size": size}))
            """
        let made = try ProcessRunner.run(TestPaths.python, ["-c", make, source])
        #expect(made.status == 0, "\(made.stderr)")
        let layout = try #require(try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Int])
        let (first, size) = (try #require(layout["first"]), try #require(layout["size"]))
        var bytes = try #require(FileManager.default.contents(atPath: source))
        #expect(size > 6000 && size * 20 > 1 << 16, "the first table reaches past the first window")
        #expect(try ProcessRunner.run("qpdf", ["--check", source]).status == 0)
        if broken {
            // Entry 5,990 of the first table: a tab between its offset and generation, which qpdf passes over in
            // silence and ISO 32000-1 §7.5.4 does not allow.
            let entry = first + "xref\n0 \(size)\n".utf8.count + 5990 * 20 + 10
            bytes[entry] = 0x09
            try bytes.write(to: URL(fileURLWithPath: source))
        }
        let run = try redline(["apply", source, "--markup", markup, "--output", saved, "--annotations"])
        #expect(run.status == 0, "\(run.stderr)")
        if broken {
            #expect(run.stdout.contains("rewritten whole: its cross-reference table is not well-formed"), "\(run.stdout)")
        } else {
            #expect(run.stdout.contains("appended to the original"), "\(run.stdout)")
            #expect(try #require(FileManager.default.contents(atPath: saved)).prefix(bytes.count) == bytes)
            let check = try ProcessRunner.run("qpdf", ["--check", saved])
            #expect(check.status == 0 && !check.stdout.contains("WARNING"), "\(check.stdout)")
        }
    }

    /// A document signed (and one certified to permit annotations) by pyHanko keeps a valid signature after
    /// annotations, replies, review states and bookmarks are saved into it: pyHanko and poppler's pdfsig agree.
    @Test(arguments: ["none", "annotate"])
    func signaturesStayValid(certify: String) throws {
        let folder = TemporaryFolder()
        let signed = folder.file("signed.pdf")
        let tool = TestPaths.packageRoot.appendingPathComponent("Tests/Tools/signatures.py").path
        let signing = try ProcessRunner.run(TestPaths.python, [tool, "sign", TestPaths.sample, signed, folder.path, "--certify", certify])
        try #require(signing.status == 0, "\(signing.stderr)")
        let markup = folder.file("markup.json")
        try Self.markup.write(toFile: markup, atomically: true, encoding: .utf8)
        let annotated = folder.file("annotated.pdf"), bookmarked = folder.file("bookmarked.pdf")
        #expect(try redline(["apply", signed, "--markup", markup, "--output", annotated, "--annotations"]).status == 0)
        let id = try #require(try annotations(annotated).first { $0.contains("FreeText") }?.split(separator: " ").first.map(String.init))
        let replied = folder.file("replied.pdf"), reviewed = folder.file("reviewed.pdf")
        #expect(try redline(["reply", annotated, "--to", id, "--text", "Seen", "--output", replied]).status == 0)
        #expect(try redline(["review", replied, "--to", id, "--state", "accepted", "--output", reviewed]).status == 0)
        #expect(try redline(["bookmarks", "add", reviewed, "--page", "2", "--name", "Signed here", "--output", bookmarked]).status == 0)
        for path in [annotated, replied, reviewed, bookmarked] {
            let report = try ProcessRunner.run(TestPaths.python, [tool, "check", path, folder.path]).stdout
            let status = try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any], "\(report)")
            #expect(status["intact"] as? Bool == true && status["valid"] as? Bool == true, "\(path): \(report)")
            let pdfsig = try ProcessRunner.run("pdfsig", [path]).stdout
            #expect(pdfsig.contains("Signature Validation: Signature is Valid."), "\(path): \(pdfsig)")
        }
        // Burning markup into the signed page keeps the signature valid but is said: validators report the page
        // changed after signing. The signature is on page 1 (pyHanko's field); markup elsewhere says nothing.
        let flattened = folder.file("flattened.pdf")
        let burning = try redline(["apply", signed, "--markup", markup, "--output", flattened, "--flatten"])
        #expect(burning.status == 0 && burning.stderr.contains("page 1 carries a signature: validators will report it changed after signing"),
                "\(burning.stderr)")
        let elsewhere = folder.file("elsewhere.json"), other = folder.file("other.pdf")
        try Self.markup.replacingOccurrences(of: "\"page\": 1", with: "\"page\": 2").write(toFile: elsewhere, atomically: true, encoding: .utf8)
        let quiet = try redline(["apply", signed, "--markup", elsewhere, "--output", other, "--flatten"])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        // `flatten` burning the annotations of the signed page says it too, as `apply` does.
        let burned = folder.file("burned.pdf")
        let flattening = try redline(["flatten", annotated, "--output", burned])
        #expect(flattening.status == 0 && flattening.stderr.contains("page 1 carries a signature: validators will report it changed after signing"),
                "\(flattening.stderr)")
        // And a complete rewrite, asked for, breaks it: what appending avoids, and what is said.
        let rewritten = folder.file("rewritten.pdf")
        let rewriting = try redline(["apply", signed, "--markup", markup, "--output", rewritten, "--annotations", "--rewrite"])
        #expect(rewriting.status == 0 && rewriting.stderr.contains("the signature on page 1 no longer verifies: the document was rewritten whole"),
                "\(rewriting.stderr)")
        let broken = try ProcessRunner.run("pdfsig", [rewritten]).stdout
        #expect(!broken.contains("Signature Validation: Signature is Valid."), "\(broken)")
        // A reply to a signed file that must be rewritten (bytes after its end make qpdf repair it) says so on stderr;
        // its standard output stays the new id.
        let padded = folder.file("padded.pdf"), answered = folder.file("answered.pdf")
        try (try #require(FileManager.default.contents(atPath: annotated)) + Data(repeating: 0x20, count: 2048)).write(to: URL(fileURLWithPath: padded))
        let reply = try redline(["reply", padded, "--to", id, "--text", "Padded", "--output", answered])
        #expect(reply.status == 0 && UUID(uuidString: reply.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) != nil, "\(reply.stdout)")
        #expect(reply.stderr.contains("\(answered): rewritten whole: ") && reply.stderr.contains("the signature on page 1 no longer verifies"),
                "\(reply.stderr)")
    }
}
