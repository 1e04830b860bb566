import Foundation
import TestSupport
import Testing

/// `redline search` against an independent reader: pdftotext's word boxes (crop box, top-left origin) are the
/// boxes markup files use, so every hit must be one of them, on pages turned every way.
@Suite struct SearchCommandTests {
    struct Hit: Decodable, Equatable {
        struct Box: Decodable, Equatable { let x, y, width, height: Double }
        let page: Int
        let x, y, width, height: Double
    }

    func search(_ arguments: [String]) throws -> (status: Int32, hits: [Hit], stderr: String) {
        let result = try ProcessRunner.run(TestPaths.redline, ["search"] + arguments + ["--json"])
        return (result.status, try JSONDecoder().decode([Hit].self, from: Data(result.stdout.utf8)), result.stderr)
    }

    @Test func hitsAreTheWordBoxesPdftotextFindsOnEveryRotation() throws {
        // qpdf_boxes.pdf: /Rotate 0, 90, 180, 270, a crop box inside offset media boxes.
        let found = try search([TestPaths.fixture("qpdf_boxes.pdf"), "red"])
        #expect(found.status == 0)
        for page in 1...8 {
            let words = try PopplerText.words(in: TestPaths.fixture("qpdf_boxes.pdf"), page: page).filter { $0.text == "red" }
            let hits = found.hits.filter { $0.page == page }
            #expect(hits.count == words.count && !words.isEmpty, "page \(page): \(hits.count) hits, \(words.count) words")
            for word in words {
                #expect(hits.contains { abs($0.x - word.xMin) < 0.5 && abs($0.y - word.yMin) < 0.5
                    && abs($0.x + $0.width - word.xMax) < 0.5 && abs($0.y + $0.height - word.yMax) < 0.5 },
                        "page \(page): no hit at \(word)")
            }
        }
    }

    @Test func smartCaseIgnoresCaseUnlessThePatternHasACapital() throws {
        let sample = TestPaths.sample
        let words = try (1...4).flatMap { page in try PopplerText.words(in: sample, page: page).map { (page, $0.text) } }
        let any = try search([sample, "the"]).hits
        let capital = try search([sample, "The"]).hits
        #expect(capital.count == words.filter { $0.1 == "The" }.count)
        #expect(any.count >= words.filter { $0.1.lowercased() == "the" }.count)
        #expect(capital.allSatisfy { hit in any.contains(hit) }, "a case-exact hit is among the case-blind ones")
        #expect(capital.count < any.count)
    }

    @Test func aPhraseRunsOverALineBreakAndSpacesAreSpaces() throws {
        // sample.pdf page 1: "… to nudge it, + and - to" ends a line and "change" starts the next.
        struct Multi: Decodable { let page: Int; let lines: [Hit.Box]? }
        let result = try ProcessRunner.run(TestPaths.redline, ["search", TestPaths.sample, "nudge  it,\t+ and - to change", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let hits = try JSONDecoder().decode([Multi].self, from: Data(result.stdout.utf8))
        #expect(hits.count == 1 && hits.first?.lines?.count == 2, "\(result.stdout)")
        let words = try PopplerText.words(in: TestPaths.sample, page: 1)
        let change = try #require(words.first { $0.text == "change" })
        let second = try #require(hits.first?.lines?.last)
        #expect(abs(second.x - change.xMin) < 0.5 && abs(second.y - change.yMin) < 0.5, "the second line's box starts at \"change\"")
    }

    @Test func nothingFoundIsExitOneWithAnEmptyArray() throws {
        let found = try search([TestPaths.sample, "Nowhere to be found"])
        #expect(found.status == 1 && found.hits.isEmpty)
        #expect(found.stderr.contains("\"Nowhere to be found\" not found"))
        let plain = try ProcessRunner.run(TestPaths.redline, ["search", TestPaths.sample, "\u{1B}[31mred"])
        #expect(plain.status == 1 && plain.stdout.isEmpty)
        #expect(!plain.stderr.contains("\u{1B}"), "the pattern is shown with its escape made visible")
    }

    /// A long document's pages are shared between processes, one a core: the hits, their order and every message must
    /// be what one process alone finds, whatever the number of processes, and `--pages` keeps to its pages.
    @Test(arguments: ["die", "Topologie", "xyzzy"])
    func pagesSearchedInSeveralProcessesFindWhatOneProcessFinds(pattern: String) throws {
        // A 117-page manual.
        let path = TestPaths.fixture("pypdf_GeoTopo-komprimiert.pdf")
        func run(_ processes: Int, _ extra: [String] = []) throws -> ProcessResult {
            var environment = ProcessInfo.processInfo.environment
            environment["REDLINE_SEARCH_PROCESSES"] = "\(processes)"
            return try ProcessRunner.run(TestPaths.redline, ["search", path, pattern, "--json"] + extra, environment: environment)
        }
        let alone = try run(1)
        #expect(alone.status == (pattern == "xyzzy" ? 1 : 0))
        for processes in [2, 3, 5] {
            let shared = try run(processes)
            #expect(shared.status == alone.status && shared.stdout == alone.stdout && shared.stderr == alone.stderr,
                    "\(processes) processes: \(shared.stderr)")
        }
        let all = try JSONDecoder().decode([Hit].self, from: Data(alone.stdout.utf8))
        let some = try JSONDecoder().decode([Hit].self, from: Data(try run(2, ["--pages", "2-5"]).stdout.utf8))
        #expect(some == all.filter { (2...5).contains($0.page) })
    }

    /// A document that prints its own page numbers has them beside each hit's page, as pikepdf reads them.
    @Test func hitsShowThePagesAsTheDocumentPrintsThem() throws {
        let path = TestPaths.fixture("pypdf_GeoTopo-komprimiert.pdf")
        struct Labelled: Decodable { let page: Int; let label: String? }
        let json = try ProcessRunner.run(TestPaths.redline, ["search", path, "Topologie", "--json"])
        let hits = try JSONDecoder().decode([Labelled].self, from: Data(json.stdout.utf8))
        #expect(hits.count > 20)
        let read = try ProcessRunner.run(TestPaths.python, ["-c", """
            import json, pikepdf, sys
            pdf = pikepdf.open(sys.argv[1])
            print(json.dumps([page.label for page in pdf.pages]))
            """, path])
        let labels = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String], "\(read.stderr)")
        for hit in hits { #expect(hit.label == labels[hit.page - 1], "page \(hit.page)") }
        #expect(Set(hits.map(\.label)).contains { $0 != nil && Int($0!) == nil }, "front matter in roman numerals among the hits")
        let text = try ProcessRunner.run(TestPaths.redline, ["search", path, "Topologie"])
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count == hits.count)
        for (line, hit) in zip(lines, hits) {
            let shown = labels[hit.page - 1] == "\(hit.page)" ? "p\(hit.page)  x " : "p\(hit.page) (\(labels[hit.page - 1]))  x "
            #expect(line.hasPrefix(shown), "\(line)")
        }
    }

    @Test func pagesOutsideTheDocumentOrMisspeltAreClearErrors() throws {
        let beyond = try ProcessRunner.run(TestPaths.redline, ["search", TestPaths.sample, "the", "--pages", "2-99"])
        #expect(beyond.status == 1 && beyond.stderr.contains("there is no page 99 (the document has 4)"), "\(beyond.status) \(beyond.stderr)")
        for text in ["0-3", "5-2", "x", "1-2-3", ""] {
            let wrong = try ProcessRunner.run(TestPaths.redline, ["search", TestPaths.sample, "the", "--pages", text])
            #expect(wrong.status == 1 && wrong.stderr.contains("--pages takes FIRST-LAST"), "\(text): \(wrong.stderr)")
        }
    }

    /// The processes a search is shared with open an encrypted document with the password the command was given
    /// (passed to them in the environment, not on their command line), and find what one process finds.
    @Test func anEncryptedDocumentIsSearchedAlikeInSeveralProcesses() throws {
        let path = TestPaths.fixture("qpdf_enc-XI-R6_V5_U-view.pdf")
        func run(_ processes: Int) throws -> ProcessResult {
            var environment = ProcessInfo.processInfo.environment
            environment["REDLINE_SEARCH_PROCESSES"] = "\(processes)"
            return try ProcessRunner.run(TestPaths.redline, ["search", path, "Potato", "--json", "--password", "view"], environment: environment)
        }
        let alone = try run(1)
        let shared = try run(3)
        #expect(alone.status == 0 && !alone.stdout.isEmpty, "\(alone.stderr)")
        #expect(shared.status == alone.status && shared.stdout == alone.stdout && shared.stderr == alone.stderr, "\(shared.stderr)")
    }
}
