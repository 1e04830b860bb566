import ArgumentParser
import CommandLineSupport
import Foundation
import RedlineCore
import RedlineKit
import TerminalGrid

/// `redline search`: where a phrase is, page by page, in the coordinates markup files use.
struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Print every place a phrase occurs: its page (from 1) and its box in points from the page's top left.",
        discussion: """
            Smart case: a pattern with a capital letter matches case exactly, one without ignores case. The boxes \
            are in the space markup files use (docs/markup-format.md), so a script can place markup beside a \
            phrase. Exit status 1 when nothing matches.
            """)

    @Argument(help: "The PDF to search.", completion: .file(extensions: ["pdf"]))
    var input: String

    @Argument(help: "The phrase to find.")
    var pattern: String

    @Flag(name: .long, help: "Print a JSON array of {page, x, y, width, height}.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Search only these pages, from 1: FIRST-LAST, or one page.", valueName: "first-last"))
    var pages: String?

    @OptionGroup var passwordOption: PasswordOption

    /// A worker's part of a search shared between processes (`SearchProcesses`): its hits for the process that
    /// started it.
    @Flag(name: .customLong("worker-report"), help: .hidden)
    var workerReport = false

    /// Which of the pages that worker searches: INDEX/COUNT, every COUNTth page from the INDEXth.
    @Option(name: .customLong("worker-share"), help: .hidden)
    var workerShare: String?

    func validate() throws {
        if pattern.isEmpty { throw ValidationError("the phrase to find is empty") }
        if let pages, Self.pageBounds(pages) == nil {
            throw ValidationError("--pages takes FIRST-LAST or one page, counted from 1 (as 3-10 or 7), not \"\(pages)\"")
        }
    }

    /// FIRST-LAST or one page, from 1: (first, last), or nil when it is neither.
    static func pageBounds(_ text: String) -> (first: Int, last: Int)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard (1...2).contains(parts.count), let first = parts[0], let last = parts[parts.count - 1], first >= 1, last >= first else { return nil }
        return (first, last)
    }

    func run() throws {
        let password = passwordOption.password ?? ProcessInfo.processInfo.environment["REDLINE_SEARCH_PASSWORD"]
        let document: OpenedDocument
        do {
            document = try OpenedDocument.forSearching(path: input, password: password)
        } catch let error as DocumentError {
            throw CommandFailure(error)
        }
        let pageCount = document.description.pageCount
        var range = 0..<pageCount
        if let pages, let (first, last) = Self.pageBounds(pages) {
            guard last <= pageCount else {
                throw CommandFailure("\(input): there is no page \(last) (the document has \(pageCount))", code: ExitStatus.usage)
            }
            range = (first - 1)..<last
        }
        // One page's hits and why it was left out, the same in every process a search is shared with.
        func search(page: Int) -> (hits: [SearchHit], refusal: String?) {
            (TextSearch.hits(of: pattern, in: page..<(page + 1), using: document.searcher), document.pageRefusal(page))
        }
        if workerReport {
            let share = workerShare.flatMap { SearchProcesses.Share($0, range: range) } ?? SearchProcesses.Share(range: range, index: 0, count: 1)
            let parent = ProcessInfo.processInfo.environment["REDLINE_SEARCH_PARENT"].flatMap { pid_t($0) }
            var report = SearchProcesses.WorkerReport(hits: [], refused: [])
            for page in share.pages {
                // The search it was part of is over (interrupted, killed): nothing is left to search for.
                if let parent, getppid() != parent { throw CommandFailure("\(input): the search this was part of has ended", code: 1) }
                let (hits, refusal) = search(page: page)
                report.hits += hits
                if let refusal { report.refused.append(SearchProcesses.Refusal(page: page, reason: refusal)) }
            }
            try printOutput(String(decoding: try JSONEncoder().encode(report), as: UTF8.self))
            return
        }
        // Page by page, so that a long search says how far it is; the pages of other shares in other processes.
        let progress = TerminalProgress()
        let count = SearchProcesses.processCount(pages: range.count, environment: ProcessInfo.processInfo.environment)
        let runs = SearchProcesses.start(count, of: range, input: input, pattern: pattern, password: password)
        var hitsByPage: [Int: [SearchHit]] = [:]
        var refusedByPage: [Int: String] = [:]
        var found = 0
        func searchHere(_ share: SearchProcesses.Share) {
            for page in share.pages {
                progress.say("searching page \(page + 1) of \(pageCount) (\(found) found)")
                let (hits, refusal) = search(page: page)
                hitsByPage[page] = hits
                found += hits.count
                refusedByPage[page] = refusal
            }
        }
        for run in runs {
            guard run.process != nil else {
                searchHere(run.share)
                continue
            }
            progress.say("searching the other pages in \(count - 1) more process\(count == 2 ? "" : "es") (\(found) found so far)")
            if let report = SearchProcesses.report(of: run) {
                for hit in report.hits { hitsByPage[hit.pageIndex, default: []].append(hit) }
                for refusal in report.refused { refusedByPage[refusal.page] = refusal.reason }
            } else {
                searchHere(run.share)
            }
        }
        let hits = range.flatMap { hitsByPage[$0] ?? [] }
        let refused = range.compactMap { page in refusedByPage[page].map { (page: page, reason: $0) } }
        progress.finish()
        let labels = document.description.pageLabels
        try printOutput(json ? VisibleText.json(SearchReport.json(hits, labels: labels)) : SearchReport.text(hits, labels: labels), terminator: "")
        // Said once, for the first page left out: a search never ends on a page poppler would read for ever. One line in
        // all, with "not found" when nothing was.
        let leftOut = refused.first.map { first in
            (refused.count == 1 ? "page \(first.page + 1)" : "\(refused.count) pages (the first \(first.page + 1))") + " not searched: " + first.reason
        }
        if hits.isEmpty {
            let shown = VisibleText.line(pattern, limit: 60).replacingOccurrences(of: "\"", with: "\\\"")
            throw CommandFailure("\(input): \"\(shown)\" not found" + (leftOut.map { " (\($0))" } ?? ""), code: ExitStatus.notFound)
        }
        if let leftOut { printError("\(input): \(leftOut)") }
    }
}
