import Glibc

/// SIGHUP (the terminal closed) and SIGTERM only set a flag, so the editor can write its crash journal
/// before it goes instead of dying with the last half second of work unjournaled.
enum HangupSignals {
    nonisolated(unsafe) private static var flag: sig_atomic_t = 0

    static var received: Bool { flag != 0 }

    static func install() {
        for signal in [SIGHUP, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in HangupSignals.flag = 1 }
            // No SA_RESTART: the blocking read returns, and the loop sees the flag.
            action.sa_flags = 0
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
    }
}
