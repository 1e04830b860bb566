import Foundation
import PDFRendering
import TestSupport
import Testing

/// Poppler's tools complain on standard error about what they read in odd files (pdf.js's file has inks with empty
/// boxes: "Syntax Error: Bad Annot Ink List"). Redline draws and reads such pages through poppler-glib without a
/// word on the terminal the editor draws on.
@Suite(.serialized) struct PopplerQuietTests {
    /// What `body` wrote to standard error (file descriptor 2), however it wrote it.
    static func standardError(during body: () throws -> Void) throws -> String {
        let folder = TemporaryFolder()
        let path = folder.file("stderr")
        let capture = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let saved = dup(STDERR_FILENO)
        fflush(nil)
        dup2(capture, STDERR_FILENO)
        close(capture)
        defer {
            fflush(nil)
            dup2(saved, STDERR_FILENO)
            close(saved)
        }
        try body()
        fflush(nil)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test func drawingAPageWithDamagedAnnotationsWritesNothingToTheTerminal() throws {
        let path = TestPaths.fixture("pdfjs_issue14438.pdf")
        let poppler = try ProcessRunner.run("pdftoppm", ["-r", "10", path], timeLimit: 30)
        #expect(poppler.stderr.contains("Bad Annot Ink List"), "poppler's own tool does complain: \(poppler.stderr.prefix(200))")
        let written = try Self.standardError {
            let document = try PopplerDocument(path: path, password: nil)
            let raster = document.render(page: 0, scale: 1)
            #expect(raster.width > 100)
            _ = document.words(onPage: 0)
        }
        // Other tests running beside this one may write to the same descriptor: only poppler's kind of line counts.
        #expect(!written.contains("Syntax Error") && !written.contains("Syntax Warning"), "\(written.prefix(300))")
    }
}
