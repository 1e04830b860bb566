import CQPDF
import RedlineCore

/// The page tree's /Count entries, made true. Poppler believes /Count (a null one means no pages at all),
/// while qpdf walks /Kids; a damaged tree then opens with a different number of pages in each. The count
/// qpdf's walk gives is written into every node that says otherwise.
enum PageTreeCounts {
    /// How many nodes had a wrong /Count (now corrected in the session, and in every copy saved from it).
    static func correct(in session: QPDFSession) -> Int {
        var corrected = 0
        var onPath = Set<Int32>()
        func pages(under node: qpdf_oh, depth: Int) -> Int {
            guard depth < 512, session.isDictionary(node) else { return 0 }
            let kids = session.key(node, "/Kids")
            guard session.isArray(kids), session.name(session.key(node, "/Type")) != "Page" else { return 1 }
            let id = session.objectID(node)
            // qpdf refuses a tree that loops before this runs; the guard keeps the walk finite regardless.
            guard id == 0 || onPath.insert(id).inserted else { return 0 }
            defer { if id != 0 { onPath.remove(id) } }
            let total = session.arrayItems(kids).reduce(0) { $0 + pages(under: $1, depth: depth + 1) }
            if session.integer(session.key(node, "/Count")) != total {
                qpdf_oh_replace_key(session.data, node, "/Count", qpdf_oh_new_integer(session.data, Int64(total)))
                corrected += 1
            }
            return total
        }
        let root = session.key(qpdf_get_root(session.data), "/Pages")
        guard pages(under: root, depth: 0) == Int(qpdf_get_num_pages(session.data)) else { return 0 }
        return corrected
    }
}
