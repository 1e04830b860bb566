import Foundation

/// One annotation as MuPDF reads it (Tests/Tools/mupdf_probe.py), in display space.
public struct MuPDFAnnotation: Decodable, Sendable {
    public let type: String
    public let rect: [Double]
    public let stroke: [Double]
    public let opacity: Double
    public let title: String?
    public let content: String?
    public let id: String?
    public let creationDate: String?
    public let modDate: String?
    public let width: Double?
    public let ink: [[[Double]]]
    public let quads: [[Double]]
    public let defaultAppearance: String?
    public let hasColor: Bool
    public let flags: Int
    /// /Rotate: how a reader drawing a FreeText afresh turns its text.
    public let rotate: Int
    public let hasAppearance: Bool
    /// SHA-256 of the appearance stream's bytes as stored: the same after a move means the look was kept.
    public let appearanceDigest: String?
    /// Every point the annotation carries (ink, quads, a line's ends, a polygon's corners), display space.
    public let points: [[Double]]
    public let popupRect: [Double]?
}

public struct MuPDFPage: Decodable, Sendable {
    public let rotation: Int
    public let annotations: [MuPDFAnnotation]
}

/// MuPDF, through PyMuPDF: another PDF implementation than poppler and qpdf, reading what Redline wrote.
public enum MuPDFProbe {
    public static func annotations(in path: String) throws -> [MuPDFPage] {
        let result = try ProcessRunner.run(TestPaths.python, [TestPaths.tool("mupdf_probe.py"), "annotations", path])
        guard result.status == 0 else { throw ToolFailure(tool: "mupdf_probe.py", output: result.stderr) }
        struct Document: Decodable { let pages: [MuPDFPage] }
        return try JSONDecoder().decode(Document.self, from: Data(result.stdout.utf8)).pages
    }

    /// MuPDF's render of a page (counted from 1), annotations drawn.
    public static func render(_ page: Int, of path: String, dpi: Int = 72) throws -> RenderedPage {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("mupdf-\(UUID().uuidString).ppm").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try ProcessRunner.run(TestPaths.python, [TestPaths.tool("mupdf_probe.py"), "render", path, String(page), String(dpi), out])
        guard result.status == 0 else { throw ToolFailure(tool: "mupdf_probe.py", output: result.stderr) }
        return try PopplerRender.image(atPPM: out)
    }
}
