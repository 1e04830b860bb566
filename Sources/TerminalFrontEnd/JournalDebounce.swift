/// When the crash journal is written: at once for the first change after a quiet spell, then at most once
/// every `interval` while changes keep coming, so a held key costs a few writes a second, not one each,
/// and a crash loses at most `interval` of work.
struct JournalDebounce {
    static let interval = Duration.milliseconds(250)
    private(set) var pending = false
    private var lastWrite: ContinuousClock.Instant?

    mutating func changed() {
        pending = true
    }

    /// How long the loop may sleep before the journal is due: nil when nothing is pending.
    func wait(at now: ContinuousClock.Instant) -> Duration? {
        guard pending else { return nil }
        guard let lastWrite else { return .zero }
        return max(.zero, Self.interval - (now - lastWrite))
    }

    func isDue(at now: ContinuousClock.Instant) -> Bool { wait(at: now) == .zero }

    mutating func wrote(at now: ContinuousClock.Instant) {
        pending = false
        lastWrite = now
    }

    mutating func cancel() {
        pending = false
    }
}
