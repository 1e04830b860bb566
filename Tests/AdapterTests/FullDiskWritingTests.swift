import Foundation
import RedlineKit
import RedlineCore
import TestSupport
import Testing

/// Journals and sidecar bookmark files on a disk with no room left: the write fails, says why, and what
/// was there before is still there. Needs root to mount a tmpfs; skipped elsewhere with the reason.
@Suite(.serialized, .enabled(if: SmallDisk.unavailable == nil, Comment(rawValue: SmallDisk.unavailable ?? "")))
struct FullDiskWritingTests {
    func edits(_ text: String, count: Int) -> DocumentEdits {
        var layer = MarkupLayer()
        for index in 0..<count {
            layer.add(pageIndex: 0, content: .text(TextMarkup(origin: Point(x: 1, y: Double(index)), text: text)))
        }
        return DocumentEdits(markup: layer)
    }

    @Test func aJournalThatCannotBeWrittenLeavesTheEarlierOneWhole() throws {
        let disk = try SmallDisk(megabytes: 1)
        let journal = MarkupJournal(documentPath: "/docs/a.pdf", environment: ["XDG_STATE_HOME": disk.path])
        try journal.write(edits("first", count: 1).asOperations())
        try disk.fill(leaving: 0)
        #expect(throws: DocumentError.self) { try journal.write(edits("second, much longer", count: 2000).asOperations()) }
        #expect(journal.read()?.markup.items.map(\.content) == edits("first", count: 1).markup.items.map(\.content))
        #expect(try disk.temporaryFiles().isEmpty)
        try FileManager.default.contentsOfDirectory(atPath: disk.path + "/redline")
            .filter { $0.contains(".redline-") }.forEach { Issue.record("left behind: \($0)") }
    }

    @Test func aSidecarThatCannotBeWrittenLeavesTheEarlierOneWhole() throws {
        let disk = try SmallDisk(megabytes: 1)
        let provider = SidecarBookmarkProvider(documentPath: "/docs/a.pdf", permanentID: String(repeating: "0f", count: 16),
                                               environment: ["XDG_DATA_HOME": disk.path])
        var write = DocumentWrite(originalMetadata: nil)
        try provider.save([Bookmark(id: UUID().uuidString, pageIndex: 0, name: "Before", sortKey: 0)], into: &write)
        try disk.fill(leaving: 0)
        let many = (0..<3000).map { Bookmark(id: UUID().uuidString, pageIndex: 0, name: "After \($0)", sortKey: $0) }
        #expect(throws: DocumentError.self) { try provider.save(many, into: &write) }
        #expect(try provider.load().map(\.name) == ["Before"])
        let folder = (provider.filePath as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".redline-") }.isEmpty)
    }
}
