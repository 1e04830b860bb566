import ArgumentParser
import CommandLineSupport
import Foundation
import RedlineKit
import RedlineCore

/// `redline apply`: flattens a markup file into a copy of a PDF, or writes it as annotations, through the same code as
/// the editor.
struct Apply: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Flatten markup from a markup file (docs/markup-format.md) into a copy of a PDF, or add it as annotations.")

    @Argument(help: "The PDF to mark up.", completion: .file(extensions: ["pdf"]))
    var input: String

    @Option(name: .long, help: "The markup file (JSON).", completion: .file(extensions: ["json"]))
    var markup: String

    @Option(name: .long, help: "Where to write the marked copy.", completion: .file(extensions: ["pdf"]))
    var output: String

    @Flag(name: .long, help: "Write the markup as annotations (FreeText, Ink, Highlight…) that stay editable, instead of flattening it (default: save_mode in config.toml).")
    var annotations = false

    @Flag(name: .long, help: "Flatten the markup into the pages even when save_mode in config.toml says annotations.")
    var flatten = false

    @OptionGroup var rewriteOption: RewriteOption
    @OptionGroup var outlineOption: OutlineOption

    @OptionGroup var authorOption: AuthorOption

    @OptionGroup var passwordOption: PasswordOption

    func validate() throws {
        if annotations && flatten { throw ValidationError("--annotations and --flatten cannot go together") }
    }

    func run() throws {
        OneShotCommand.endsAfterWriting()
        // The configuration decides where a markup file's bookmarks go: a broken one is an error, not a default.
        let (configuration, author) = try authorOption.resolve()
        let mode: MarkupSaveMode = annotations ? .annotations : flatten ? .flatten : configuration.saveMode
        let data = try Self.read(markup)
        let services = RedlineServices()
        let edits: DocumentEdits
        do {
            edits = try MarkupFile.decodeEdits(data)
        } catch let error as MarkupFileError {
            throw CommandFailure("\(markup): \(error.message)", code: ExitStatus.usage)
        }
        let progress = TerminalProgress()
        defer { progress.finish() }
        do {
            progress.say("reading \(input)")
            // Flattened markup never looks at the file's annotations: on a crowded page reading them was most of the time.
            let setup = outlineOption.setup(configuration)
            let description = try MarkupApplication.describe(input, password: passwordOption.password,
                                                             readingAnnotations: mode == .annotations || !edits.annotations.isEmpty,
                                                             keepingForSave: true, readingOutline: setup.inOutline)
            do {
                try MarkupFile.validate(edits.markup, pageSizes: description.pageSizes, measuredBy: services.measurer)
                try MarkupFile.validate(edits.bookmarks, pageCount: description.pageCount)
            } catch let error as MarkupFileError {
                throw CommandFailure("\(markup): \(error.message)", code: ExitStatus.usage)
            }
            // With the outline mirroring them, any save brings bookmarks changed in another program into step.
            let bookmarks = edits.bookmarks != nil || setup.inOutline ? try setup.manager(for: description, path: input) : nil
            let written = try DocumentSaver(services: services).save(edits, source: input, password: passwordOption.password,
                                                                      description: description, bookmarks: bookmarks, to: output,
                                                                      markupAs: mode, author: author,
                                                                      strategy: rewriteOption.strategy(configuration),
                                                                      progress: progress.say)
            progress.finish()
            // How it was written, one line on stdout (errors and warnings stay on stderr).
            try printOutput("\(output): \(written)")
            if mode == .flatten, let warning = description.signatureWarning(flattening: Set(edits.markup.editedPages)) {
                printError("\(output): \(warning)")
            }
            if mode == .flatten, let warning = edits.markup.commentsLostByFlattening(keeping: "--annotations") {
                printError("\(output): \(warning)")
            }
            if let warning = description.signatureWarning(after: written) { printError("\(output): \(warning)") }
            if let warning = description.damageWarning { printError("\(output): \(warning)") }
        } catch let error as DocumentError {
            throw CommandFailure(error)
        } catch let error as AnnotationEditError {
            if case .notPermitted = error { throw CommandFailure(error.description, code: ExitStatus.cannotWrite) }
            throw CommandFailure("\(markup): \(error)", code: ExitStatus.usage)
        } catch let error as BookmarkError {
            throw CommandFailure("\(markup): \(error)", code: ExitStatus.usage)
        }
    }

    static let largestMarkupFile = 64 << 20

    /// The markup file, which may be a pipe (`--markup /dev/stdin`).
    static func read(_ path: String) throws -> Data {
        try BoundedInput.read(path, what: "markup file", limit: largestMarkupFile, limitText: "\(largestMarkupFile >> 20) MB")
    }
}
