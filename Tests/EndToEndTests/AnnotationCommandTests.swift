import Foundation
import TestSupport
import Testing

/// `redline annotations`, `reply` and `review` on the real binary, with a configuration folder of their own.
@Suite struct AnnotationCommandTests {
    let threads = TestPaths.fixture("pdfcpu_text_annotations.pdf")
    let kinds = TestPaths.fixture("pdfjs_issue14438.pdf")

    /// Runs redline with `config.toml` (if given) as the user's configuration and USER=tester.
    func redline(_ arguments: [String], config: String? = nil, in folder: TemporaryFolder) throws -> ProcessResult {
        let configFolder = folder.path + "/config"
        try FileManager.default.createDirectory(atPath: configFolder + "/redline", withIntermediateDirectories: true)
        if let config { try config.write(toFile: configFolder + "/redline/config.toml", atomically: true, encoding: .utf8) }
        return try ProcessRunner.run(TestPaths.redline, arguments,
                                     environment: ["XDG_CONFIG_HOME": configFolder, "USER": "tester", "LOGNAME": "tester"])
    }

    func json(_ result: ProcessResult) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    @Test func jsonListsExactlyTheThreadsAndStatesTheFileHolds() throws {
        let folder = TemporaryFolder()
        let result = try redline(["annotations", threads, "--json"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try json(result)
        #expect(objects.count == 8)
        let keys: Set<String> = ["id", "page", "type", "rect", "author", "created", "modified", "contents", "inReplyTo",
                                 "replyType", "stateModel", "state"]
        #expect(objects.allSatisfy { Set($0.keys) == keys })
        let highlight = objects[0]
        #expect(highlight["type"] as? String == "Highlight")
        #expect(highlight["inReplyTo"] is NSNull)
        #expect(highlight["created"] is NSNull)
        #expect(highlight["modified"] as? String == "2023-08-24T22:57:29+00:00")
        let states = objects.dropFirst()
        #expect(states.allSatisfy { $0["inReplyTo"] as? String == highlight["id"] as? String && $0["replyType"] as? String == "reply" })
        #expect(states.map { $0["state"] as? String } == ["marked", "unmarked", "accepted", "rejected", "cancelled", "completed", "none"])
        #expect(states.map { $0["stateModel"] as? String } == ["marked", "marked", "review", "review", "review", "review", "review"])
        // The same ids on every run, for files without /NM too.
        let again = try json(try redline(["annotations", threads, "--json"], in: folder))
        #expect(again.map { $0["id"] as? String } == objects.map { $0["id"] as? String })
    }

    @Test func everyKindIsListedWithoutPopupsAndPagesFilter() throws {
        let folder = TemporaryFolder()
        let objects = try json(try redline(["annotations", kinds, "--json", "--page", "1"], in: folder))
        #expect(objects.count == 18)
        #expect(!objects.contains { $0["type"] as? String == "Popup" })
        let note = try #require(objects.first { $0["type"] as? String == "Text" })
        #expect(note["contents"] as? String == "这是一个注解。")
        #expect(note["author"] as? String == "const")
        let text = try redline(["annotations", kinds], in: folder)
        #expect(text.stdout.contains("Note  const  2022-01-10 16:00  这是一个注解。"))
        let noPage = try redline(["annotations", kinds, "--page", "2"], in: folder)
        #expect(noPage.status == 1)
        #expect(noPage.stderr.contains("there is no page 2"))
    }

    @Test func replyThenReviewAreReadBackWithAuthorsFromFlagConfigAndLogin() throws {
        let folder = TemporaryFolder()
        let root = try #require(try json(try redline(["annotations", threads, "--json"], in: folder)).first?["id"] as? String)
        let replied = folder.file("replied.pdf")
        let reply = try redline(["reply", threads, "--to", root, "--text", "Please fix", "--output", replied],
                                config: "author = \"Config Carol\"\n", in: folder)
        #expect(reply.status == 0, "\(reply.stderr)")
        let reviewed = folder.file("reviewed.pdf")
        let review = try redline(["review", replied, "--to", root, "--state", "rejected", "--author", "Flag Fred",
                                  "--output", reviewed], config: "author = \"Config Carol\"\n", in: folder)
        #expect(review.status == 0, "\(review.stderr)")
        let marked = folder.file("marked.pdf")
        let mark = try redline(["review", reviewed, "--to", root, "--state", "marked", "--output", marked], config: "",
                               in: folder)
        #expect(mark.status == 0, "\(mark.stderr)")

        let objects = try json(try redline(["annotations", marked, "--json"], in: folder))
        #expect(objects.count == 11)
        let replyObject = try #require(objects.first { $0["id"] as? String == reply.stdout.trimmingCharacters(in: .whitespacesAndNewlines) })
        #expect(replyObject["author"] as? String == "Config Carol")
        #expect(replyObject["contents"] as? String == "Please fix")
        #expect(replyObject["inReplyTo"] as? String == root)
        #expect(replyObject["type"] as? String == "Text")
        let rejected = try #require(objects.first { $0["state"] as? String == "rejected" && $0["author"] as? String == "Flag Fred" })
        #expect(rejected["stateModel"] as? String == "review")
        let mine = try #require(objects.first { $0["state"] as? String == "marked" && $0["author"] as? String == "tester" })
        #expect(mine["stateModel"] as? String == "marked")
        #expect((mine["created"] as? String)?.count == 25)
        // pikepdf agrees.
        let probed = try AnnotationProbe.read(marked)
        #expect(probed.contains { $0.State == "Rejected" && $0.StateType == "string" && $0.T == "Flag Fred" })
    }

    @Test func unknownIdsLinksReadOnlyFilesAndBadConfigurationAreClearErrors() throws {
        let folder = TemporaryFolder()
        let output = folder.file("out.pdf")
        let unknown = try redline(["reply", threads, "--to", "no-such-id", "--text", "Hi", "--output", output], in: folder)
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "redline: \(threads): no annotation with id \"no-such-id\" (redline annotations \(threads) lists them)\n")

        // A reply's text is what markup text is: no escape sequence reaches the file (or a terminal listing it later);
        // line breaks and tabs are text.
        let escaped = try redline(["reply", threads, "--to", "no-such-id", "--text", "Hi\u{1B}[2J", "--output", output], in: folder)
        #expect(escaped.status == 1)
        #expect(escaped.stderr == "redline: --text contains the control character U+001B: a reply holds text, line breaks and tabs\n")
        #expect(!FileManager.default.fileExists(atPath: output))
        let rootID = try #require(try json(try redline(["annotations", threads, "--json"], in: folder)).first?["id"] as? String)
        let twoLines = try redline(["reply", threads, "--to", rootID, "--text", "First line\nsecond\tline", "--output", output], in: folder)
        #expect(twoLines.status == 0, "\(twoLines.stderr)")
        #expect(try AnnotationProbe.read(output).contains { $0.Contents == "First line\nsecond\tline" })
        try? FileManager.default.removeItem(atPath: output)

        let folderAsMarkup = try redline(["apply", threads, "--markup", folder.path, "--output", output], in: folder)
        #expect(folderAsMarkup.status == 1)
        #expect(folderAsMarkup.stderr == "redline: \(folder.path): is a folder, not a markup file\n")

        let badState = try redline(["review", threads, "--to", "x", "--state", "approved", "--output", output], in: folder)
        #expect(badState.status == 1)
        #expect(badState.stderr.contains("--state must be one of"))

        let root = try #require(try json(try redline(["annotations", threads, "--json"], in: folder)).first?["id"] as? String)
        let readOnly = folder.file("read-only.pdf")
        try FileManager.default.copyItem(atPath: threads, toPath: readOnly)
        chmod(readOnly, 0o444)
        let overRead = try redline(["reply", readOnly, "--to", root, "--text", "Hi", "--output", readOnly], in: folder)
        #expect(overRead.status == 3)
        #expect(overRead.stderr == "redline: \(readOnly): cannot write: the file is read-only\n")

        let missing = try redline(["annotations", folder.file("missing.pdf")], in: folder)
        #expect(missing.status == 2)

        let badConfig = try redline(["reply", threads, "--to", root, "--text", "Hi", "--output", output],
                                    config: "author = 42\n", in: folder)
        #expect(badConfig.status == 1)
        #expect(badConfig.stderr.contains("config.toml: author must be a string"))
        let brokenConfig = try redline(["reply", threads, "--to", root, "--text", "Hi", "--output", output],
                                       config: "author = \"unterminated\n", in: folder)
        #expect(brokenConfig.status == 1)
        #expect(brokenConfig.stderr.contains("config.toml: line 1"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func applyWritesAnnotationChangesFromTheMarkupFileInTheSameSave() throws {
        let folder = TemporaryFolder()
        let root = try #require(try json(try redline(["annotations", threads, "--json"], in: folder)).first?["id"] as? String)
        let markup = folder.file("edits.json")
        let reply = #"{"id": "scripted-1", "page": 1, "type": "Text", "rect": [76.9, 73.72, 259.77, 85.47], "author": "Script", "#
            + #""created": "2026-11-22T12:00:00+01:00", "modified": "2026-11-22T12:00:00+01:00", "contents": "From a script", "#
            + #""inReplyTo": "\#(root)", "replyType": "reply", "stateModel": null, "state": null}"#
        try (#"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 72, "y": 300, "text": "Scripted"}], "#
            + #""annotations": {"added": [\#(reply)], "changedContents": {}, "deleted": []}}"#)
            .write(toFile: markup, atomically: true, encoding: .utf8)
        let output = folder.file("out.pdf")
        let result = try redline(["apply", threads, "--markup", markup, "--output", output], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try json(try redline(["annotations", output, "--json"], in: folder))
        let added = try #require(objects.first { $0["id"] as? String == "scripted-1" })
        #expect(added["inReplyTo"] as? String == root)
        #expect(added["created"] as? String == "2026-11-22T12:00:00+01:00")
        #expect(try PopplerText.words(in: output, page: 1).contains { $0.text == "Scripted" })

        let unknown = try String(contentsOfFile: markup, encoding: .utf8).replacingOccurrences(of: root, with: "missing-id")
        try unknown.write(toFile: markup, atomically: true, encoding: .utf8)
        let refused = try redline(["apply", threads, "--markup", markup, "--output", folder.file("refused.pdf")], in: folder)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("no annotation with id \"missing-id\""))
        #expect(!FileManager.default.fileExists(atPath: folder.file("refused.pdf")))
    }
}
