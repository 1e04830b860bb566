import Editor
import Foundation
import RedlineCore

/// One search on its own thread, through its own poppler reading of the document (the renderer's may be busy
/// on the render thread). Pages go back in batches, at most every 30 ms, so a long document's count rises
/// steadily without flooding the loop; `stop()` ends it before the next page.
final class SearchJob: @unchecked Sendable {
    let id: UUID
    private let lock = NSLock()
    private var stopped = false

    init(id: UUID) {
        self.id = id
    }

    func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    /// Searches on a new thread; `deliver` is called there with each batch, the last one `finished`.
    func start(_ request: SearchRequest, on threads: BackgroundThreads, pageCount: Int, reader: @escaping @Sendable () throws -> any TextSearching,
               deliver: @escaping @Sendable (_ pages: [SearchedPage], _ finished: Bool) -> Void,
               failed: @escaping @Sendable (String) -> Void) {
        threads.start { [self] in
            let searcher: any TextSearching
            do {
                searcher = try reader()
            } catch {
                failed("\(error)")
                return
            }
            var batch: [SearchedPage] = []
            var lastSent = ContinuousClock.now
            for page in request.pageOrder(pageCount: pageCount) {
                if isStopped { return }
                batch.append(SearchedPage(pageIndex: page, hits: TextSearch.hits(of: request.pattern, in: page..<page + 1, using: searcher),
                                          notSearched: searcher.refusal(page: page)))
                if ContinuousClock.now - lastSent > .milliseconds(30) || !batch.last!.hits.isEmpty {
                    deliver(batch, false)
                    batch = []
                    lastSent = .now
                }
            }
            if !isStopped { deliver(batch, true) }
        }
    }
}
