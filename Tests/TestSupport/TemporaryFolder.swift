import Foundation

/// A fresh folder per test, removed when the value goes away.
public final class TemporaryFolder: @unchecked Sendable {
    public let path: String

    public init() {
        path = NSTemporaryDirectory() + "redline-test-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    public func file(_ name: String) -> String { path + "/" + name }

    /// Copies a fixture in, so a test may write beside it.
    public func copy(fixture name: String) -> String {
        let target = file(name)
        try? FileManager.default.copyItem(atPath: TestPaths.fixture(name), toPath: target)
        return target
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
