import Foundation

/// Words and their boxes as poppler's pdftotext finds them, in displayed-page points (crop box, top-left origin).
public struct ExtractedWord: Sendable, Equatable {
    public let text: String
    public let xMin, yMin, xMax, yMax: Double
}

public enum PopplerText {
    public static func words(in path: String, page: Int, password: String? = nil) throws -> [ExtractedWord] {
        var arguments = ["-cropbox", "-bbox", "-f", String(page), "-l", String(page)]
        if let password { arguments += ["-upw", password] }
        let result = try ProcessRunner.run("pdftotext", arguments + [path, "-"])
        guard result.status == 0 else { throw ToolFailure(tool: "pdftotext", output: result.stderr) }
        let pattern = try NSRegularExpression(
            pattern: #"<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">([^<]*)</word>"#)
        let text = result.stdout
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            func group(_ index: Int) -> String { String(text[Range(match.range(at: index), in: text)!]) }
            return ExtractedWord(text: unescape(group(5)), xMin: Double(group(1))!, yMin: Double(group(2))!,
                                 xMax: Double(group(3))!, yMax: Double(group(4))!)
        }
    }

    /// All the text of a page, as pdftotext reads it.
    public static func text(in path: String, page: Int) throws -> String {
        try ProcessRunner.run("pdftotext", ["-f", String(page), "-l", String(page), path, "-"]).stdout
    }

    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
    }
}

public struct ToolFailure: Error, CustomStringConvertible {
    public let tool: String
    public let output: String

    public init(tool: String, output: String) {
        self.tool = tool
        self.output = output
    }

    public var description: String { "\(tool) failed: \(output)" }
}

/// qpdf's own verdict on a file's structure.
public enum QPDFCheck {
    public static func errors(in path: String, password: String? = nil) throws -> String? {
        var arguments = ["--check"]
        if let password { arguments.append("--password=\(password)") }
        let result = try ProcessRunner.run("qpdf", arguments + [path])
        // Exit 0: clean; 3: warnings only; 2: errors.
        return result.status == 2 ? result.stdout + result.stderr : nil
    }
}
