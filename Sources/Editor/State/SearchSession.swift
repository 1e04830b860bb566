import Foundation
import RedlineCore

/// A search under way or done: the pattern, the pages searched so far and their hits, and which hit is shown.
/// Pages are searched off the loop starting at the page the search began on, in the search's direction and round
/// the end, so the first hit arrives first; `n` and `N` move only over pages already searched, and wait for the
/// rest while counting goes on.
public struct SearchSession: Sendable, Equatable {
    public enum Progress: Sendable, Equatable {
        case counting
        case finished
        /// Esc stopped the counting: pages not searched by then have no hits as far as `n` and `N` know.
        case stopped
    }

    /// A hit by its page and its place among that page's hits (reading order).
    public struct HitRef: Sendable, Hashable {
        public var pageIndex: Int
        public var index: Int
    }

    public let id: UUID
    public let pattern: String
    /// `/` searches forward, `?` backward; `n` goes on the same way and `N` the other.
    public let forward: Bool
    public let startPage: Int
    public let pageCount: Int
    public private(set) var searchedCount = 0
    public private(set) var hitsByPage: [Int: [SearchHit]] = [:]
    public private(set) var hitCount = 0
    /// Pages left out (kept from poppler as too costly to read): the first, why, and how many.
    public private(set) var firstLeftOut: Int?
    public private(set) var leftOutReason: String?
    public private(set) var leftOutCount = 0

    /// "page 3 not searched: …", as `redline search` says it; nil when every page was searched.
    public var leftOutSummary: String? {
        guard let first = firstLeftOut, let why = leftOutReason else { return nil }
        return (leftOutCount == 1 ? "page \(first + 1)" : "\(leftOutCount) pages (the first \(first + 1))") + " not searched: " + why
    }
    public var progress: Progress = .counting
    public var current: HitRef?
    /// A move asked for before the pages it needs were searched: forward or not. Made when they are.
    public var pendingMove: Bool?
    /// The page `n` and `N` count from when no hit is current: where the search began, or the page the user
    /// went to since.
    public var origin: Int?
    /// Whether the hits are drawn on the page (Esc hides them, as vim's :nohlsearch).
    public var shown = true

    public init(id: UUID, pattern: String, forward: Bool, startPage: Int, pageCount: Int) {
        self.id = id
        self.pattern = pattern
        self.forward = forward
        self.startPage = startPage
        self.pageCount = max(1, pageCount)
    }

    /// The pages of one batch of results, in the order they were searched.
    mutating func record(_ pages: [SearchedPage]) {
        for page in pages where searchedCount < pageCount {
            if let why = page.notSearched {
                if firstLeftOut == nil { (firstLeftOut, leftOutReason) = (page.pageIndex, why) }
                leftOutCount += 1
            }
            if !page.hits.isEmpty {
                hitsByPage[page.pageIndex] = page.hits
                hitCount += page.hits.count
            }
            searchedCount += 1
        }
    }

    public func isSearched(_ pageIndex: Int) -> Bool {
        if progress == .finished { return true }
        let distance = forward ? pageIndex - startPage : startPage - pageIndex
        return (distance % pageCount + pageCount) % pageCount < searchedCount
    }

    public func hit(_ ref: HitRef) -> SearchHit? {
        guard let hits = hitsByPage[ref.pageIndex], hits.indices.contains(ref.index) else { return nil }
        return hits[ref.index]
    }

    public enum Move: Equatable {
        case hit(HitRef, wrapped: Bool)
        /// The pages between here and the next hit are not searched yet.
        case waiting
        case none
    }

    /// The next hit from `ref` (or, before the first, from the start of `startPage` going forward, its end
    /// going backward), round the end of the document; a page not yet searched makes it wait.
    public func move(forward: Bool, from ref: HitRef?) -> Move {
        let origin = ref ?? HitRef(pageIndex: self.origin ?? startPage, index: forward ? -1 : Int.max)
        for step in 0...pageCount {
            let page = ((origin.pageIndex + (forward ? step : -step)) % pageCount + pageCount) % pageCount
            guard isSearched(page) || progress == .stopped else { return .waiting }
            let hits = hitsByPage[page] ?? []
            let candidates = step == 0
                ? hits.indices.filter { forward ? $0 > origin.index : $0 < origin.index }
                : Array(hits.indices)
            if let index = forward ? candidates.first : candidates.last {
                let wrapped = forward ? page < origin.pageIndex || (page == origin.pageIndex && step > 0)
                                      : page > origin.pageIndex || (page == origin.pageIndex && step > 0)
                return .hit(HitRef(pageIndex: page, index: index), wrapped: wrapped)
            }
        }
        return .none
    }

    /// Which hit `ref` is, from 1, counting every hit before it in page order.
    public func ordinal(of ref: HitRef) -> Int {
        hitsByPage.filter { $0.key < ref.pageIndex }.reduce(0) { $0 + $1.value.count } + ref.index + 1
    }

    public func hits(onPage index: Int) -> [SearchHit] { hitsByPage[index] ?? [] }
}

/// One page's search result, as the runner sends it.
public struct SearchedPage: Sendable, Equatable {
    public var pageIndex: Int
    public var hits: [SearchHit]
    /// Why the page was left out (kept from poppler as too costly to read), or nil when it was searched.
    public var notSearched: String?

    public init(pageIndex: Int, hits: [SearchHit], notSearched: String? = nil) {
        self.pageIndex = pageIndex
        self.hits = hits
        self.notSearched = notSearched
    }
}

/// What the runner is asked to search: pages in the order `SearchSession` expects them.
public struct SearchRequest: Sendable, Equatable {
    public var id: UUID
    public var pattern: String
    public var startPage: Int
    public var forward: Bool

    /// The pages to search, in order: from `startPage` in the direction, round the end.
    public func pageOrder(pageCount: Int) -> [Int] {
        (0..<pageCount).map { step in ((startPage + (forward ? step : -step)) % pageCount + pageCount) % pageCount }
    }
}
