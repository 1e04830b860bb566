import Foundation
import TerminalFrontEnd
import Testing
import TestSupport

/// `redline bench --paging` walks every page to the end and every page back, reading the resident memory after each
/// tenth of the way: the figures the reviewer is quoted must cover the whole walk both ways.
@Suite struct PagingMemoryBenchTests {
    @Test func theWalkGoesToTheLastPageAndBackToTheFirst() throws {
        let memory = try Benchmark.memoryWhilePaging(path: TestPaths.sample, password: nil)
        #expect(memory.forward.map(\.page) == [0, 1, 2, 3, 4])
        #expect(memory.back.map(\.page) == [4, 3, 2, 1])
        #expect((memory.forward + memory.back).allSatisfy { $0.megabytes > 1 })
        let report = memory.report.split(separator: "\n")
        #expect(report.count == 2 && report[0].hasPrefix("resident memory paging to the end: 0: ")
                && report[1].hasPrefix("resident memory paging back to the start: 4: "), "\(report)")
    }
}
