import Foundation

/// One annotation as Apache PDFBox reads it from an XFDF file (Tests/Tools/XFDFProbe.java), PDF user space.
public struct PDFBoxAnnotation: Decodable, Sendable {
    public let name: String?
    public let subtype: String?
    public let page: Int?
    public let rect: [Double]?
    public let title: String?
    public let contents: String?
    public let richText: String?
    public let intent: String?
    public let lineEndings: [String]?
    /// /L, /Vertices and /IC.
    public let line: [Double]?
    public let vertices: [Double]?
    public let interior: [Double]?
    public let state: String?
    public let stateModel: String?
    /// Each stroke as x, y, x, y…
    public let ink: [[Double]]?
    public let quads: [Double]?
}

/// Apache PDFBox (Debian's libpdfbox2-java, run by the JDK's source launcher): another XFDF reader than Redline's.
public enum PDFBoxProbe {
    static let classpath = ["pdfbox2.jar", "fontbox2.jar", "commons-logging.jar"].map { "/usr/share/java/" + $0 }.joined(separator: ":")

    /// What PDFBox finds in the file, and what it complained of (an annotation it could not read is left out with
    /// a warning on standard error).
    public static func read(xfdf path: String) throws -> (annotations: [PDFBoxAnnotation], complaints: String) {
        let result = try ProcessRunner.run("java", ["-cp", classpath, TestPaths.tool("XFDFProbe.java"), path], timeLimit: 120)
        guard result.status == 0 else { throw ToolFailure(tool: "XFDFProbe.java", output: result.stderr) }
        let annotations = try result.stdout.split(separator: "\n").map {
            try JSONDecoder().decode(PDFBoxAnnotation.self, from: Data($0.utf8))
        }
        return (annotations, result.stderr)
    }
}
