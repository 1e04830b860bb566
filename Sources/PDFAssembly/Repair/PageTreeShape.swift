import CQPDF
import RedlineCore
import Synchronization

/// The page tree as its `/Kids` list it, measured before qpdf makes its page list. qpdf gives every page listed
/// twice a copy of its own, so a tree listing one page a million times (a file of 100 KB) costs gigabytes and
/// minutes before the first page is shown; poppler refuses such a file. Measured here in one walk with memory
/// bounded by the tree's nodes, not by the pages it claims.
enum PageTreeShape {
    /// More pages listed than page objects by this many is no repeated page or two but a page tree built to exhaust.
    static let mostRepeatedPages = 10_000

    /// Files whose tree was measured and passed in this process: a save reads the file it described again, and
    /// the walk (every page object through qpdf, 6 ms for a 1,000-page book) need not be made twice.
    private static let wellShaped = Mutex<Set<FileIdentity>>([])

    static func measuredWell(_ file: FileIdentity) -> Bool { wellShaped.withLock { $0.contains(file) } }

    static func noteMeasuredWell(_ file: FileIdentity) { wellShaped.withLock { _ = $0.insert(file) } }

    /// Why the tree cannot be read as pages, or nil when it can.
    static func refusal(in session: QPDFSession) -> String? {
        let (listed, distinct) = measure(in: session)
        guard listed - distinct > mostRepeatedPages else { return nil }
        return "the page tree is damaged: it lists the same page objects over and over (\(listed - distinct) pages more than "
            + "its \(distinct) page object\(distinct == 1 ? "" : "s"), and counting)"
    }

    /// Pages listed and distinct page objects among them, the walk stopping once the first passes the second by
    /// more than `mostRepeatedPages`. A node reached again (shared, or a loop) counts what it counted the first
    /// time, so the walk visits each node once.
    static func measure(in session: QPDFSession) -> (listed: Int, distinct: Int) {
        let data = session.data
        var counted: [Int32: Int] = [:]
        var onPath = Set<Int32>()
        var leaves = Set<Int32>()
        var directLeaves = 0
        var listed = 0
        var exceeded: Bool { listed - leaves.count - directLeaves > mostRepeatedPages }
        func count(_ node: qpdf_oh, depth: Int) -> Int {
            guard depth < 512, !exceeded, session.isDictionary(node) else { return 0 }
            let kids = session.key(node, "/Kids")
            defer { qpdf_oh_release(data, kids) }
            let id = session.objectID(node)
            guard session.isArray(kids), session.name(session.key(node, "/Type")) != "Page" else {
                if id == 0 { directLeaves += 1 } else { leaves.insert(id) }
                listed += 1
                return 1
            }
            if id != 0, let known = counted[id] {
                listed = listed.addingReportingOverflow(known).overflow ? Int.max : listed + known
                return known
            }
            // A loop counts nothing more: qpdf refuses it with its own words.
            guard id == 0 || onPath.insert(id).inserted else { return 0 }
            var total = 0
            for index in 0..<qpdf_oh_get_array_n_items(data, kids) where !exceeded {
                let kid = qpdf_oh_get_array_item(data, kids, index)
                let (sum, overflow) = total.addingReportingOverflow(count(kid, depth: depth + 1))
                total = overflow ? Int.max : sum
                qpdf_oh_release(data, kid)
            }
            if id != 0 {
                onPath.remove(id)
                counted[id] = total
            }
            return total
        }
        _ = count(session.key(qpdf_get_root(data), "/Pages"), depth: 0)
        return (listed, leaves.count + directLeaves)
    }
}
