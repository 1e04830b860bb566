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

    @OptionGroup var passwordOption: PasswordOption

    func validate() throws {
        if pattern.isEmpty { throw ValidationError("the phrase to find is empty") }
    }

    func run() throws {
        let document: OpenedDocument
        do {
            document = try OpenedDocument.forSearching(path: input, password: passwordOption.password)
        } catch let error as DocumentError {
            throw CommandFailure(error)
        }
        // Page by page, so that a long search says how far it is.
        let progress = TerminalProgress()
        let pageCount = document.description.pageCount
        var hits: [SearchHit] = []
        for page in 0..<pageCount {
            progress.say("searching page \(page + 1) of \(pageCount) (\(hits.count) found)")
            hits += TextSearch.hits(of: pattern, in: page..<(page + 1), using: document.searcher)
        }
        progress.finish()
        try printOutput(json ? SearchReport.json(hits) : SearchReport.text(hits), terminator: "")
        // Said once, for the first page left out: a search never ends on a page poppler would read for ever. One line in
        // all, with "not found" when nothing was.
        let skipped = (0..<document.description.pageCount).filter { document.pageRefusal($0) != nil }
        let leftOut = skipped.first.flatMap { first in document.pageRefusal(first).map { why in
            (skipped.count == 1 ? "page \(first + 1)" : "\(skipped.count) pages (the first \(first + 1))") + " not searched: " + why
        } }
        if hits.isEmpty {
            let shown = VisibleText.line(pattern, limit: 60).replacingOccurrences(of: "\"", with: "\\\"")
            throw CommandFailure("\(input): \"\(shown)\" not found" + (leftOut.map { " (\($0))" } ?? ""), code: ExitStatus.notFound)
        }
        if let leftOut { printError("\(input): \(leftOut)") }
    }
}
