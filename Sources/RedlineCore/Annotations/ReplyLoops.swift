/// The annotations on loops of replies (/IRT, XFDF's inreplyto), which only broken or hostile files hold.
public enum ReplyLoops {
    private enum Visit { case onPath(Int), finished }

    /// Every annotation on a loop, found in one walk: each annotation is visited once however long its chain, so a
    /// chain of 20,000 replies costs 20,000 steps, not 20,000².
    public static func members<ID: Hashable>(parents: [ID: ID]) -> Set<ID> {
        var visits: [ID: Visit] = [:]
        var looped = Set<ID>()
        for start in parents.keys where visits[start] == nil {
            var path: [ID] = []
            var current: ID? = start
            while let id = current {
                switch visits[id] {
                case .onPath(let position)?:
                    looped.formUnion(path[position...])
                    current = nil
                case .finished?:
                    current = nil
                case nil:
                    visits[id] = .onPath(path.count)
                    path.append(id)
                    current = parents[id]
                }
            }
            for id in path { visits[id] = .finished }
        }
        return looped
    }
}
