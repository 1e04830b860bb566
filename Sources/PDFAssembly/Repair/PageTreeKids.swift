import CQPDF
import RedlineCore

/// Kids of the page tree that are no page or node at all (null, a number, a dangling reference): poppler passes them
/// over, qpdf 11 stops at them and refuses the document. They are taken out of the session's tree, as a repair the
/// user is told of; the saved copy has a tree every reader reads.
enum PageTreeKids {
    /// How many kids were taken out.
    static func dropNonPages(in session: QPDFSession) -> Int {
        let data = session.data
        var dropped = 0
        var visited = Set<Int32>()
        func visit(_ node: qpdf_oh, depth: Int) {
            guard depth < 512, session.isDictionary(node) else { return }
            let id = session.objectID(node)
            guard id == 0 || visited.insert(id).inserted else { return }
            let kids = session.key(node, "/Kids")
            guard session.isArray(kids) else { return }
            let items = session.arrayItems(kids)
            let kept = items.filter { session.isDictionary($0) }
            if kept.count < items.count {
                let array = qpdf_oh_new_array(data)
                for kid in kept { qpdf_oh_append_item(data, array, kid) }
                qpdf_oh_replace_key(data, node, "/Kids", array)
                dropped += items.count - kept.count
            }
            for kid in kept where session.name(session.key(kid, "/Type")) != "Page" && session.isArray(session.key(kid, "/Kids")) {
                visit(kid, depth: depth + 1)
            }
        }
        visit(session.key(qpdf_get_root(data), "/Pages"), depth: 0)
        return dropped
    }
}
