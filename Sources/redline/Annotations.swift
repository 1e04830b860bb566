import ArgumentParser
import CommandLineSupport
import Foundation
import RedlineKit
import RedlineCore

/// `redline annotations`: the comments a document carries, with their replies and review states.
struct Annotations: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "annotations",
        abstract: "List a PDF's annotations (not links, form widgets or popups), with replies and review states, or write a comment summary.")

    @Argument(help: "The PDF to read.", completion: .file(extensions: ["pdf"]))
    var input: String

    @Option(name: .long, help: "Only the comments on these pages, from 1: 3, or 3-7.")
    var page: String?

    @Option(name: .long, help: "Only comments by this author (any case); again for another.")
    var author: [String] = []

    @Option(name: .long, help: "Only this kind of comment: note, text box, highlight, underline, squiggly, strikeout, ink, …; again for another.")
    var kind: [String] = []

    @Option(name: .long, help: "Only comments whose review state is this: accepted, rejected, cancelled, completed, none, marked, unmarked.")
    var state: [String] = []

    @Flag(name: .long, help: "Only comments nobody has replied to.")
    var unanswered = false

    @Option(name: .long, help: "text (threads to read), json (docs/annotations-format.md), or a comment summary to hand on: markdown, csv, html.")
    var format: ListFormat?

    @Flag(name: .long, help: "The same as --format json.")
    var json = false

    @Option(name: [.short, .long], help: "Write to this file instead of standard output (the format from its extension: .md, .csv, .html, .json, .txt).")
    var output: String?

    @OptionGroup var passwordOption: PasswordOption

    enum ListFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json, markdown, csv, html
    }

    func validate() throws {
        if json, let format, format != .json { throw ValidationError("--json and --format \(format.rawValue) ask for two formats") }
        _ = try filter()
    }

    /// The criteria as one filter; a misspelt kind or state is a usage error naming the ones there are.
    func filter() throws -> CommentFilter {
        do {
            return CommentFilter(authors: author, kinds: try kind.map(CommentFilter.kind(named:)),
                                 states: try state.map(CommentFilter.state(named:)), pages: try page.map(CommentFilter.pages),
                                 unansweredOnly: unanswered)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// --format, else --json, else the output file's extension, else text.
    var chosenFormat: ListFormat {
        if let format { return format }
        if json { return .json }
        if let output {
            if let summary = CommentSummary.Format(fileName: output) { return ListFormat(rawValue: summary.rawValue) ?? .text }
            if (output as NSString).pathExtension.lowercased() == "json" { return .json }
        }
        return .text
    }

    func run() throws {
        let description: DocumentDescription
        let progress = TerminalProgress()
        do {
            progress.say("reading the annotations of \(input)")
            defer { progress.finish() }
            description = try MarkupApplication.describe(input, password: passwordOption.password)
        } catch let error as DocumentError {
            throw CommandFailure(error)
        }
        let filter = try filter()
        if let pages = filter.pages, pages.upperBound >= description.pageCount {
            throw CommandFailure("\(input): there is no page \(pages.upperBound + 1) (the document has \(description.pageCount))",
                                 code: ExitStatus.usage)
        }
        if let note = DocumentDescription.repairNote(description.repairs) { printError("\(input): \(note)") }
        let text = AnnotationReport.listing(description, filter: filter, format: chosenFormat.reportFormat,
                                            documentName: (input as NSString).lastPathComponent)
        guard let output else { return try printOutput(text, terminator: text.hasSuffix("\n") ? "" : "\n") }
        do {
            try AtomicFileWriter.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8), to: output)
        } catch let error as DocumentError {
            throw CommandFailure(error)
        }
    }
}

extension Annotations.ListFormat {
    var reportFormat: AnnotationReport.Format {
        switch self {
        case .text: .text
        case .json: .json
        case .markdown: .summary(.markdown)
        case .csv: .summary(.csv)
        case .html: .summary(.html)
        }
    }
}
