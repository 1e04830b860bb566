import Foundation
import RedlineApp
import RedlineCore
import TestSupport
import Testing

@Suite struct AtomicWriteTests {
    @Test func anUnwritableFolderIsAWriteErrorAndLeavesNothingBehind() throws {
        let folder = TemporaryFolder()
        let locked = folder.file("locked")
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        chmod(locked, 0o500)
        defer { chmod(locked, 0o700) }
        // root may write anywhere: only check the refusal where permissions bind.
        if getuid() != 0 {
            #expect(throws: DocumentError.self) {
                try Saving.save([Saving.text("x", page: 0, x: 10, y: 10)], from: TestPaths.sample, to: locked + "/out.pdf")
            }
        }
        #expect(throws: DocumentError.writeFailed(path: folder.file("missing/out.pdf"),
                                                  reason: "the folder \(folder.file("missing")) does not exist")) {
            try Saving.save([Saving.text("x", page: 0, x: 10, y: 10)], from: TestPaths.sample, to: folder.file("missing/out.pdf"))
        }
    }

    @Test func aFailedWriteLeavesTheDestinationAsItWas() throws {
        let folder = TemporaryFolder()
        let destination = folder.file("kept.pdf")
        try "previous contents".write(toFile: destination, atomically: true, encoding: .utf8)
        #expect(throws: DocumentError.self) {
            try AtomicFileWriter.write(to: destination) { temporary in
                try "half".write(toFile: temporary, atomically: false, encoding: .utf8)
                throw DocumentError.writeFailed(path: destination, reason: "disk full")
            }
        }
        #expect(try String(contentsOfFile: destination, encoding: .utf8) == "previous contents")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func aFullDiskIsReportedAsAWriteError() throws {
        // /dev/full accepts opens and fails every write with ENOSPC.
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        #expect(throws: DocumentError.self) {
            try AtomicFileWriter.write(to: "/dev/full") { temporary in
                throw DocumentError.writeFailed(path: temporary, reason: "No space left on device")
            }
        }
    }

    @Test func theJournalRoundTripsAndIsRemovedOnDiscard() throws {
        let folder = TemporaryFolder()
        let journal = MarkupJournal(documentPath: "/docs/a.pdf", environment: ["XDG_STATE_HOME": folder.path])
        #expect(journal.journalPath.hasPrefix(folder.path + "/redline/a.pdf-"))
        var layer = MarkupLayer()
        layer.add(pageIndex: 2, content: .text(TextMarkup(origin: Point(x: 1, y: 2), text: "Unsaved")))
        try journal.write(DocumentEdits(markup: layer))
        #expect(journal.read()?.markup.items.map(\.content) == layer.items.map(\.content))
        journal.discard()
        #expect(journal.read() == nil)
        let other = MarkupJournal(documentPath: "/other/a.pdf", environment: ["XDG_STATE_HOME": folder.path])
        #expect(other.journalPath != journal.journalPath)
    }
}
