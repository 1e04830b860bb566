import Foundation
import RedlineCore
import Testing
import TestSupport

/// An appended save numbers its new objects itself, from the trailer's /Size on, as other incremental writers do (qpdf
/// would first read every object of the file to number one). The numbers are the ones the update lists, with no gap,
/// on every real file the tests carry; and a file qpdf repairs only while the save reads it is still saved, whole.
@Suite struct AppendedObjectNumberingTests {
    func redline(_ arguments: [String]) throws -> ProcessResult { try ProcessRunner.run(TestPaths.redline, arguments) }

    /// Every object number the cross-reference of `path` lists, as qpdf reads it.
    func numbers(_ path: String) throws -> Set<Int> {
        let listing = try ProcessRunner.run("qpdf", ["--show-xref", path]).stdout
        return Set(listing.split(separator: "\n").compactMap { line in line.split(separator: "/").first.flatMap { Int($0) } })
    }

    func trailerSize(_ path: String) throws -> Int {
        let trailer = try ProcessRunner.run("qpdf", ["--show-object=trailer", path]).stdout
        let found = try #require(trailer.range(of: #"/Size \d+"#, options: .regularExpression))
        return try #require(Int(trailer[found].dropFirst(6)))
    }

    @Test(arguments: IncrementalSaveTests.everyFixture)
    func newObjectsAreNumberedFromTheTrailersSizeWithoutGaps(source: String) throws {
        let folder = TemporaryFolder()
        let markup = folder.file("markup.json")
        try IncrementalSaveTests.markup.write(toFile: markup, atomically: true, encoding: .utf8)
        for mode in ["--annotations", "--flatten"] {
            let copy = folder.file("copy\(mode).pdf")
            let saved = try redline(["apply", source, "--markup", markup, "--output", copy, mode])
            guard saved.status == 0, saved.stdout.contains(": appended to the original (") else { continue }
            let before = try numbers(source)
            let added = try numbers(copy).subtracting(before).sorted()
            let first = max(try trailerSize(source), (before.max() ?? 0) + 1)
            #expect(!added.isEmpty, "\(source) \(mode)")
            #expect(added.first == first, "\(source) \(mode): new objects start at \(added.first ?? 0), not \(first)")
            #expect(added == Array(first..<(first + added.count)), "\(source) \(mode): \(added)")
            // The painter's font came along with its data: the text is found where it was put.
            let words = try ProcessRunner.run("pdftotext", ["-f", "1", "-l", "1", copy, "-"])
            #expect(mode == "--annotations" || words.stdout.contains("Appended"), "\(source) \(mode): \(words.stderr)")
        }
    }

    /// The sample rewritten plainly, then its pages' resource object pointed at by the cross-reference where another
    /// object is: qpdf opens the file without a word, and repairs it only when the save reads the resources. That save
    /// cannot be appended (the file's own cross-reference is wrong): it is made again, qpdf numbering, and written whole.
    @Test func aFileRepairedOnlyWhileSavingIsWrittenWhole() throws {
        let folder = TemporaryFolder()
        let plain = folder.file("plain.pdf"), damaged = folder.file("damaged.pdf"), copy = folder.file("copy.pdf")
        #expect(try ProcessRunner.run("qpdf", ["--qdf", "--object-streams=disable", TestPaths.sample, plain]).status == 0)
        var bytes = [UInt8](try #require(FileManager.default.contents(atPath: plain)))
        let text = String(decoding: bytes, as: UTF8.self)
        let resources = try #require(text.range(of: #"/Resources \d+ 0 R"#, options: .regularExpression))
        let number = try #require(Int(text[resources].dropFirst(11).dropLast(4)))
        let table = try #require(text.range(of: "\nxref\n0 ", options: .backwards))
        let firstEntry = try #require(text[table.upperBound...].firstIndex(of: "\n")).utf16Offset(in: text) + 1
        let information = try #require(text.range(of: "\n2 0 obj")).lowerBound.utf16Offset(in: text) + 1
        let entry = firstEntry + 20 * number
        bytes.replaceSubrange(entry..<(entry + 10), with: Array(String(format: "%010d", information).utf8))
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))

        let markup = folder.file("markup.json")
        try IncrementalSaveTests.markup.write(toFile: markup, atomically: true, encoding: .utf8)
        #expect(try ProcessRunner.run("qpdf", ["--show-npages", damaged]).stderr.isEmpty)
        let saved = try redline(["apply", damaged, "--markup", markup, "--output", copy, "--flatten"])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(saved.stdout.contains(": rewritten whole: "), "\(saved.stdout)")
        let check = try ProcessRunner.run("qpdf", ["--check", copy])
        #expect(check.status == 0 && !check.stdout.contains("WARNING"), "\(check.stdout) \(check.stderr)")
        let words = try ProcessRunner.run("pdftotext", ["-f", "1", "-l", "1", copy, "-"]).stdout
        #expect(words.contains("Appended"), "\(words)")
    }
}
