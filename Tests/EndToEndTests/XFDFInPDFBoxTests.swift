import Foundation
import TestSupport
import Testing

/// What `redline xfdf export` writes, read by Apache PDFBox: every annotation XFDF can hold is there, none refused,
/// with the names, subtypes, places, review states, ink strokes and quad points the PDF has, as pikepdf and MuPDF
/// read the PDF.
@Suite struct XFDFInPDFBoxTests {
    /// Redline's own annotations (`apply --annotations`: a FreeText, an ink stroke, a squiggly and one shape of each kind)
    /// beside other tools' files.
    static func redlineAnnotated(in folder: TemporaryFolder) throws -> String {
        let markup = folder.file("markup.json")
        try """
        {"version": 1, "items": [
          {"page": 1, "kind": "text", "x": 72, "y": 300, "text": "Checked \\"twice\\" & <signed>", "size": 16, "color": "blue"},
          {"page": 1, "kind": "ink", "strokes": [[[80, 400], [140, 430], [220, 410]], [[90, 450], [95, 470]]], "width": 2},
          {"page": 1, "kind": "squiggly", "rects": [[72, 500, 150, 12], [72, 516, 90, 12]], "color": "green"},
          {"page": 1, "kind": "rectangle", "points": [[300, 400], [400, 450]], "width": 3},
          {"page": 1, "kind": "ellipse", "points": [[420, 400], [520, 450]], "fill": true, "color": "blue"},
          {"page": 1, "kind": "arrow", "points": [[300, 480], [500, 520]]},
          {"page": 1, "kind": "polygon", "points": [[300, 560], [400, 560], [350, 620]], "fill": true},
          {"page": 1, "kind": "polyline", "points": [[420, 560], [470, 620], [520, 560]]},
          {"page": 1, "kind": "stamp", "points": [[300, 650], [450, 690]], "name": "Reviewed by Legal"}
        ]}
        """.write(toFile: markup, atomically: true, encoding: .utf8)
        let output = folder.file("annotated.pdf")
        let result = try ProcessRunner.run(TestPaths.redline, ["apply", TestPaths.sample, "--markup", markup, "--annotations", "--output", output])
        guard result.status == 0 else { throw ToolFailure(tool: "redline apply", output: result.stderr) }
        return output
    }

    static func pageHeight(_ path: String) throws -> Double {
        let info = try ProcessRunner.run("pdfinfo", [path]).stdout
        let line = info.split(separator: "\n").first { $0.hasPrefix("Page size:") } ?? ""
        let numbers = line.split(separator: " ").compactMap { Double($0) }
        return numbers.count >= 2 ? numbers[1] : 0
    }

    static func close(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 0.01 }
    }

    @Test(arguments: XFDFCommandTests.everyFixture + ["redline"])
    func pdfBoxFindsWhatThePDFHolds(_ name: String) throws {
        let folder = TemporaryFolder()
        let source = name == "redline" ? try Self.redlineAnnotated(in: folder) : folder.copy(fixture: name)
        let xfdf = folder.file("exported.xfdf")
        let export = try ProcessRunner.run(TestPaths.redline, ["xfdf", "export", source, "--output", xfdf])
        try #require(export.status == 0, "\(export.stderr)")
        let (found, complaints) = try PDFBoxProbe.read(xfdf: xfdf)
        #expect(!complaints.contains("ignored") && !complaints.contains("Exception"), "PDFBox refused some: \(complaints.prefix(400))")

        // What the PDF holds, as pikepdf and MuPDF read it: markup annotations, less inks without a stroke.
        let mupdf = try MuPDFProbe.annotations(in: source)[0].annotations
        let strokeless = Set(mupdf.filter { $0.type == "Ink" && $0.ink.allSatisfy(\.isEmpty) }.compactMap(\.id))
        let held = try AnnotationProbe.read(source).filter {
            !["/Popup", "/Link", "/Widget"].contains($0.subtype ?? "") && !($0.NM.map(strokeless.contains) ?? false)
        }
        try #require(found.count == held.count, "PDFBox finds \(found.count), the PDF holds \(held.count)")
        #expect(found.count > 0 || held.isEmpty)
        let height = try Self.pageHeight(source)
        for (box, pdf) in zip(found, held) {
            // PDFBox names what it reads from <polyline> "Polyline" (its FDFAnnotationPolyline's subtype), not PolyLine.
            #expect(("/" + (box.subtype ?? "")).lowercased() == pdf.subtype?.lowercased(), "\(box.name ?? "") is a \(pdf.subtype ?? "")")
            if let nm = pdf.NM { #expect(box.name == nm) } else { #expect(box.name?.hasPrefix("redline-") == true) }
            #expect(box.page == pdf.page - 1, "\(box.name ?? "")'s page, from 0")
            let pdfRect = [min(pdf.rect[0], pdf.rect[2]), min(pdf.rect[1], pdf.rect[3]), max(pdf.rect[0], pdf.rect[2]), max(pdf.rect[1], pdf.rect[3])]
            #expect(box.rect.map { Self.close($0, pdfRect) } == true, "\(box.name ?? ""): \(box.rect ?? []) against \(pdfRect)")
            #expect(box.state == pdf.State && box.stateModel == pdf.StateModel, "\(box.name ?? "")'s state")
            // Rich text's words, what it is for, and a line's ends, as the PDF has them.
            if case .text(let words)? = pdf.look["RC words"] {
                let read = (box.richText ?? "").replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
                #expect(read.split(whereSeparator: \.isWhitespace).joined(separator: " ") == words, "\(box.name ?? "")'s rich text: \(box.richText ?? "none")")
            }
            if case .text(let intent)? = pdf.look["IT"] { #expect("/" + (box.intent ?? "") == intent) }
            if case .texts(let endings)? = pdf.look["LE"] { #expect(box.lineEndings?.map { "/" + $0 } == endings) }
            // A line's ends, a polygon's corners and a fill, as the PDF has them.
            for (key, read) in [("L", box.line), ("Vertices", box.vertices), ("IC", box.interior)] {
                if case .numbers(let held)? = pdf.look[key] {
                    #expect(read.map { Self.close($0, held) } == true, "\(box.name ?? "")'s /\(key): \(read ?? []) against \(held)")
                } else {
                    #expect(read == nil, "\(box.name ?? "") has no /\(key)")
                }
            }
            if pdf.subtype == "/Ink", let nm = pdf.NM, let drawn = mupdf.first(where: { $0.id == nm }) {
                // MuPDF gives strokes on the page as shown, from its top; the page here is upright.
                let expected = drawn.ink.map { stroke in stroke.flatMap { [$0[0], height - $0[1]] } }
                let strokes = box.ink ?? []
                #expect(strokes.count == expected.count && zip(strokes, expected).allSatisfy { Self.close($0, $1) },
                        "\(nm)'s strokes: \(strokes.map(\.count)) points against \(expected.map(\.count))")
            }
        }
        let contents = found.compactMap(\.contents)
        if name == "redline" { #expect(contents.contains("Checked \"twice\" & <signed>"), "\(contents)") }
    }
}
