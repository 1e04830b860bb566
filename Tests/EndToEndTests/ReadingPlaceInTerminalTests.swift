import Foundation
import TestSupport
import Testing

/// The real binary opens a document where it was left, marks included; `--page` wins.
@Suite(.serialized) struct ReadingPlaceInTerminalTests {
    @Test func aDocumentOpensWhereItWasLeftWithItsMarksAndPageWins() throws {
        let folder = TemporaryFolder()
        let document = folder.file("manual.pdf")
        try FileManager.default.copyItem(atPath: TestPaths.fixture("pypdf_GeoTopo-komprimiert.pdf"), toPath: document)
        let environment = ["XDG_STATE_HOME": folder.file("state"), "XDG_CONFIG_HOME": folder.file("config")]
        let first = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", environment: environment)
        try first.waitFor("page 1/117")
        try first.send("4", "0", "G")
        try first.waitFor("page 40/117")
        try first.send("m", "a")
        try first.waitFor("Mark a: page 40")
        try first.send("3", "G", "z")
        try first.waitFor("zoom 125%")
        try first.send("q")
        try first.waitFor("REDLINE-EXIT=0")

        // A copy elsewhere has the same /ID: it opens at the same place.
        let copy = folder.file("copy of manual.pdf")
        try FileManager.default.copyItem(atPath: document, toPath: copy)
        let again = try TmuxSession(command: "'\(TestPaths.redline)' '\(copy)'", environment: environment)
        let screen = try again.waitFor("page 3/117")
        #expect(screen.contains("zoom 125%"))
        try again.send("'", "a")
        try again.waitFor("page 40/117")
        try again.send("q")
        try again.waitFor("REDLINE-EXIT=0")

        // --page chooses the page; the zoom and the marks stay the document's.
        let asked = try TmuxSession(command: "'\(TestPaths.redline)' --page 7 '\(document)'", environment: environment)
        #expect(try asked.waitFor("page 7/117").contains("zoom 125%"))
        try asked.send("'", "a")
        try asked.waitFor("page 40/117")
        try asked.send("7", "G")
        try asked.waitFor("page 7/117")
        try asked.send("q")
        try asked.waitFor("REDLINE-EXIT=0")
        // Where --page left it is the place now.
        let last = try TmuxSession(command: "'\(TestPaths.redline)' '\(document)'", environment: environment)
        try last.waitFor("page 7/117")
        try last.send("q")
        try last.waitFor("REDLINE-EXIT=0")
    }
}
