import ArgumentParser
import CommandLineSupport
import Foundation
import RedlineKit
import RedlineCore
import TerminalGrid

/// `redline xfdf export|import`: a document's annotations as XFDF (docs/xfdf.md), and XFDF into a copy of a document.
struct XFDFCommands: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "xfdf",
        abstract: "Export a PDF's annotations as XFDF, or import XFDF into a copy of a PDF.",
        subcommands: [Export.self, Import.self])

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write a PDF's annotations (comments, markup, replies, review states) as XFDF.")

        @Argument(help: "The PDF to read.", completion: .file(extensions: ["pdf"]))
        var input: String

        @Option(name: .long, help: "Where to write the XFDF (default: standard output).", completion: .file(extensions: ["xfdf"]))
        var output: String?

        @Option(name: .long, help: "Only this page, from 1.")
        var page: Int?

        @OptionGroup var passwordOption: PasswordOption

        func validate() throws {
            if let page, page < 1 { throw ValidationError("--page counts from 1") }
        }

        func run() throws {
            if let output, FilePaths.sameFile(output, input) {
                throw CommandFailure("\(output): that is the PDF being read; writing the XFDF there would destroy it", code: ExitStatus.usage)
            }
            do {
                let (text, leftOut, repairs) = try XFDFExchange.export(input, password: passwordOption.password, page: page.map { $0 - 1 })
                // A value too damaged to read is left out of the XFDF: the user hears that the file needed mending.
                if let note = DocumentDescription.repairNote(repairs) { printError("\(input): \(note)") }
                if !leftOut.isEmpty {
                    // Listed by `annotations`, missing from the XFDF: said, not dropped in silence.
                    let ids = leftOut.prefix(5).map(\.id.rawValue).joined(separator: ", ") + (leftOut.count > 5 ? ", …" : "")
                    printError("\(input): \(leftOut.count) Ink annotation\(leftOut.count == 1 ? "" : "s") without strokes left out (XFDF's <ink> needs at least one gesture): \(VisibleText.line(ids))")
                }
                if let output {
                    try AtomicFileWriter.write(Data(text.utf8), to: output)
                } else {
                    do {
                        try DescriptorWriter.writeAll(Data(text.utf8), to: STDOUT_FILENO)
                    } catch {
                        throw CommandFailure("standard output: \(error)", code: ExitStatus.cannotWrite)
                    }
                }
            } catch let error as DocumentError {
                throw CommandFailure(error)
            } catch let error as XFDFExchange.PageOutOfRange {
                throw CommandFailure("\(input): \(error)", code: ExitStatus.usage)
            }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Add the annotations of an XFDF file to a copy of a PDF: by name, an existing one is replaced, a new one added.")

        @Argument(help: "The PDF.", completion: .file(extensions: ["pdf"]))
        var input: String

        @Argument(help: "The XFDF file (or a command: add, modify, delete).", completion: .file(extensions: ["xfdf", "xml"]))
        var xfdf: String

        @Option(name: .long, help: "Where to write the annotated copy.", completion: .file(extensions: ["pdf"]))
        var output: String

        @OptionGroup var rewriteOption: RewriteOption
        @OptionGroup var passwordOption: PasswordOption

        func run() throws {
            OneShotCommand.endsAfterWriting()
            let bytes = try Self.read(xfdf)
            let rewrite = rewriteOption.strategy(try ConfigurationOption.load()) == .rewrite
            let progress = TerminalProgress()
            defer { progress.finish() }
            do {
                progress.say("importing \(xfdf) into \(input)")
                var warnings: [String] = []
                let written = try XFDFExchange.importing(bytes, into: input, password: passwordOption.password, to: output, rewrite: rewrite) { warnings.append($0) }
                progress.finish()
                // How it was written, one line on stdout, as `apply` says it.
                try printOutput("\(output): \(written)")
                for warning in warnings { printError("\(output): \(warning)") }
            } catch let error as XFDFError {
                throw CommandFailure("\(xfdf): \(error)", code: ExitStatus.usage)
            } catch let error as DocumentError {
                throw CommandFailure(error)
            } catch let error as AnnotationEditError {
                if case .notPermitted = error { throw CommandFailure(error.description, code: ExitStatus.cannotWrite) }
                throw CommandFailure("\(xfdf): \(error)", code: ExitStatus.usage)
            }
        }

        static func read(_ path: String) throws -> [UInt8] {
            [UInt8](try BoundedInput.read(path, what: "XFDF file", limit: XFDF.largestFile, limitText: "\(XFDF.largestFile >> 20) MiB"))
        }
    }
}
