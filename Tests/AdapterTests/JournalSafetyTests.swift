import Foundation
import RedlineCore
import RedlineKit
import TestSupport
import Testing

/// The crash journal is the user's alone: its folder is made 0700 and not used when another user owns it or others
/// may write in it; only journals the user wrote, readable by them alone, are offered; a link planted where a journal
/// goes is replaced, never written through; and a journal holding numbers no markup has is set aside, not restored.
@Suite struct JournalSafetyTests {
    static func environment(_ folder: TemporaryFolder) -> [String: String] { ["XDG_STATE_HOME": folder.file("state")] }

    static func edits(_ origin: Point, page: Int = 0) -> DocumentEdits {
        var layer = MarkupLayer()
        layer.add(pageIndex: page, content: .text(TextMarkup(origin: origin, text: "Unsaved")))
        return DocumentEdits(markup: layer)
    }

    func mode(_ path: String) -> mode_t {
        var status = stat()
        lstat(path, &status)
        return status.st_mode & 0o777
    }

    @Test func theFolderIsMadeForItsOwnerAlone() throws {
        let folder = TemporaryFolder()
        let environment = Self.environment(folder)
        let journal = try #require(MarkupJournal.claim(documentPath: "/docs/a.pdf", environment: environment))
        #expect(mode((journal.journalPath as NSString).deletingLastPathComponent) == 0o700)
    }

