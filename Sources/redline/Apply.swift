import ArgumentParser
import Foundation
import RedlineKit
import RedlineCore

/// `redline apply`: flattens a markup file into a copy of a PDF, through the same code as the editor.
struct Apply: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Flatten markup from a markup file (docs/markup-format.md) into a copy of a PDF.")

    @Argument(help: "The PDF to mark up.", completion: .file(extensions: ["pdf"]))
    var input: String

    @Option(name: .long, help: "The markup file (JSON).", completion: .file(extensions: ["json"]))
    var markup: String

    @Option(name: .long, help: "Where to write the marked copy.", completion: .file(extensions: ["pdf"]))
    var output: String

    @OptionGroup var passwordOption: PasswordOption

    func run() throws {
        // The configuration decides where a markup file's bookmarks go: a broken one is an error, not a default.
        let configuration = try ConfigurationOption.load()
        let data = try Self.read(markup)
        let services = RedlineServices()
        let edits: DocumentEdits
        do {
            edits = try MarkupFile.decodeEdits(data)
        } catch let error as MarkupFileError {
            throw CommandFailure("\(markup): \(error.message)", code: ExitStatus.usage)
        }
        do {
            let description = try MarkupApplication.describe(input, password: passwordOption.password)
            do {
                try MarkupFile.validate(edits.markup, pageSizes: description.pageSizes, measuredBy: services.measurer)
            } catch let error as MarkupFileError {
                throw CommandFailure("\(markup): \(error.message)", code: ExitStatus.usage)
            }
            let bookmarks = try edits.bookmarks.map { _ in
                try BookmarkSetup(providerNames: configuration.bookmarkProviders).manager(for: description, path: input)
            }
            try FlattenedSaver(services: services).save(edits, source: input, password: passwordOption.password,
                                                        description: description, bookmarks: bookmarks, to: output)
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

    /// The markup file, which may be a pipe (`--markup /dev/stdin`); read up to a bound, since a device such
    /// as /dev/zero would never end.
    static func read(_ path: String) throws -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CommandFailure("\(path): cannot read the markup file: \(String(cString: strerror(errno)))", code: ExitStatus.usage)
        }
        defer { try? handle.close() }
        var data = Data()
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            data.append(chunk)
            guard data.count <= largestMarkupFile else {
                throw CommandFailure("\(path): the markup file is larger than \(largestMarkupFile >> 20) MB", code: ExitStatus.usage)
            }
        }
        return data
    }
}
