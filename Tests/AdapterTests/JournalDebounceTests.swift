@testable import TerminalFrontEnd
import Testing

/// The journal is written at once after a quiet spell, then at most every 250 ms while changes keep coming.
@Suite struct JournalDebounceTests {
    @Test func aHeldKeyCostsFourWritesASecondNotOneAKey() throws {
        let start = ContinuousClock.now
        var debounce = JournalDebounce()
        var writes: [Duration] = []
        // A key every 10 ms for a second: 100 changes.
        for tick in 0..<100 {
            let now = start + .milliseconds(10 * tick)
            debounce.changed()
            if debounce.isDue(at: now) {
                debounce.wrote(at: now)
                writes.append(now - start)
            }
        }
        #expect(writes.count == 4, "\(writes)")
        // The last change waits no longer than the interval: a crash then loses at most 250 ms.
        let last = start + .milliseconds(990)
        #expect(try #require(debounce.wait(at: last)) <= .milliseconds(250))
        for (earlier, later) in zip(writes, writes.dropFirst()) { #expect(later - earlier >= .milliseconds(250)) }
    }

    @Test func theFirstChangeAfterAQuietSpellIsWrittenAtOnce() {
        let start = ContinuousClock.now
        var debounce = JournalDebounce()
        #expect(debounce.wait(at: start) == nil)
        debounce.changed()
        #expect(debounce.wait(at: start) == .zero)
        debounce.wrote(at: start)
        debounce.changed()
        #expect(debounce.wait(at: start + .seconds(2)) == .zero)
    }
}