    @Test func aFolderOthersMayWriteInIsNotUsedAndSaysWhy() throws {
        let folder = TemporaryFolder()
        let environment = Self.environment(folder)
        let redline = folder.file("state/redline")
        try FileManager.default.createDirectory(atPath: redline, withIntermediateDirectories: true)
        chmod(redline, 0o777)
        #expect(MarkupJournal.claim(documentPath: "/docs/a.pdf", environment: environment) == nil)
        #expect(MarkupJournal.folderProblem(environment: environment) == "chmod 700 \(redline) (others may write in it: mode 777)")
        #expect(MarkupJournal.standardErrorLog(environment: environment) == nil, "nor is the log written there")
        chmod(redline, 0o700)
        #expect(MarkupJournal.claim(documentPath: "/docs/a.pdf", environment: environment) != nil)
        // Another user's folder (root can give it away to show it).
        if geteuid() == 0 {
            chown(redline, 65534, 65534)
            #expect(MarkupJournal.folderProblem(environment: environment) == "its folder \(redline) belongs to another user (uid 65534)")
        }
        // A link in the folder's place.
        let elsewhere = folder.file("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.removeItem(atPath: redline)
        symlink(elsewhere, redline)
        #expect(MarkupJournal.folderProblem(environment: environment)?.hasSuffix(" is a symbolic link") == true)
    }

    /// A shared session's journal keeps the server's version each change was made on and the server's annotations
    /// the session changed, as shown, and gives them back; a version no server gives, or an annotation under another
    /// name than its own, is left out; a journal of another kind has none, and one others could write gives none.
    @Test func aSharedSessionsJournalKeepsTheVersionsItsChangesWereMadeOn() throws {
        let folder = TemporaryFolder()
        let journal = try #require(MarkupJournal.claim(documentPath: "/docs/a.pdf", environment: Self.environment(folder)))
        var shown = Annotation(id: "note-1", pageIndex: 0, subtype: "Square", rect: Rect(x: 70, y: 361.8, width: 120, height: 20),
                               contents: "As shown \"before\"\n the crash")
        shown.drawing.color = RGBColor(red: 200, green: 10, blue: 10)
        let pages = [PageGeometry(mediaBox: PDFBox(x1: 0, y1: 0, x2: 612, y2: 792))]
        let xfdf = XFDF.document([shown], pages: pages)
        let written = SharedJournal(bases: ["note-1": 7, "odd \"name\"\n": 0, "bad": -3], shown: ["note-1": xfdf, "renamed": xfdf])
        try journal.write(Self.edits(Point(x: 10, y: 10)).asOperations(), shared: written)
        let read = journal.shared()
        #expect(read.bases == ["note-1": 7, "odd \"name\"\n": 0])
        // As shown, its look included; an annotation kept under another name than its own is not taken for it.
        #expect(read.shownAnnotation("note-1", pages: pages)?.drawing.color == shown.drawing.color, "\(xfdf)")
        #expect(read.shownAnnotation("note-1", pages: pages)?.contents == shown.contents)
        #expect(read.shownAnnotation("renamed", pages: pages) == nil)
        #expect(journal.read() == Self.edits(Point(x: 10, y: 10)), "the edits read as before")
        try journal.write(Self.edits(Point(x: 10, y: 10)).asOperations())
        #expect(journal.shared().isEmpty)
        #expect(!String(decoding: try #require(FileManager.default.contents(atPath: journal.journalPath)), as: UTF8.self).contains("shared"))
        try journal.write(Self.edits(Point(x: 10, y: 10)).asOperations(), shared: written)
        chmod(journal.journalPath, 0o644)
        #expect(journal.shared().isEmpty)
    }

    /// A journal another user planted (their text, a deleted note) is never offered, nor one others could have written.
    @Test func aJournalThatIsNotTheUsersOwnIsNeverOffered() throws {
        let folder = TemporaryFolder()
        let environment = Self.environment(folder)
        let journal = try #require(MarkupJournal.claim(documentPath: "/docs/a.pdf", environment: environment))
        try journal.write(Self.edits(Point(x: 10, y: 10)).asOperations())
        #expect(journal.contents() != .none)
        chmod(journal.journalPath, 0o644)
        #expect(journal.contents() == .notYours(reason: "others may read or write it (mode 644)"))
        #expect(journal.read() == nil)
        chmod(journal.journalPath, 0o600)
        if geteuid() == 0 {
            chown(journal.journalPath, 65534, 65534)
            #expect(journal.contents() == .notYours(reason: "it belongs to another user (uid 65534)"))
            chown(journal.journalPath, 0, 0)
        }
        // A link to a journal of the user's own elsewhere is not one either.
        let real = folder.file("real.json")
        try FileManager.default.moveItem(atPath: journal.journalPath, toPath: real)
        symlink(real, journal.journalPath)
        #expect(journal.contents() == .notYours(reason: "it is a symbolic link"))
    }

    /// A link planted where the journal goes, while the editor runs, is replaced by the journal; what it pointed at
    /// is not touched.
    @Test func aLinkInTheJournalsPlaceIsReplacedNotWrittenThrough() throws {
        let folder = TemporaryFolder()
        let environment = Self.environment(folder)
        let journal = try #require(MarkupJournal.claim(documentPath: "/docs/a.pdf", environment: environment))
        let victim = folder.file("victim.conf")
        try "precious\n".write(toFile: victim, atomically: true, encoding: .utf8)
        symlink(victim, journal.journalPath)
        try journal.write(Self.edits(Point(x: 10, y: 10)).asOperations())
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        var status = stat()
        lstat(journal.journalPath, &status)
        #expect(status.st_mode & S_IFMT == S_IFREG, "the link is gone, the journal in its place")
        #expect(journal.read()?.markup.items.count == 1)
    }

    /// Numbers around 1e300 (which crashed the editor after Restore) make the journal unreadable: set aside once, not
    /// offered at every open; markup off the document's pages too.
    @Test(arguments: [Point(x: 1e300, y: 10), Point(x: 10, y: -1e300), Point(x: 5000, y: 10)])
    func aJournalWhoseMarkupCannotBeIsSetAside(_ origin: Point) throws {
        let folder = TemporaryFolder()
        let environment = Self.environment(folder)
        let journal = try #require(MarkupJournal.claim(documentPath: "/docs/a.pdf", environment: environment))
        try journal.write(Self.edits(origin).asOperations())
        let sizes = [Size(width: 612, height: 792)]
        guard case .unreadable(let kept) = journal.contents(pageSizes: sizes, measuredBy: RedlineServices().measurer) else {
            Issue.record("offered: \(origin)")
            return
        }
        #expect(kept.contains(".unreadable-") && FileManager.default.fileExists(atPath: kept))
        #expect(journal.contents(pageSizes: sizes, measuredBy: RedlineServices().measurer) == .none, "not offered again")
        // The same journal on a page it fits is offered.
        try journal.write(Self.edits(Point(x: 10, y: 10)).asOperations())
        #expect(journal.contents(pageSizes: sizes, measuredBy: RedlineServices().measurer) != .none)
    }

    /// Text still being typed when the editor died is held to what can be drawn, not to what a commit would place:
    /// words running past the right edge, or that the font lacks, come back with everything else (the editor then
    /// pulls them onto the page, or refuses them, when they are committed).
    @Test(arguments: ["a note typed far past the right edge of the page, still being typed", "see 第3章"])
    func textStillBeingTypedComesBackWithTheRest(_ typed: String) throws {
        let folder = TemporaryFolder()
        let journal = try #require(MarkupJournal.claim(documentPath: "/docs/a.pdf", environment: Self.environment(folder)))
        var layer = MarkupLayer()
        layer.add(pageIndex: 0, content: .text(TextMarkup(origin: Point(x: 72, y: 72), text: "Committed")))
        layer.add(pageIndex: 0, content: .text(TextMarkup(origin: Point(x: 440, y: 100), text: typed)))
        try journal.write(DocumentEdits(markup: layer).asOperations())
        guard case .edits(let edits) = journal.contents(pageSizes: [Size(width: 612, height: 792)], measuredBy: RedlineServices().measurer) else {
            Issue.record("set aside")
            return
        }
        #expect(edits.markup.items.count == 2)
    }

    /// An annotation moved 1e300 points in a journal is set aside too.
    @Test func aJournalMovingAnAnnotationPastAnyPageIsSetAside() throws {
        let folder = TemporaryFolder()
        let journal = try #require(MarkupJournal.claim(documentPath: "/docs/a.pdf", environment: Self.environment(folder)))
        let move = DocumentOperation(id: StableUUID.derived(seed: 1, item: "m"), author: "A", time: PDFDate(year: 2026, month: 1, day: 1),
                                     changes: [.moveAnnotation(id: "note", before: nil,
                                                               after: AnnotationEdits.Move(dx: 1e300, dy: 0, modified: PDFDate(year: 2026, month: 1, day: 1)))])
        try journal.write([move])
        let contents = journal.contents(pageSizes: [Size(width: 612, height: 792)], measuredBy: RedlineServices().measurer)
        guard case .unreadable = contents else {
            Issue.record("\(contents)")
            return
        }
    }
}
