import Foundation
import TestSupport
import Testing

/// Saves killed halfway (kill -9, as a crash or a power cut would): they leave a temporary file, the
/// destination is untouched, and the next save into the folder removes the leftovers.
@Suite struct KilledSaveTests {
    @Test func leftoversOfKilledSavesAreRemovedByTheNextSave() throws {
        let folder = TemporaryFolder()
        let heavy = folder.file("heavy.pdf")
        let made = try ProcessRunner.run(TestPaths.python, [TestPaths.tool("make_heavy_document.py"), heavy, "40"])
        #expect(made.status == 0, "\(made.stderr)")
        let markup = folder.file("markup.json")
        try #"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 72, "y": 72, "text": "Approved"}]}"#
            .write(toFile: markup, atomically: true, encoding: .utf8)
        let outputs = folder.file("out")
        try FileManager.default.createDirectory(atPath: outputs, withIntermediateDirectories: true)
        try "the earlier copy".write(toFile: outputs + "/marked.pdf", atomically: true, encoding: .utf8)
        func leftovers() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: outputs).filter { $0.contains(".redline-") }
        }

        /// The destination is always whole: the earlier copy, or a complete marked copy if a save finished
        /// before its kill arrived.
        func destinationIsWhole() throws -> Bool {
            if (try? String(contentsOfFile: outputs + "/marked.pdf", encoding: .utf8)) == "the earlier copy" { return true }
            return try ProcessRunner.run("qpdf", ["--show-npages", outputs + "/marked.pdf"]).stdout.hasPrefix("1")
        }

        var interrupted = 0
        for _ in 0..<5 {
            let before = try leftovers().count
            let save = Process()
            save.executableURL = URL(fileURLWithPath: TestPaths.redline)
            save.arguments = ["apply", heavy, "--markup", markup, "--output", outputs + "/marked.pdf"]
            save.standardError = FileHandle.nullDevice
            try save.run()
            // The moment its temporary file appears, the save is writing: kill it there.
            while save.isRunning, try leftovers().count == before {}
            kill(save.processIdentifier, SIGKILL)
            save.waitUntilExit()
            #expect(try destinationIsWhole())
            // Each save starts by removing the leftovers of saves killed before it: one is left at a time.
            let left = try leftovers()
            #expect(left.count <= 1, "\(left)")
            if left.count == 1 { interrupted += 1 }
        }
        #expect(interrupted >= 3, "killed saves left their temporary file behind")

        let command = try RedlineCommand()
        let next = try command.run(["apply", TestPaths.sample, "--markup", markup, "--output", outputs + "/other.pdf"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try leftovers().isEmpty, "the next save into the folder cleaned up")
        #expect(try destinationIsWhole())
    }

    @Test func anOutputThatIsALinkIsWrittenThroughWithTheTargetsPermissions() throws {
        let command = try RedlineCommand()
        let folder = command.folder
        let markup = folder.file("markup.json")
        try #"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 72, "y": 72, "text": "Approved"}]}"#
            .write(toFile: markup, atomically: true, encoding: .utf8)
        let target = folder.file("shared.pdf")
        try FileManager.default.copyItem(atPath: TestPaths.sample, toPath: target)
        chmod(target, 0o640)
        try FileManager.default.createSymbolicLink(atPath: folder.file("link.pdf"), withDestinationPath: "shared.pdf")
        let result = try command.run(["apply", TestPaths.sample, "--markup", markup, "--output", folder.file("link.pdf")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("link.pdf")) == "shared.pdf")
        #expect(try PopplerText.words(in: target, page: 1).contains { $0.text == "Approved" })
        let mode = try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o640, "not the link's 0777")
    }
}
