/// What a document's followers on this instance share after each commit: the recent events and each follower's
/// access, read once for all of them. Fifty readers of one document cost one read per commit, not fifty: on
/// PostgreSQL every read is a round trip through a pool of twenty connections.
struct FeedView: Sendable {
    /// The first event the log keeps.
    var firstKept: Int
    /// The last event the feed has read.
    var head: Int
    /// Recent events, contiguous and in order, ending at `head` (may be empty).
    var window: [StoredEvent]
    /// Access of each following user as of this read; a user missing has none.
    var access: [String: DocumentAccess]
}

/// The events and accesses of one followed document, refreshed once per poke however many followers ask.
actor DocumentFeed {
    private let document: String
    private let store: any CollabStore
    private let open: Bool
    /// Events kept in memory for followers that are up to date (the last 1,024, up to twice as many between trims,
    /// and at most 8 MiB); one further behind reads the store itself.
    private static let mostEvents = 1024
    private static let mostBytes = 8 << 20

    private var view = FeedView(firstKept: 1, head: 0, window: [], access: [:])
    /// The window's frames' bytes, kept as events come and go.
    private var windowBytes = 0
    private var started = false
    private var users: [String: Int] = [:]
    /// Refreshes begun and finished; a follower poked waits for one begun after the poke.
    private var begun = 0
    private var finished = 0
    private var running = false
    private var waiters: [(wanted: Int, continuation: CheckedContinuation<FeedView, any Error>)] = []

    /// This instance's commit instants of events, asked once per read instead of by every follower for every event.
    private let commitInstants: @Sendable (String, [Int]) async -> [Int: ContinuousClock.Instant]

    init(document: String, store: any CollabStore, open: Bool,
         commitInstants: @escaping @Sendable (String, [Int]) async -> [Int: ContinuousClock.Instant]) {
        self.document = document
        self.store = store
        self.open = open
        self.commitInstants = commitInstants
    }

    func add(user: String) { users[user, default: 0] += 1 }

    /// Every user with a connection following the document on this instance.
    var present: [String] { users.keys.sorted() }

    func remove(user: String) {
        users[user, default: 1] -= 1
        if users[user] == 0 { users[user] = nil }
    }

    /// The view as of a read begun after this call.
    func refreshed() async throws -> FeedView {
        let wanted = begun + 1
        if !running { startRefresh() }
        return try await withCheckedThrowingContinuation { continuation in
            waiters.append((wanted, continuation))
        }
    }

    private func startRefresh() {
        running = true
        begun += 1
        let number = begun
        Task { await self.refresh(number) }
    }

    private func refresh(_ number: Int) async {
        let outcome: Result<FeedView, any Error>
        do {
            outcome = .success(try await read())
        } catch {
            outcome = .failure(error)
        }
        finished = number
        running = false
        var waiting: [(wanted: Int, continuation: CheckedContinuation<FeedView, any Error>)] = []
        for waiter in waiters {
            if waiter.wanted <= number { waiter.continuation.resume(with: outcome) } else { waiting.append(waiter) }
        }
        waiters = waiting
        if !waiters.isEmpty { startRefresh() }
    }

    private func read() async throws -> FeedView {
        // The first read starts at the log's head: followers further behind read the store until they reach it.
        let after: Int? = started ? view.head : nil
        var read = try await store.feed(document: document, users: Array(users.keys), open: open, after: after,
                                        limit: Self.mostEvents)
        var events = read.events
        while read.events.count == Self.mostEvents, let last = read.events.last {
            read = try await store.feed(document: document, users: Array(users.keys), open: open, after: last.seq,
                                        limit: Self.mostEvents)
            events += read.events
        }
        started = true
        if !events.isEmpty {
            let instants = await commitInstants(document, events.map(\.seq))
            for index in events.indices { events[index].committed = instants[events[index].seq] }
        }
        // The feed lets go of its own reference first, so that appending is in place unless a follower still holds
        // the last view: taken as a copy, the whole window (and a retain of each event) was copied per commit.
        var window = view.window
        view.window = []
        if let first = events.first, first.seq != view.head + 1 {
            window.removeAll()
            windowBytes = 0
        }
        window += events
        windowBytes += events.reduce(0) { $0 + $1.frame.utf8.count }
        // Trimmed when twice over the count: removing from the front moves what stays.
        if window.count > 2 * Self.mostEvents || windowBytes > Self.mostBytes {
            var drop = 0
            while drop < window.count, window.count - drop > Self.mostEvents || windowBytes > Self.mostBytes {
                windowBytes -= window[drop].frame.utf8.count
                drop += 1
            }
            window.removeFirst(drop)
        }
        view = FeedView(firstKept: read.firstKept, head: max(read.head, window.last?.seq ?? 0), window: window,
                        access: read.access)
        return view
    }
}

/// One read for a document's feed.
public struct FeedRead: Sendable {
    public var firstKept: Int
    /// The log's head when `events` is empty because the feed had no cursor yet; otherwise the last event read.
    public var head: Int
    public var events: [StoredEvent]
    public var access: [String: DocumentAccess]

    public init(firstKept: Int, head: Int, events: [StoredEvent], access: [String: DocumentAccess]) {
        self.firstKept = firstKept
        self.head = head
        self.events = events
        self.access = access
    }
}
