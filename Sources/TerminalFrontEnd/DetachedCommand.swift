import Foundation
import RedlineKit
#if canImport(Glibc)
import Glibc
#endif

/// Starts a program the user configured (a callback, the open command) as a child of its own: no shell, its
/// name looked up on PATH, the signal handling and mask of a fresh process (the editor's threads block
/// signals ncurses and the hangup handling own, and a child would inherit that), and its output discarded.
/// Never waited for by the caller: a thread reaps it.
enum DetachedCommand {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func start(_ arguments: [String], input: Data? = nil) throws {
        guard let program = arguments.first, !program.isEmpty else { throw Failure(description: "no program given") }
        var ends: [Int32] = [-1, -1]
        if input != nil {
            guard pipe(&ends) == 0 else { throw Failure(description: String(cString: strerror(errno))) }
            // Neither end may stay open in another child; dup2 onto 0 clears the flag for this one.
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input != nil {
            posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawnp(&child, program, &actions, &attributes, cArguments, environ)
        if input != nil { close(ends[0]) }
        guard status == 0 else {
            if input != nil { close(ends[1]) }
            throw Failure(description: String(cString: strerror(status)))
        }
        if let input {
            // Far below a pipe's buffer; a child that exits unread makes this EPIPE, never a signal (the
            // editor ignores SIGPIPE), and what it did not read is its own business.
            try? DescriptorWriter.writeAll(input, to: ends[1])
            close(ends[1])
        }
        let started = child
        Thread.detachNewThread {
            var result: Int32 = 0
            while waitpid(started, &result, 0) < 0, errno == EINTR {}
        }
    }
}
