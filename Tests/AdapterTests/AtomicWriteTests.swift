import Foundation
import RedlineKit
import RedlineCore
import TestSupport
import Testing

@Suite struct AtomicWriteTests {
    func temporaryFiles(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".redline-") }
    }

    func mode(of path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as! NSNumber).intValue
    }

    /// The crash journal holds replies not sent yet: only its owner reads it, a new one or one written over an
    /// older, wider one.
    @Test func theJournalIsReadableByItsOwnerAlone() throws {
        let folder = TemporaryFolder()
        let environment = ["XDG_STATE_HOME": folder.file("state")]
        let journal = MarkupJournal(documentPath: TestPaths.sample, environment: environment)
        try journal.write([])
        #expect(try mode(of: journal.journalPath) == 0o600)
        chmod(journal.journalPath, 0o644)
        try journal.write([])
        #expect(try mode(of: journal.journalPath) == 0o600)
    }

    /// An update appended to an original: the original's bytes copied by the file system, then the update; the copy
    /// is exactly those. An original changed since it was read (appended to, or rewritten with the same size) is
    /// not copied: the write fails, the destination keeps what it had, and nothing is left behind.
    @Test func keptBytesAreCopiedOnlyFromTheOriginalAsItWasRead() throws {
        let folder = TemporaryFolder()
        let original = folder.file("original.pdf")
        let body = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try body.write(to: URL(fileURLWithPath: original))
        let identity = try #require(FileIdentity(path: original))
        let update = Data("\nappended\n".utf8)
        let destination = folder.file("copy.pdf")
        try AtomicFileWriter.write(WrittenDocument(prefix: KeptBytes(path: original, length: body.count, identity: identity), bytes: update,
                                                   outcome: .appended(bytes: update.count)), to: destination)
        #expect(FileManager.default.contents(atPath: destination) == body + update)

        let before = try #require(FileManager.default.contents(atPath: destination))
        let handle = try #require(FileHandle(forWritingAtPath: original))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("more".utf8))
        try handle.close()
        #expect(throws: DocumentError.self) {
            try AtomicFileWriter.write(WrittenDocument(prefix: KeptBytes(path: original, length: body.count, identity: identity), bytes: update,
                                                       outcome: .appended(bytes: update.count)), to: destination)
        }
        // Rewritten in place to the size it had: its time of change tells.
        try body.write(to: URL(fileURLWithPath: original))
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        utimensat(AT_FDCWD, original, &times, 0)
        #expect(throws: DocumentError.self) {
            try AtomicFileWriter.write(WrittenDocument(prefix: KeptBytes(path: original, length: body.count, identity: identity), bytes: update,
                                                       outcome: .appended(bytes: update.count)), to: destination)
        }
        #expect(FileManager.default.contents(atPath: destination) == before)
        #expect(try temporaryFiles(in: folder.path).isEmpty)
    }

    /// A document made from a file that another program rewrote while it was read (qpdf reads objects as they are
    /// asked for, so the copy would hold parts of both, or streams cut short) is not put in place, whether it was
    /// appended or rewritten whole: the write fails, saying so, and the destination keeps what it had.
    @Test func aDocumentMadeFromAFileThatChangedMeanwhileIsNotPutInPlace() throws {
        let folder = TemporaryFolder()
        let original = folder.file("original.pdf"), destination = folder.file("copy.pdf")
        try Data("the original, as read".utf8).write(to: URL(fileURLWithPath: original))
        try Data("what the copy replaces".utf8).write(to: URL(fileURLWithPath: destination))
        let read = FileState(path: original, identity: try #require(FileIdentity(path: original)))
        // Rewritten in place with the same size: only its time of change tells.
        try Data("the original, as READ".utf8).write(to: URL(fileURLWithPath: original))
        var times = [timespec(tv_sec: 2_000_000, tv_nsec: 0), timespec(tv_sec: 2_000_000, tv_nsec: 0)]
        utimensat(AT_FDCWD, original, &times, 0)
        var document = WrittenDocument(bytes: Data("a whole new document".utf8), outcome: .rewritten(because: "asked"))
        document.readFrom = read
        #expect(throws: DocumentError.self) { try AtomicFileWriter.write(document, to: destination) }
        #expect(FileManager.default.contents(atPath: destination) == Data("what the copy replaces".utf8))
        #expect(try temporaryFiles(in: folder.path).isEmpty)
        // Unchanged, the same document is written.
        document.readFrom = FileState(path: original, identity: try #require(FileIdentity(path: original)))
        try AtomicFileWriter.write(document, to: destination)
        #expect(FileManager.default.contents(atPath: destination) == Data("a whole new document".utf8))
    }

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

    @Test func aWriteThatFailsItsCheckLeavesTheDestinationAsItWasAndNoTemporaryFile() throws {
        let folder = TemporaryFolder()
        let destination = folder.file("kept.pdf")
        try "previous contents".write(toFile: destination, atomically: true, encoding: .utf8)
        var checked: String?
        #expect(throws: DocumentError.self) {
            try AtomicFileWriter.write(Data("new contents".utf8), to: destination) { temporary in
                checked = try String(contentsOfFile: temporary, encoding: .utf8)
                throw DocumentError.writeFailed(path: destination, reason: "the copy does not read back")
            }
        }
        #expect(checked == "new contents", "the check sees the complete new file before it is renamed")
        #expect(try String(contentsOfFile: destination, encoding: .utf8) == "previous contents")
        #expect(try temporaryFiles(in: folder.path).isEmpty)
    }

    @Test func aLinkIsWrittenThroughAndStaysALinkWithItsTargetsMode() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("real"), withIntermediateDirectories: true)
        let target = folder.file("real/report.pdf")
        try "old".write(toFile: target, atomically: true, encoding: .utf8)
        chmod(target, 0o640)
        // A relative link, through a second link: both stay links and the file behind them changes.
        try FileManager.default.createSymbolicLink(atPath: folder.file("first.pdf"), withDestinationPath: "real/report.pdf")
        try FileManager.default.createSymbolicLink(atPath: folder.file("second.pdf"), withDestinationPath: folder.file("first.pdf"))
        try AtomicFileWriter.write(Data("new".utf8), to: folder.file("second.pdf"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("second.pdf")) == folder.file("first.pdf"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("first.pdf")) == "real/report.pdf")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
        #expect(try mode(of: target) == 0o640, "the replaced file keeps its permissions, not the link's 0777")
        #expect(try temporaryFiles(in: folder.file("real")).isEmpty)

        // A link to a file that does not exist yet creates that file.
        try FileManager.default.createSymbolicLink(atPath: folder.file("dangling.pdf"), withDestinationPath: "real/new.pdf")
        try AtomicFileWriter.write(Data("created".utf8), to: folder.file("dangling.pdf"))
        #expect(try String(contentsOfFile: folder.file("real/new.pdf"), encoding: .utf8) == "created")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("dangling.pdf")) == "real/new.pdf")
    }

    @Test func newFilesFollowTheUmaskAndFoldersAndDevicesAreRefused() throws {
        let folder = TemporaryFolder()
        let previous = umask(0o027)
        defer { umask(previous) }
        try AtomicFileWriter.write(Data("x".utf8), to: folder.file("new.pdf"))
        #expect(try mode(of: folder.file("new.pdf")) == 0o640, "0644 less the umask 027")
        umask(0o022)
        try AtomicFileWriter.write(Data("y".utf8), to: folder.file("other.pdf"))
        #expect(try mode(of: folder.file("other.pdf")) == 0o644)

        try FileManager.default.createDirectory(atPath: folder.file("a folder"), withIntermediateDirectories: true)
        #expect(throws: DocumentError.writeFailed(path: folder.file("a folder"), reason: "it is a folder")) {
            try AtomicFileWriter.write(Data("z".utf8), to: folder.file("a folder"))
        }
        if FileManager.default.fileExists(atPath: "/dev/null"), access("/dev", W_OK) == 0 {
            #expect(throws: DocumentError.writeFailed(path: "/dev/null", reason: "it is not a regular file")) {
                try AtomicFileWriter.write(Data("z".utf8), to: "/dev/null")
            }
        }
    }

    @Test func leftoversOfEndedProcessesAreRemovedOnTheNextWriteAndNothingElseIs() throws {
        let folder = TemporaryFolder()
        // A process number no process has (the kernel's largest is below 2^22).
        let gone: Int32 = 4_194_303
        #expect(kill(gone, 0) != 0)
        let myStart = try #require(try String(contentsOfFile: "/proc/self/stat", encoding: .utf8)
            .split(separator: ")").last?.split(separator: " ")[19])
        let here = TemporaryFiles.place
        let elsewhere = here == "00000000" ? "11111111" : "00000000"
        let names = [
            "stale new form": ".report-v2.pdf.redline-\(gone)-12345-\(here)-0badf00d.tmp",
            "stale earlier form": ".report.pdf.redline-\(gone)-3118493231.tmp",
            "reused number": ".report.pdf.redline-\(getpid())-1-\(here)-0badf00d.tmp",
            "mine, in flight": ".report.pdf.redline-\(getpid())-\(myStart)-\(here)-0badf00d.tmp",
            "another machine's, fresh": ".report.pdf.redline-\(gone)-12345-\(elsewhere)-0badf00d.tmp",
            "another machine's, two days old": ".old.pdf.redline-\(gone)-12345-\(elsewhere)-0badf00d.tmp",
            "someone else's": ".report.pdf.swp",
            "not hidden": "report.pdf.redline-\(gone)-1-\(here)-0badf00d.tmp",
        ]
        for name in names.values { try "partial".write(toFile: folder.file(name), atomically: false, encoding: .utf8) }
        // Process numbers from another PID namespace or machine say nothing here: only age counts.
        let twoDaysAgo = Date().addingTimeInterval(-2 * 24 * 3600)
        try FileManager.default.setAttributes([.modificationDate: twoDaysAgo], ofItemAtPath: folder.file(names["another machine's, two days old"]!))
        try AtomicFileWriter.write(Data("done".utf8), to: folder.file("report.pdf"))
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(!left.contains(names["stale new form"]!))
        #expect(!left.contains(names["stale earlier form"]!))
        #expect(!left.contains(names["reused number"]!), "a live process with another start time did not make it")
        #expect(left.contains(names["mine, in flight"]!))
        #expect(left.contains(names["another machine's, fresh"]!), "a save in another container may still be writing it")
        #expect(!left.contains(names["another machine's, two days old"]!))
        #expect(TemporaryFiles.name(for: String(repeating: "é", count: 200) + ".pdf").utf8.count <= 255)
        #expect(left.contains(names["someone else's"]!))
        #expect(left.contains(names["not hidden"]!))
    }

    @Test func theJournalRoundTripsAndIsRemovedOnDiscard() throws {
        let folder = TemporaryFolder()
        let journal = MarkupJournal(documentPath: "/docs/a.pdf", environment: ["XDG_STATE_HOME": folder.path])
        #expect(journal.journalPath.hasPrefix(folder.path + "/redline/a.pdf-"))
        var layer = MarkupLayer()
        layer.add(pageIndex: 2, content: .text(TextMarkup(origin: Point(x: 1, y: 2), text: "Unsaved")))
        try journal.write(DocumentEdits(markup: layer).asOperations())
        #expect(journal.read()?.markup.items.map(\.content) == layer.items.map(\.content))
        journal.discard()
        #expect(journal.read() == nil)
        let other = MarkupJournal(documentPath: "/other/a.pdf", environment: ["XDG_STATE_HOME": folder.path])
        #expect(other.journalPath != journal.journalPath)
    }

    @Test func longAndForeignDocumentNamesStillGiveAJournalThatCanBeWritten() throws {
        let folder = TemporaryFolder()
        for name in [String(repeating: "n", count: 250) + ".pdf", String(repeating: "議事録", count: 40) + ".pdf"] {
            let journal = MarkupJournal(documentPath: "/docs/" + name, environment: ["XDG_STATE_HOME": folder.path])
            #expect((journal.journalPath as NSString).lastPathComponent.utf8.count <= 80)
            var layer = MarkupLayer()
            layer.add(pageIndex: 0, content: .text(TextMarkup(origin: Point(x: 1, y: 2), text: "kept")))
            try journal.write(DocumentEdits(markup: layer).asOperations())
            #expect(journal.read()?.markup.items.count == 1)
        }
    }

    @Test func aLongDocumentIDGivesASidecarFileNameOfOrdinaryLength() throws {
        let folder = TemporaryFolder()
        let identity = String(repeating: "ab", count: 200)
        let provider = SidecarBookmarkProvider(documentPath: "/docs/a.pdf", permanentID: identity,
                                               environment: ["XDG_DATA_HOME": folder.path])
        #expect((provider.filePath as NSString).lastPathComponent.utf8.count < 80)
        var write = DocumentWrite(originalMetadata: nil)
        try provider.save([Bookmark(id: UUID().uuidString, pageIndex: 0, name: "Kept", sortKey: 0)], into: &write)
        #expect(try provider.load().map(\.name) == ["Kept"])
        // An ordinary 16-byte identity keeps the name sidecar files always had.
        let ordinary = SidecarBookmarkProvider(documentPath: "/docs/a.pdf", permanentID: String(repeating: "0f", count: 16),
                                               environment: ["XDG_DATA_HOME": folder.path])
        #expect((ordinary.filePath as NSString).lastPathComponent == String(repeating: "0f", count: 16) + ".json")
    }

    /// Two editors on one document: the second takes its own journal and never offers, or removes, the first's.
    @Test func aRunningEditorsJournalIsItsOwn() throws {
        let folder = TemporaryFolder()
        let environment = ["XDG_STATE_HOME": folder.path]
        let first = try #require(MarkupJournal.claim(documentPath: "/docs/a.pdf", environment: environment))
        let second = try #require(MarkupJournal.claim(documentPath: "/docs/a.pdf", environment: environment))
        #expect(first.journalPath != second.journalPath)
        var layer = MarkupLayer()
        layer.add(pageIndex: 0, content: .text(TextMarkup(origin: Point(x: 1, y: 2), text: "first's")))
        try first.write(DocumentEdits(markup: layer).asOperations())
        #expect(second.contents() == .none)
        second.discard()
        #expect(first.read() != nil)
    }

    /// A journal that cannot be read is moved aside, never silently removed.
    @Test func anUnreadableJournalIsKeptAside() throws {
        let folder = TemporaryFolder()
        let journal = MarkupJournal(documentPath: "/docs/a.pdf", environment: ["XDG_STATE_HOME": folder.path])
        try FileManager.default.createDirectory(atPath: folder.file("redline"), withIntermediateDirectories: true)
        try "{ not json".write(toFile: journal.journalPath, atomically: true, encoding: .utf8)
        // As Redline writes journals: its owner's alone (one others could read is not offered at all).
        chmod(journal.journalPath, 0o600)
        guard case .unreadable(let kept) = journal.contents() else {
            Issue.record("an unreadable journal is reported")
            return
        }
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "{ not json")
        #expect(!FileManager.default.fileExists(atPath: journal.journalPath))
    }

    @Test func aCheckThatCannotFindTheCopyIsAWriteFailure() throws {
        let folder = TemporaryFolder()
        #expect {
            try AtomicFileWriter.write(Data("x".utf8), to: folder.file("out.pdf")) { temporary in
                unlink(temporary)
                throw DocumentError.notFound(path: temporary)
            }
        } throws: { error in
            guard case DocumentError.writeFailed(let path, let reason) = error else { return false }
            return path == folder.file("out.pdf") && reason.hasPrefix("the written copy does not read back whole")
        }
        #expect(throws: DocumentError.writeFailed(path: "", reason: "no file name was given")) {
            try AtomicFileWriter.write(Data("x".utf8), to: "")
        }
    }
}
