import Foundation

/// Runs a program to completion and keeps what it printed.
public struct ProcessResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
    /// The raw bytes of stdout, for checks on what a terminal would receive.
    public var stdoutBytes = Data()
    public var stderrBytes = Data()
    /// Killed by a signal (a crash, or the time limit) rather than exiting.
    public var signalled = false
    public var timedOut = false

    /// Lines of stderr, empty ones left out.
    public var errorLines: [String] { stderr.split(separator: "\n").map(String.init) }
}

public enum ProcessRunner {
    /// Runs to completion; with `timeLimit`, a program still running then is killed and marked `timedOut`:
    /// a guard against hangs, set far above the time the work takes.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           stdin: String? = nil, timeLimit: Double? = nil) throws -> ProcessResult {
        try capture(executable, arguments, environment: environment, stdin: stdin, timeLimit: timeLimit)
    }

    /// Starts a program that leaves a daemon behind (a tmux server): its output is discarded, because a
    /// daemon holding the pipes open would keep reading from ever finishing.
    /// Spawned and reaped directly: Foundation's Process does not always reap a client whose daemon lives on.
    public static func start(_ executable: String, _ arguments: [String]) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
        }
        // Nothing else: a daemon that inherited another test's capture pipe (tests run side by side) would
        // hold it open, and that test's read would never end. Closed in the child at spawn time: a list
        // taken before spawning misses pipes another thread opens in between.
        // glibc has it since 2.34, but Swift's Glibc module does not declare it.
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            throw ToolFailure(tool: executable, output: "posix_spawn_file_actions_addclosefrom_np is missing")
        }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, STDERR_FILENO + 1)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // A daemon (the tmux server) passes its signal mask and ignored signals on to what it runs. The test
        // process blocks some on its threads; an editor started with SIGWINCH blocked never hears of a resize.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, executable, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw ToolFailure(tool: executable, output: String(cString: strerror(spawned))) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status >> 8) & 0xFF
    }

    private static func capture(_ executable: String, _ arguments: [String], environment: [String: String]?,
                                stdin: String?, timeLimit: Double?) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
        process.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        // Read both pipes while the process runs, so a large output cannot block it.
        let errorBox = DataBox()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorBox.data = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let timer = TimeoutFlag()
        if let timeLimit {
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit) {
                guard process.isRunning else { return }
                timer.fired = true
                kill(pid, SIGKILL)
            }
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let errData = errorBox.data
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus,
                             stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData, as: UTF8.self),
                             stdoutBytes: outData, stderrBytes: errData,
                             signalled: process.terminationReason == .uncaughtSignal, timedOut: timer.fired)
    }
}

private final class DataBox: @unchecked Sendable {
    var data = Data()
}

private final class TimeoutFlag: @unchecked Sendable {
    var fired = false
}
