import Foundation

/// The real `redline` binary with folders of its own for configuration, state (journals) and data
/// (sidecar bookmarks), so a test never reads or writes the user's.
public struct RedlineCommand {
    public let folder: TemporaryFolder

    public init(folder: TemporaryFolder = TemporaryFolder(), config: String? = nil) throws {
        self.folder = folder
        try FileManager.default.createDirectory(atPath: configFolder + "/redline", withIntermediateDirectories: true)
        if let config { try config.write(toFile: configFolder + "/redline/config.toml", atomically: true, encoding: .utf8) }
    }

    public var configFolder: String { folder.path + "/config" }
    public var stateFolder: String { folder.path + "/state" }
    public var dataFolder: String { folder.path + "/data" }

    public var environment: [String: String] {
        ["XDG_CONFIG_HOME": configFolder, "XDG_STATE_HOME": stateFolder, "XDG_DATA_HOME": dataFolder,
         "USER": "tester", "LOGNAME": "tester"]
    }

    /// Runs it to completion; anything still running after `timeLimit` seconds is a hang and is killed.
    @discardableResult
    public func run(_ arguments: [String], timeLimit: Double = 120) throws -> ProcessResult {
        try ProcessRunner.run(TestPaths.redline, arguments, environment: environment, timeLimit: timeLimit)
    }

    public func writeConfig(_ text: String) throws {
        try text.write(toFile: configFolder + "/redline/config.toml", atomically: true, encoding: .utf8)
    }

    public func writeConfig(bytes: Data) throws {
        try bytes.write(to: URL(fileURLWithPath: configFolder + "/redline/config.toml"))
    }
}

extension ProcessResult {
    /// What every run must be, whatever it was given: an exit with one of Redline's codes (not a crash, not
    /// a hang), at most one line on stderr, no runtime backtrace, and no control character a terminal would
    /// act on in anything printed.
    public var problems: [String] {
        var found: [String] = []
        if timedOut { found.append("hung (killed at the time limit)") }
        if signalled || !(0...3).contains(status) { found.append("crashed (status \(status))") }
        if errorLines.count > 1 { found.append("\(errorLines.count) lines on stderr: \(stderr.prefix(300))") }
        if stderr.contains("Fatal error") || stderr.contains("Stack dump") { found.append("a runtime backtrace") }
        if Self.hasTerminalControls(stderrBytes) { found.append("control characters on stderr") }
        if Self.hasTerminalControls(stdoutBytes, allowingLineEnds: true) { found.append("control characters on stdout") }
        return found
    }

    /// ESC and the other C0 controls (line ends aside where allowed), DEL, and C1 controls as UTF-8 (0xC2 0x80–0x9F).
    public static func hasTerminalControls(_ bytes: Data, allowingLineEnds: Bool = true) -> Bool {
        var previous: UInt8 = 0
        for byte in bytes {
            if byte < 0x20, !(allowingLineEnds && (byte == 0x0A || byte == 0x09)) { return true }
            if byte == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(byte)) { return true }
            previous = byte
        }
        return false
    }
}
