import ArgumentParser
import CommandLineSupport
import Foundation
import RedlineKit
import RedlineCore
import TerminalGrid

/// `redline bookmarks`: a PDF's bookmarks, read and written the way Apple Preview and PSPDFKit keep them.
struct Bookmarks: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bookmarks",
        abstract: "List, add or remove a PDF's bookmarks (kept in its XMP metadata, or a sidecar file).",
        subcommands: [List.self, Add.self, Remove.self],
        defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the bookmarks, in the configured order.")

        @Argument(help: "The PDF to read.", completion: .file(extensions: ["pdf"]))
        var input: String

        @Flag(name: .long, help: "Print a JSON array of {id, page, name}.")
        var json = false

        @OptionGroup var passwordOption: PasswordOption
        @OptionGroup var outlineOption: OutlineOption

        func run() throws {
            let (job, order) = try BookmarkCommand.job(input, passwordOption, outlineOption)
            let (list, problems) = try BookmarkCommand.run { try job.list() }
            for problem in problems { printError("\(input): bookmarks not read: \(problem)") }
            let bookmarks = list.sorted(order)
            if json {
                try printOutput(BookmarkJob.json(bookmarks))
            } else if bookmarks.isEmpty {
                try printOutput("No bookmarks.")
            } else {
                for bookmark in bookmarks {
                    try printOutput(VisibleText.of((bookmark.pageIndex.map { "p\($0 + 1)" } ?? "—") + "  " + bookmark.title + "  id:" + bookmark.id))
                }
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Bookmark a page and write a copy.")

        @OptionGroup var change: PageChange

        @Option(name: .long, help: "The bookmark's name.")
        var name: String?

        func run() throws {
            var (job, description) = try change.checkedJob()
            let output = change.output
            job.written = { outcome, description in sayIfRewritten(output, outcome, description) }
            let bookmark = try BookmarkCommand.run {
                try job.add(page: change.page - 1, name: name, output: change.output, description: description)
            }
            try printOutput(bookmark.id)
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a page's bookmark and write a copy.")

        @OptionGroup var change: PageChange

        func run() throws {
            var (job, description) = try change.checkedJob()
            let output = change.output
            job.written = { outcome, description in sayIfRewritten(output, outcome, description) }
            guard try BookmarkCommand.run({
                try job.remove(page: change.page - 1, output: change.output, description: description)
            }) else {
                throw CommandFailure("\(change.input): page \(change.page) has no bookmark", code: ExitStatus.usage)
            }
        }
    }
}

/// The arguments `add` and `remove` share: which document, which page, where the copy goes.
struct PageChange: ParsableArguments {
    @Argument(help: "The PDF to change.", completion: .file(extensions: ["pdf"]))
    var input: String

    @Option(name: .long, help: "The page, from 1.")
    var page: Int

    @Option(name: .long, help: "Where to write the copy.", completion: .file(extensions: ["pdf"]))
    var output: String

    @OptionGroup var rewriteOption: RewriteOption
    @OptionGroup var passwordOption: PasswordOption
    @OptionGroup var outlineOption: OutlineOption

    /// The job and the document it reads, once the page is known to exist.
    func checkedJob() throws -> (BookmarkJob, DocumentDescription) {
        var (job, _) = try BookmarkCommand.job(input, passwordOption, outlineOption)
        job.strategy = rewriteOption.strategy(try ConfigurationOption.load())
        let description = try BookmarkCommand.run { try job.describe() }
        guard page >= 1, page <= description.pageCount else {
            throw CommandFailure("\(input): there is no page \(page) (the document has \(description.pageCount))",
                                 code: ExitStatus.usage)
        }
        return (job, description)
    }
}

/// What the bookmark subcommands share: the configured providers and order, and Redline's exit codes.
enum BookmarkCommand {
    static func job(_ input: String, _ passwordOption: PasswordOption, _ outlineOption: OutlineOption) throws -> (BookmarkJob, BookmarkOrder) {
        let configuration = try ConfigurationOption.load()
        let setup = outlineOption.setup(configuration)
        return (BookmarkJob(input: input, password: passwordOption.password, setup: setup), configuration.bookmarkOrder)
    }

    static func run<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DocumentError {
            throw CommandFailure(error)
        } catch let error as CommandFailure {
            throw error
        } catch {
            throw CommandFailure("\(error)", code: ExitStatus.cannotWrite)
        }
    }
}
