import CQPDF
import Foundation
import RedlineCore

/// How much drawing a page asks of a renderer, estimated from its content before poppler is given it. Poppler has
/// no way to stop a render or a text read once begun, and a page of a few kilobytes can ask for billions of steps:
/// form XObjects that each draw the next twice (2^29 draws from 29 forms), a tiling pattern stepped 0.0001 pt.
/// Such a page is not drawn, read or searched; the reason is said instead. Every form is read once (its cost is
/// kept by object), so the estimate is linear in the page's content.
public final class PageCostInspector: @unchecked Sendable {
    /// Drawing operators a page may cost, its forms and pattern tiles counted as often as they are drawn: dense
    /// maps and plans run to a few million; past this a render would take minutes or never end.
    public static let budget = 20_000_000

    private let lock = NSLock()
    private let session: QPDFSession
    private var verdicts: [Int: String?] = [:]
    private var formCosts: [Int32: Int] = [:]

    public init(path: String, password: String?) throws {
        session = try PDFInspector.openSession(path: path, password: password)
    }

    /// Why the page is not to be drawn, or nil when it may be.
    public func refusal(page index: Int) -> String? {
        lock.lock()
        defer { lock.unlock() }
        if let known = verdicts[index] { return known }
        let verdict = judge(page: index)
        verdicts[index] = verdict
        return verdict
    }

    private func judge(page index: Int) -> String? {
        let data = session.data
        guard index >= 0, index < Int(qpdf_get_num_pages(data)) else { return nil }
        let page = qpdf_get_page_n(data, index)
        var buffer: UnsafeMutablePointer<UInt8>?
        var length = 0
        let code = qpdf_oh_get_page_content_data(data, page, &buffer, &length)
        defer { free(buffer) }
        _ = session.takeWarnings()
        guard code & QPDF_ERRORS == 0, let buffer else {
            _ = try? session.check()
            return nil
        }
        let content = [UInt8](UnsafeBufferPointer(start: buffer, count: length))
        let box = session.box(session.inherited("/MediaBox", of: page)) ?? PDFBox(x1: 0, y1: 0, x2: 612, y2: 792)
        let area = min(1e12, abs((box.x2 - box.x1) * (box.y2 - box.y1)))
        var onPath = Set<Int32>()
        let cost = self.cost(of: content, resources: session.inherited("/Resources", of: page), area: area, depth: 0, onPath: &onPath)
        guard cost > Self.budget else { return nil }
        return "it would take more than \(Self.budget / 1_000_000) million drawing steps (forms or patterns drawn over and over)"
    }

    private func cost(of content: [UInt8], resources: qpdf_oh, area: Double, depth: Int, onPath: inout Set<Int32>) -> Int {
        let operators = ContentOperators(content)
        var total = operators.operatorCount
        func add(_ amount: Int) {
            let (sum, overflow) = total.addingReportingOverflow(amount)
            total = overflow ? Int.max / 2 : min(sum, Int.max / 2)
        }
        let xobjects = session.key(resources, "/XObject")
        for name in operators.drawn where total <= Self.budget {
            let form = session.key(xobjects, "/" + name)
            guard session.isStream(form), session.name(session.key(qpdf_oh_get_dict(session.data, form), "/Subtype")) == "Form" else { continue }
            add(streamCost(form, fallbackResources: resources, area: area, depth: depth, onPath: &onPath))
        }
        let patterns = session.key(resources, "/Pattern")
        for name in operators.patterns where total <= Self.budget {
            let pattern = session.key(patterns, "/" + name)
            guard session.isStream(pattern) else { continue }
            let dictionary = qpdf_oh_get_dict(session.data, pattern)
            guard session.integer(session.key(dictionary, "/PatternType")) == 1 else { continue }
            let step = abs((session.real(session.key(dictionary, "/XStep")) ?? 1) * (session.real(session.key(dictionary, "/YStep")) ?? 1))
            let matrix = session.arrayItems(session.key(dictionary, "/Matrix")).compactMap(session.real)
            let scale = matrix.count == 6 ? abs(matrix[0] * matrix[3] - matrix[1] * matrix[2]) : 1
            let tileArea = step * scale
            let tiles = tileArea > 0 ? area / tileArea : Double.infinity
            let perTile = 1 + streamCost(pattern, fallbackResources: resources, area: area, depth: depth, onPath: &onPath)
            let product = tiles * Double(perTile)
            add(product.isFinite && product < 1e15 ? Int(product) : Int.max / 2)
        }
        return total
    }

    /// A form's or tiling pattern's own drawing, once per object.
    private func streamCost(_ stream: qpdf_oh, fallbackResources: qpdf_oh, area: Double, depth: Int, onPath: inout Set<Int32>) -> Int {
        let id = session.objectID(stream)
        if id != 0, let known = formCosts[id] { return known }
        // A form drawing itself is drawn once by poppler, which stops the loop; past this depth nothing is counted.
        guard depth < 64, id == 0 || onPath.insert(id).inserted else { return 0 }
        defer { if id != 0 { onPath.remove(id) } }
        let data = session.streamData(stream, level: qpdf_dl_generalized)
        _ = session.takeWarnings()
        guard let content = data else { return 0 }
        let own = session.key(qpdf_oh_get_dict(session.data, stream), "/Resources")
        let cost = self.cost(of: content, resources: session.isDictionary(own) ? own : fallbackResources, area: area,
                             depth: depth + 1, onPath: &onPath)
        if id != 0 { formCosts[id] = cost }
        return cost
    }
}
