import ArgumentParser
import CommandLineSupport
import Foundation
import RedlineKit
import RedlineCore

/// `redline annotations`: the comments a document carries, with their replies and review states.
struct Annotations: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "annotations",
        abstract: "List a PDF's annotations (not links, form widgets or popups), with replies and review states.")

    @Argument(help: "The PDF to read.", completion: .file(extensions: ["pdf"]))
    var input: String

    @Option(name: .long, help: "Only this page, from 1.")
    var page: Int?

    @Flag(name: .long, help: "Print a JSON array (docs/annotations-format.md).")
    var json = false

    @OptionGroup var passwordOption: PasswordOption

    func validate() throws {
        if let page, page < 1 { throw ValidationError("--page counts from 1") }
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
        if let page, page > description.pageCount {
            throw CommandFailure("\(input): there is no page \(page) (the document has \(description.pageCount))",
                                 code: ExitStatus.usage)
        }
        if let note = DocumentDescription.repairNote(description.repairs) { printError("\(input): \(note)") }
        let comments = AnnotationReport.comments(in: description, page: page.map { $0 - 1 })
        try printOutput(json ? AnnotationReport.json(comments) : AnnotationReport.text(comments))
    }
}
