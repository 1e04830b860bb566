import Foundation
import TestSupport
import Testing

/// A document whose permissions allow annotations but not changes to its pages (a form encrypted with an empty user
/// password and /P without the modify bit) takes markup as annotations only: a flattening save is refused, in the
/// editor and on the command line, unless the owner's password opened it.
@Suite struct PagePermissionTests {
    static func annotateOnly(in folder: TemporaryFolder) throws -> String {
        let path = folder.file("annotate-only.pdf")
        let made = try ProcessRunner.run("qpdf", ["--encrypt", "", "owner-secret", "256", "--modify=annotate", "--", TestPaths.sample, path])
        try #require(made.status == 0, "\(made.stderr)")
        return path
    }

    @Test func theCommandLineBurnsNothingInWithoutTheOwner() throws {
        let folder = TemporaryFolder()
        let document = try Self.annotateOnly(in: folder)
        let markup = folder.file("markup.json")
        try #"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 72, "y": 72, "text": "Checked"}]}"#
            .write(toFile: markup, atomically: true, encoding: .utf8)
        let flattened = folder.file("flattened.pdf")
        let refused = try ProcessRunner.run(TestPaths.redline, ["apply", document, "--markup", markup, "--flatten", "--output", flattened])
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("permissions allow annotations but not changes to its pages"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: flattened))
        let burned = try ProcessRunner.run(TestPaths.redline, ["flatten", document, "--output", flattened])
        #expect(burned.status == 3 && !FileManager.default.fileExists(atPath: flattened))
        // flatten is told the way that works for it: no advice to keep annotations, which is what it exists to undo.
        #expect(burned.stderr.contains("flatten with the owner's password (--password)") && !burned.stderr.contains(":wa"), "\(burned.stderr)")

        let annotated = folder.file("annotated.pdf")
        #expect(try ProcessRunner.run(TestPaths.redline, ["apply", document, "--markup", markup, "--annotations", "--output", annotated]).status == 0)
        let owner = folder.file("owner.pdf")
        let asOwner = try ProcessRunner.run(TestPaths.redline, ["apply", document, "--markup", markup, "--flatten", "--password", "owner-secret",
                                                                "--output", owner])
        #expect(asOwner.status == 0, "\(asOwner.stderr)")
        #expect(try PopplerText.words(in: owner, page: 1).contains { $0.text == "Checked" })
    }

    @Test func theEditorOffersAnnotationsInstead() throws {
        let folder = TemporaryFolder()
        let document = try Self.annotateOnly(in: folder)
        let tmux = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'")
        try tmux.waitFor("page 1/")
        try tmux.placeText("Checked")
        try tmux.send(":", "w", "Enter")
        try tmux.waitFor("Not saved: the permissions allow annotations, not changes to the pages: :wa saves the markup as annotations")
        #expect(!FileManager.default.fileExists(atPath: folder.file("annotate-only-marked.pdf")))
        try tmux.send(":", "w", "a", "Enter")
        try tmux.waitFor("Saved")
        try tmux.send(":", "q", "!", "Enter")
        try tmux.waitFor("REDLINE-EXIT=0")
        let annotations = try AnnotationProbe.read(folder.file("annotate-only-marked.pdf"))
        #expect(annotations.contains { $0.subtype == "/FreeText" && $0.Contents == "Checked" })
    }
}
