import Foundation
import PDFAssembly
import RedlineCore
import TestSupport
import Testing

/// `/PageLabels` as Redline reads it, against pikepdf's reading of every fixture that has them.
@Suite struct PageLabelReadingTests {
    @Test func everyFixtureWithLabelsReadsAsPikepdfReadsIt() throws {
        let folder = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures").path
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".pdf") }.sorted()
        var checked = 0
        for name in names {
            let path = folder + "/" + name
            let password = name.contains("enc-XI") ? "view" : nil
            let probe = try ProcessRunner.run(TestPaths.python, ["-c", """
                import json, sys, pikepdf
                pdf = pikepdf.open(sys.argv[1], password=sys.argv[2])
                print(json.dumps([page.label for page in pdf.pages] if "/PageLabels" in pdf.Root else None))
                """, path, password ?? ""])
            guard probe.status == 0, let labels = try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8), options: .fragmentsAllowed) as? [String]
            else { continue }
            let description = try PDFInspector.describe(path: path, password: password, readingAnnotations: false)
            #expect((0..<description.pageCount).map { description.pageLabels.label(ofPage: $0) ?? "" } == labels, "\(name)")
            checked += 1
        }
        #expect(checked >= 2, "the manual and the encrypted fixture carry labels")
    }
}
