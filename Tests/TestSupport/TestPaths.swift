import Foundation

/// Where tests find the package, its fixtures and the built binary. Nothing outside the package is read.
public enum TestPaths {
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        fatalError("Package.swift not found above \(#filePath)")
    }()

    public static func fixture(_ name: String) -> String {
        packageRoot.appendingPathComponent("Tests/Fixtures/\(name)").path
    }

    public static func tool(_ name: String) -> String {
        packageRoot.appendingPathComponent("Tests/Tools/\(name)").path
    }

    public static var sample: String { packageRoot.appendingPathComponent("Resources/sample.pdf").path }

    /// The `redline` binary built beside the test bundle.
    public static var redline: String {
        if let explicit = ProcessInfo.processInfo.environment["REDLINE_BINARY"] { return explicit }
        let bundle = Bundle.main.bundleURL.deletingLastPathComponent()
        for candidate in [bundle, bundle.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("redline").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return packageRoot.appendingPathComponent(".build/debug/redline").path
    }

    /// The Swift API's example program (Examples/InteractionExamples) built beside `redline`.
    public static var interactionsExample: String {
        URL(fileURLWithPath: redline).deletingLastPathComponent().appendingPathComponent("redline-interactions-example").path
    }

    /// The screen-check program built beside `redline`.
    public static var screenCheck: String {
        URL(fileURLWithPath: redline).deletingLastPathComponent().appendingPathComponent("redline-screen-check").path
    }

    /// The Python with pikepdf that `make test` prepares.
    public static var python: String {
        ProcessInfo.processInfo.environment["REDLINE_PYTHON"]
            ?? packageRoot.appendingPathComponent(".build-venv/bin/python").path
    }
}
