import Foundation
import TestSupport
import Testing

/// Every command that prints checks that what it printed was written: on a full disk (`/dev/full`) it exits 3 naming
/// standard output, never 0 with an empty file a script would take for "nothing found".
@Suite struct StandardOutputTests {
    static let commands: [[String]] = [
        ["annotations", TestPaths.fixture("pdfcpu_text_annotations.pdf")],
        ["annotations", TestPaths.fixture("pdfcpu_text_annotations.pdf"), "--json"],
        ["bookmarks", TestPaths.sample], ["bookmarks", TestPaths.sample, "--json"],
        ["search", TestPaths.sample, "the"], ["search", TestPaths.sample, "the", "--json"],
        ["keys"], ["xfdf", "export", TestPaths.fixture("pdfcpu_text_annotations.pdf")],
        ["--help"], ["--version"], ["annotations", "--help"], ["xfdf", "export", "--help"],
    ]

    @Test(arguments: commands)
    func aFullDiskIsExitThreeNamingStandardOutput(_ arguments: [String]) throws {
        // The shell redirects, as a user's script would.
        let line = ([TestPaths.redline] + arguments).map { "'\($0)'" }.joined(separator: " ") + " > /dev/full"
        let result = try ProcessRunner.run("/bin/sh", ["-c", line])
        #expect(result.status == 3, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasPrefix("redline: standard output: No space left on device"), "\(result.stderr)")
        // The same command to a file writes something: the failure above was the disk's.
        let ordinary = try ProcessRunner.run(TestPaths.redline, arguments)
        #expect(ordinary.status == 0 && !ordinary.stdout.isEmpty)
    }
}
