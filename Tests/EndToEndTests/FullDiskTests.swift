import Foundation
import TestSupport
import Testing

/// Running out of space: on a small tmpfs of its own, filled to just short of what a save needs.
/// Needs root to mount; elsewhere the tests are skipped and say why.
@Suite(.serialized, .enabled(if: SmallDisk.unavailable == nil, Comment(rawValue: SmallDisk.unavailable ?? "")))
struct FullDiskTests {
    static let markup = #"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 72, "y": 72, "text": "Approved"}]}"#

    /// An 800-page document (about 250 KB) and the size its marked copy has on a disk with room.
    func document(in folder: TemporaryFolder, command: RedlineCommand) throws -> (path: String, markup: String, size: Int) {
        let path = folder.file("long.pdf")
        try PDFProbe.makeLongDocument(at: path, pages: 800)
        let markup = folder.file("markup.json")
        try Self.markup.write(toFile: markup, atomically: true, encoding: .utf8)
        let reference = folder.file("reference.pdf")
        let made = try command.run(["apply", path, "--markup", markup, "--output", reference])
        #expect(made.status == 0, "\(made.stderr)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: reference)[.size] as? Int)
        return (path, markup, size)
    }

    @Test func applyEitherWritesTheWholeFileOrExitsThreeLeavingNothing() throws {
        let folder = TemporaryFolder()
        let command = try RedlineCommand(folder: folder)
        let (input, markup, size) = try document(in: folder, command: command)
        let disk = try SmallDisk(megabytes: 5)
        let output = disk.file("out.pdf")
        var outcomes: [Int32] = []
        // Free space from well short of the copy's size to a little over it, a page at a time: somewhere in
        // here the last buffered write is the one that fails.
        for leaving in stride(from: size - 65_536, through: size + 32_768, by: 4096) {
            try disk.empty()
            unlink(output)
            try disk.fill(leaving: leaving)
            let result = try command.run(["apply", input, "--markup", markup, "--output", output])
            outcomes.append(result.status)
            #expect(result.problems.isEmpty, "\(result.problems)")
            if result.status == 0 {
                let written = try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int
                #expect(written == size, "with \(leaving) bytes free a copy of \(written ?? 0) bytes was called saved")
                #expect(try ProcessRunner.run("qpdf", ["--show-npages", output]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "800")
            } else {
                #expect(result.status == 3, "with \(leaving) bytes free: \(result.stderr)")
                #expect(result.stderr.contains("No space left on device"), "\(result.stderr)")
                #expect(!FileManager.default.fileExists(atPath: output), "nothing is left at the destination")
            }
            #expect(try disk.temporaryFiles().isEmpty, "no temporary file is left behind")
        }
        #expect(outcomes.contains(3) && outcomes.contains(0), "the sweep crossed from too little room to enough: \(outcomes)")
    }

    @Test func savingOverTheInputOnAFullDiskKeepsTheOriginalByteForByte() throws {
        let folder = TemporaryFolder()
        let command = try RedlineCommand(folder: folder)
        let (source, markup, size) = try document(in: folder, command: command)
        let original = try Data(contentsOf: URL(fileURLWithPath: source))
        let disk = try SmallDisk(megabytes: 5)
        let input = disk.file("in.pdf")
        var refused = 0
        for leaving in stride(from: size - 65_536, through: size + 16_384, by: 4096) {
            try disk.empty()
            unlink(input)
            try FileManager.default.copyItem(atPath: source, toPath: input)
            try disk.fill(leaving: leaving)
            let result = try command.run(["apply", input, "--markup", markup, "--output", input])
            #expect(result.problems.isEmpty, "\(result.problems)")
            let now = try Data(contentsOf: URL(fileURLWithPath: input))
            if result.status == 0 {
                #expect(now.count == size, "with \(leaving) bytes free the original was replaced by \(now.count) bytes")
            } else {
                refused += 1
                #expect(result.status == 3 && result.stderr.contains("No space left on device"), "\(result.stderr)")
                #expect(now == original, "with \(leaving) bytes free the original changed")
            }
            #expect(try disk.temporaryFiles().isEmpty)
        }
        #expect(refused > 0)
    }

    @Test func theEditorSaysWhyAndKeepsTheMarkupAndItsJournalUntilASaveSucceeds() throws {
        let folder = TemporaryFolder()
        let disk = try SmallDisk(megabytes: 2)
        let document = disk.file("draft.pdf")
        try FileManager.default.copyItem(atPath: TestPaths.sample, toPath: document)
        let state = folder.file("state")
        let editor = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", columns: 220,
                                     environment: ["XDG_STATE_HOME": state])
        try editor.waitFor("page 1/4")
        try editor.send("t")
        try editor.type("Keep me")
        try editor.send("Enter")
        try editor.waitFor("[modified]")
        try disk.fill(leaving: 0)
        try editor.send(":", "w", "Enter")
        let screen = try editor.waitFor("Not saved")
        #expect(screen.contains("Not saved: No space left on device (while writing) · draft-marked.pdf · your markup is kept"))
        #expect(screen.contains("[modified]"))
        #expect(!FileManager.default.fileExists(atPath: disk.file("draft-marked.pdf")))
        #expect(try disk.temporaryFiles().isEmpty)
        let journals = try FileManager.default.contentsOfDirectory(atPath: state + "/redline").filter { $0.hasSuffix(".json") }
        #expect(journals.count == 1, "the crash journal is kept")
        // Quitting still asks: nothing was saved.
        try editor.send(":", "q", "Enter")
        try editor.waitFor("Unsaved changes: :w saves a marked copy")
        try disk.empty()
        try editor.send(":", "w", "Enter")
        try editor.waitFor("Saved \(disk.file("draft-marked.pdf"))")
        #expect(try PopplerText.words(in: disk.file("draft-marked.pdf"), page: 1).contains { $0.text == "Keep" })
        try editor.send("q")
        try editor.waitFor("REDLINE-EXIT=0")
        #expect(try FileManager.default.contentsOfDirectory(atPath: state + "/redline").filter { $0.hasSuffix(".json") }.isEmpty)
    }
}
