import Foundation
import RedlineCore

/// A search of many pages shared between processes: poppler reads a page's text on one core (a 117-page manual
/// took 0.6 s, as `pdftotext` does) and one process may hold only one poppler call at a time, so the pages are
/// dealt out, one process a core, and every share past the first is searched by `redline search` in a process of
/// its own. Dealt, not cut into runs: a manual's first half took half as long again as its second. A share whose
/// process fails is searched here after all: nothing is left out.
struct SearchProcesses {
    /// Every `count`th page of `range` from its `index`th (pages from 0).
    struct Share: Equatable {
        let range: Range<Int>
        let index: Int
        let count: Int

        var pages: StrideTo<Int> { stride(from: range.lowerBound + index, to: range.upperBound, by: count) }

        /// As `--worker-share` gives it: INDEX/COUNT.
        init?(_ text: String, range: Range<Int>) {
            let parts = text.split(separator: "/").map { Int($0) }
            guard parts.count == 2, let index = parts[0], let count = parts[1], count >= 1, count <= 64, (0..<count).contains(index) else { return nil }
            self.init(range: range, index: index, count: count)
        }

        init(range: Range<Int>, index: Int, count: Int) {
            self.range = range
            self.index = index
            self.count = count
        }
    }

    /// One share and the process searching it, nil when this process searches it.
    struct Run {
        let share: Share
        var process: Process?
        var output: Pipe?
    }

    /// What a worker prints for the process that started it: every hit at full precision, and the pages left out.
    struct WorkerReport: Codable {
        var hits: [SearchHit]
        var refused: [Refusal]
    }

    struct Refusal: Codable {
        var page: Int
        var reason: String
    }

    /// Fewer than this many pages a process are searched in one: starting a process and opening the document in it
    /// costs some 25 ms, a page of a book 3 to 8.
    static let fewestPagesPerProcess = 12

    /// How many processes share `pages`: one a core (at most eight), fewer for a short document, or as
    /// `REDLINE_SEARCH_PROCESSES` says (1 searches in this process alone; at most one a page).
    static func processCount(pages: Int, environment: [String: String]) -> Int {
        if let asked = environment["REDLINE_SEARCH_PROCESSES"].flatMap(Int.init) { return max(1, min(asked, 64, pages)) }
        let cores = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
        return max(1, min(cores, pages / fewestPagesPerProcess))
    }

    /// Starts a worker for each share after the first. A worker that cannot be started leaves its share to this
    /// process.
    static func start(_ count: Int, of range: Range<Int>, input: String, pattern: String, password: String?) -> [Run] {
        (0..<count).map { index in
            let share = Share(range: range, index: index, count: count)
            guard index > 0 else { return Run(share: share) }
            let process = Process()
            // This very program, by its name (`ps` showed the workers as "exe").
            let program = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                .flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil } ?? "/proc/self/exe"
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = ["search", input, pattern, "--pages", "\(range.lowerBound + 1)-\(range.upperBound)",
                                 "--worker-report", "--worker-share", "\(index)/\(count)"]
            var environment = ProcessInfo.processInfo.environment
            // The password goes by the environment, which only the user can read, not by arguments everyone can.
            environment["REDLINE_SEARCH_PASSWORD"] = password
            // A worker is its own process group, so a Ctrl-C or a kill reaches this process alone: the worker stops
            // at its next page once this process is gone.
            environment["REDLINE_SEARCH_PARENT"] = String(getpid())
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            do {
                try process.run()
                return Run(share: share, process: process, output: output)
            } catch {
                return Run(share: share)
            }
        }
    }

    /// The worker's report, or nil when it failed (it is then searched by the caller).
    static func report(of run: Run) -> WorkerReport? {
        guard let process = run.process, let output = run.output else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else { return nil }
        return try? JSONDecoder().decode(WorkerReport.self, from: data)
    }
}
