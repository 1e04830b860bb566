/// An annotation with everything that answers it: its text replies, replies to replies flattened into
/// one list sorted by date, and the state changes recorded on it and on each reply.
public struct AnnotationThread: Sendable, Hashable {
    public var root: Annotation
    /// Text replies, oldest first.
    public var replies: [Annotation]
    /// State annotations by the annotation they apply to (the root or a reply), oldest first.
    public var stateChanges: [AnnotationID: [Annotation]]

    /// Every annotation the thread holds: the root, then what answers it.
    public var members: [Annotation] { [root] + answers }

    /// Replies and state changes together, oldest first: the thread as lists show it under the root.
    public var answers: [Annotation] {
        (replies + stateChanges.values.joined()).sorted(by: AnnotationThreads.chronological)
    }

    /// State changes on one annotation, oldest first.
    public func changes(on id: AnnotationID) -> [Annotation] { stateChanges[id] ?? [] }

    /// The state in force in a model: the latest change anyone made in it.
    public func currentState(of id: AnnotationID, model: String) -> Annotation? {
        changes(on: id).last { $0.state?.isIn(model: model) == true }
    }

    /// The latest change `author` made in a model: a new change by the same author continues from it.
    public func latestChange(on id: AnnotationID, model: String, by author: String) -> Annotation? {
        changes(on: id).last { $0.state?.isIn(model: model) == true && $0.author == author }
    }

    /// "Accepted — Alice": the review state in force and who set it; Marked is added when it is set.
    public func stateSummary(of id: AnnotationID) -> String? {
        var parts: [String] = []
        if let review = currentState(of: id, model: AnnotationState.reviewModel), let state = review.state {
            parts.append(state.value + " — " + (review.author ?? "unknown"))
        }
        if let marked = currentState(of: id, model: AnnotationState.markedModel), marked.state == .marked {
            parts.append("Marked")
        }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}

/// Groups a document's annotations into threads, following /IRT the way reviewers read them.
public enum AnnotationThreads {
    /// Oldest first; undated annotations keep the document's order.
    public static func chronological(_ a: Annotation, _ b: Annotation) -> Bool {
        switch (a.date, b.date) {
        case let (x?, y?) where x.instant != y.instant: return x.instant < y.instant
        default: return a.order < b.order
        }
    }

    /// One thread per annotation that answers nothing (or whose parent is missing), in document order.
    /// Loops in /IRT chains, which only broken files contain, are cut where they close.
    public static func build(_ annotations: [Annotation]) -> [AnnotationThread] {
        let byID = Dictionary(annotations.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

        func parent(of annotation: Annotation) -> Annotation? {
            guard let parentID = annotation.inReplyTo, parentID != annotation.id else { return nil }
            return byID[parentID]
        }
        // Every walk up a chain remembers where each annotation on it ends, so a chain of 10,000 replies is
        // walked once, not once per reply.
        var roots: [AnnotationID: AnnotationID] = [:]
        var targets: [AnnotationID: AnnotationID] = [:]
        /// The annotation a chain of replies ends at; for a chain that loops, the loop's first annotation
        /// in document order, so every member of the loop agrees on it.
        func root(of annotation: Annotation) -> AnnotationID {
            if let known = roots[annotation.id] { return known }
            var path = [annotation]
            var position: [AnnotationID: Int] = [annotation.id: 0]
            var result = annotation.id
            while true {
                guard let next = parent(of: path[path.count - 1]) else {
                    result = path[path.count - 1].id
                    break
                }
                if let known = roots[next.id] {
                    result = known
                    break
                }
                if let start = position[next.id] {
                    result = path[start...].min { $0.order < $1.order }!.id
                    break
                }
                position[next.id] = path.count
                path.append(next)
            }
            for member in path { roots[member.id] = result }
            return result
        }
        /// What a state change applies to: the first annotation up its chain that is not itself a state change.
        func target(of change: Annotation) -> AnnotationID {
            if let known = targets[change.id] { return known }
            var path = [change]
            var seen: Set<AnnotationID> = [change.id]
            var result = change.id
            while true {
                let current = path[path.count - 1]
                guard current.isStateChange, let next = parent(of: current), seen.insert(next.id).inserted else {
                    result = current.id
                    break
                }
                if let known = targets[next.id] {
                    result = known
                    break
                }
                path.append(next)
            }
            for member in path { targets[member.id] = result }
            return result
        }

        // Threads are changed where they stand: copying one out to append would copy its replies each time.
        var threads: [AnnotationThread] = []
        var threadIndex: [AnnotationID: Int] = [:]
        for annotation in annotations where root(of: annotation) == annotation.id {
            guard threadIndex[annotation.id] == nil else { continue }
            threadIndex[annotation.id] = threads.count
            threads.append(AnnotationThread(root: annotation, replies: [], stateChanges: [:]))
        }
        for annotation in annotations where threadIndex[annotation.id] == nil {
            let rootID = root(of: annotation)
            guard let index = threadIndex[rootID] else { continue }
            if annotation.isStateChange {
                let targetID = target(of: annotation)
                threads[index].stateChanges[targetID == annotation.id ? rootID : targetID, default: []].append(annotation)
            } else {
                threads[index].replies.append(annotation)
            }
        }
        for index in threads.indices {
            threads[index].replies.sort(by: chronological)
            for key in threads[index].stateChanges.keys {
                threads[index].stateChanges[key]!.sort(by: chronological)
            }
        }
        return threads
    }
}
