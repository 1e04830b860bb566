import CQPDF
import RedlineCore

/// The catalog's `/PageLabels` number tree, read within bounds: a tree of loops, a depth of thousands or a million
/// entries costs a bounded walk, and what cannot be read is no label, never an error.
enum PageLabelReader {
    static let deepest = 32
    static let mostNodes = 10_000
    static let mostRanges = 100_000

    static func read(in session: QPDFSession, pageCount: Int) -> PageLabels {
        session.releasingHandles {
            var ranges: [PageLabels.Range] = []
            var visited = Set<Int32>()
            var nodes = 0
            func walk(_ node: qpdf_oh, depth: Int) {
                guard depth < deepest, nodes < mostNodes, ranges.count < mostRanges, session.isDictionary(node) else { return }
                nodes += 1
                let id = session.objectID(node)
                if id != 0, !visited.insert(id).inserted { return }
                let numbers = session.arrayItems(session.key(node, "/Nums"))
                var index = 0
                while index + 1 < numbers.count, ranges.count < mostRanges {
                    if let page = session.integer(numbers[index]), page >= 0, page < pageCount, session.isDictionary(numbers[index + 1]) {
                        let entry = numbers[index + 1]
                        let style = session.name(session.key(entry, "/S")).flatMap(PageLabels.Style.init(name:))
                        let start = session.integer(session.key(entry, "/St")) ?? 1
                        ranges.append(PageLabels.Range(firstPage: page, style: style, prefix: session.text(session.key(entry, "/P")) ?? "",
                                                       start: start))
                    }
                    index += 2
                }
                for kid in session.arrayItems(session.key(node, "/Kids")) { walk(kid, depth: depth + 1) }
            }
            walk(session.key(qpdf_get_root(session.data), "/PageLabels"), depth: 0)
            return PageLabels(ranges)
        }
    }
}
