/// Group commit: a document's changes that arrive while its transaction runs wait and go together in the next
/// one. On PostgreSQL a change held its document's row over four round trips, so one document took ~150 changes a
/// second whatever the machine; a batch pays those round trips once. Each change is still decided on its own, in
/// arrival order, and its connection gets its own outcome.
actor ChangeQueue {
    private let store: any CollabStore
    private var waiting: [String: [(change: PendingChange, answer: ChangeAnswer.Continuation)]] = [:]
    private var committing: Set<String> = []
    /// Bounds a transaction's length (and the time its first change waits).
    static let mostInOneTransaction = 64

    /// `store`: the server's `BoundedStore`, so that a transaction that never ends fails at its deadline.
    init(store: any CollabStore) { self.store = store }

    /// Queues the change behind those already queued for the document; its outcome comes through the answer.
    func enqueue(_ change: PendingChange, to document: String) -> ChangeAnswer {
        let (outcomes, continuation) = AsyncThrowingStream.makeStream(of: StoredChangeOutcome.self)
        waiting[document, default: []].append((change, continuation))
        if committing.insert(document).inserted {
            Task { await self.drain(document) }
        }
        return ChangeAnswer(outcomes: outcomes)
    }

    func commit(_ change: PendingChange, to document: String) async throws -> StoredChangeOutcome {
        try await enqueue(change, to: document).outcome()
    }

    /// Changes waiting for the document's next transaction (the one running not counted).
    func waitingCount(_ document: String) -> Int { waiting[document]?.count ?? 0 }

    private func drain(_ document: String) async {
        while let queued = waiting[document], !queued.isEmpty {
            let batch = Array(queued.prefix(Self.mostInOneTransaction))
            waiting[document] = Array(queued.dropFirst(batch.count))
            await run(batch, document)
        }
        waiting[document] = nil
        committing.remove(document)
    }

    private func run(_ batch: [(change: PendingChange, answer: ChangeAnswer.Continuation)], _ document: String) async {
        do {
            let outcomes = try await store.apply(document: document, changes: batch.map(\.change))
            for (waiter, outcome) in zip(batch, outcomes) { waiter.answer.answer(outcome) }
        } catch {
            // One change's failure (a lost connection, a full disk) is not the others': each again in its own. A
            // database that answers nothing is not tried again 64 times over: the clients resend.
            var failure: (any Error)? = error is TransactionDeadlinePassed || batch.count == 1 ? error : nil
            for waiter in batch {
                if let failure {
                    waiter.answer.finish(throwing: failure)
                    continue
                }
                do {
                    waiter.answer.answer(try await store.apply(document: document, changes: [waiter.change])[0])
                } catch {
                    if error is TransactionDeadlinePassed { failure = error }
                    waiter.answer.finish(throwing: error)
                }
            }
        }
    }
}

/// The outcome of a queued change, once its transaction ends.
struct ChangeAnswer: Sendable {
    typealias Continuation = AsyncThrowingStream<StoredChangeOutcome, any Error>.Continuation
    let outcomes: AsyncThrowingStream<StoredChangeOutcome, any Error>

    func outcome() async throws -> StoredChangeOutcome {
        for try await outcome in outcomes { return outcome }
        throw CancellationError()
    }
}

extension AsyncThrowingStream<StoredChangeOutcome, any Error>.Continuation {
    func answer(_ outcome: StoredChangeOutcome) {
        yield(outcome)
        finish()
    }
}
