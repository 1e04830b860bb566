import CQPDF
import Foundation

/// The pages carrying a signature: a field of type /Sig with a value (/V), found through the form's fields and their
/// kids (inherited /FT), each of its widgets placed by /P or, failing that, by the page whose /Annots lists it.
/// Burning markup into such a page changes what was signed: validators report the page changed after signing.
enum SignedPages {
    static let mostFields = 10_000

    static func indices(in session: QPDFSession) -> Set<Int> {
        let t = session.data
        let form = session.key(qpdf_get_root(t), "/AcroForm")
        var queue: [(field: qpdf_oh, type: String?)] = session.arrayItems(session.key(form, "/Fields")).map { ($0, nil) }
        guard !queue.isEmpty else { return [] }
        var seen: Set<Int32> = []
        var widgets: [qpdf_oh] = []
        var index = 0
        while index < queue.count, index < mostFields {
            let (field, inherited) = queue[index]
            index += 1
            let id = session.objectID(field)
            guard session.isDictionary(field), id == 0 || seen.insert(id).inserted else { continue }
            let type = session.name(session.key(field, "/FT")) ?? inherited
            let kids = session.arrayItems(session.key(field, "/Kids"))
            let signed = type == "Sig" && !session.isNull(session.key(field, "/V"))
            if signed {
                if kids.isEmpty { widgets.append(field) } else { widgets += kids }
            }
            queue += kids.map { ($0, type) }
        }
        guard !widgets.isEmpty else { return [] }
        let pageCount = Int(qpdf_get_num_pages(t))
        var pageOfObject: [Int32: Int] = [:]
        for page in 0..<pageCount { pageOfObject[session.objectID(qpdf_get_page_n(t, page))] = page }
        var pages: Set<Int> = []
        var listedOn: [Int32: Int]?
        for widget in widgets {
            if let page = pageOfObject[session.objectID(session.key(widget, "/P"))] {
                pages.insert(page)
                continue
            }
            if listedOn == nil {
                var map: [Int32: Int] = [:]
                for page in 0..<pageCount {
                    for annotation in session.arrayItems(session.key(qpdf_get_page_n(t, page), "/Annots")) {
                        map[session.objectID(annotation)] = page
                    }
                }
                listedOn = map
            }
            if let page = listedOn?[session.objectID(widget)] { pages.insert(page) }
        }
        return pages
    }
}
