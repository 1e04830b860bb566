import Foundation

/// A virtual X display (Xvfb) for running real graphical terminals, and screenshots of it.
public final class XDisplay {
    public let name: String
    private let server: Process

    public init(width: Int = 1024, height: Int = 768) throws {
        // A display nobody holds: each test's server is its own, and one just stopped may leave its socket a moment.
        let start = 70 + Int(getpid() % 200)
        let number = (start..<(start + 200)).first {
            !FileManager.default.fileExists(atPath: "/tmp/.X\($0)-lock") && !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)")
        } ?? start
        name = ":\(number)"
        server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        server.arguments = [name, "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        let socket = "/tmp/.X11-unix/X\(number)"
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket) { usleep(50_000) }
        guard FileManager.default.fileExists(atPath: socket) else { throw ToolFailure(tool: "Xvfb", output: "no display \(name)") }
    }

    /// A desktop session's environment, not the test runner's: what a user's terminal starts with.
    public var environment: [String: String] {
        let inherited = ProcessInfo.processInfo.environment
        var environment = ["DISPLAY": name, "PATH": inherited["PATH"] ?? "/usr/bin:/bin", "HOME": inherited["HOME"] ?? "/root",
                           "LANG": "C.UTF-8"]
        // kitty needs OpenGL 3.3, which Mesa's software renderer gives under Xvfb.
        environment["LIBGL_ALWAYS_SOFTWARE"] = "1"
        return environment
    }

    /// The whole screen as ImageMagick's `import -window root` sees it.
    public func screenshot() throws -> RenderedPage {
        let folder = TemporaryFolder()
        let path = folder.file("screen.ppm")
        let result = try ProcessRunner.run("import", ["-window", "root", "-depth", "8", "ppm:" + path], environment: environment)
        guard result.status == 0 else { throw ToolFailure(tool: "import", output: result.stderr) }
        return try PopplerRender.image(atPPM: path)
    }

    /// Killed outright: a server started from a test thread inherits its blocked signals, SIGTERM among them, and
    /// would outlive the test. Its lock and socket go with it.
    deinit {
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
        let number = name.dropFirst()
        unlink("/tmp/.X\(number)-lock")
        unlink("/tmp/.X11-unix/X\(number)")
    }
}

extension RenderedPage {
    /// The bounding box of the pixels passing a test.
    public func box(where test: (Int, Int, Int) -> Bool, within area: (x: Int, y: Int, width: Int, height: Int)? = nil)
        -> (x: Int, y: Int, width: Int, height: Int)? {
        let area = area ?? (0, 0, width, height)
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in area.y..<min(height, area.y + area.height) {
            for x in area.x..<min(width, area.x + area.width) {
                let pixel = rgb(x, y)
                guard test(pixel.red, pixel.green, pixel.blue) else { continue }
                minX = min(minX, x); minY = min(minY, y); maxX = max(maxX, x); maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? nil : (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }
}
