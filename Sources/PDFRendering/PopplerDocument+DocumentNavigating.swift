import CPoppler
import CPopplerLoader
import RedlineCore

/// Links and the outline through poppler. Areas and destinations come in the page's displayed frame from its
/// lower left corner, y up (as text matches do); they are flipped here to display space, y down.
extension PopplerDocument: DocumentNavigating {
    public func links(onPage index: Int) -> [PageLink] {
        guard index >= 0, index < pageCount else { return [] }
        return withPage(index) { page in
            var width = 0.0, height = 0.0
            redline_poppler_page_get_size(page, &width, &height)
            guard let mappings = redline_poppler_page_get_link_mapping(page) else { return [] }
            defer { redline_poppler_page_free_link_mapping(mappings) }
            var links: [PageLink] = []
            var node: UnsafeMutablePointer<GList>? = mappings
            while let element = node, links.count < Self.largestLinkCount {
                node = element.pointee.next
                guard let mapping = element.pointee.data?.assumingMemoryBound(to: PopplerLinkMapping.self).pointee,
                      let action = mapping.action, let target = target(of: action) else { continue }
                let area = mapping.area
                let (left, right) = (min(area.x1, area.x2), max(area.x1, area.x2))
                let (bottom, top) = (min(area.y1, area.y2), max(area.y1, area.y2))
                guard [left, right, bottom, top].allSatisfy(\.isFinite) else { continue }
                links.append(PageLink(rect: Rect(x: left, y: height - top, width: right - left, height: top - bottom), target: target))
            }
            return links
        } ?? []
    }

    /// A page holds at most this many links: a hostile file's millions are cut here.
    static let largestLinkCount = 10_000

    public func outline() -> [OutlineEntry] {
        Self.access.lock()
        defer { Self.access.unlock() }
        guard let iterator = redline_poppler_index_iter_new(document) else { return [] }
        defer { redline_poppler_index_iter_free(iterator) }
        var count = 0
        return entries(iterator, depth: 0, count: &count)
    }

    private func entries(_ iterator: OpaquePointer, depth: Int, count: inout Int) -> [OutlineEntry] {
        var entries: [OutlineEntry] = []
        repeat {
            guard count < OutlineEntry.largestCount else { break }
            count += 1
            var entry = OutlineEntry(title: "", destination: nil, isOpen: redline_poppler_index_iter_is_open(iterator) != 0)
            if let action = redline_poppler_index_iter_get_action(iterator) {
                if let title = action.pointee.any.title { entry.title = String(cString: title) }
                if case .destination(let destination)? = target(of: action) { entry.destination = destination }
                redline_poppler_action_free(action)
            }
            if depth + 1 < OutlineEntry.largestDepth, let child = redline_poppler_index_iter_get_child(iterator) {
                entry.children = self.entries(child, depth: depth + 1, count: &count)
                redline_poppler_index_iter_free(child)
            }
            entries.append(entry)
        } while redline_poppler_index_iter_next(iterator) != 0
        return entries
    }

    private func target(of action: UnsafeMutablePointer<PopplerAction>) -> LinkTarget? {
        switch action.pointee.type {
        case POPPLER_ACTION_GOTO_DEST:
            return action.pointee.goto_dest.dest.flatMap(destination).map(LinkTarget.destination)
        case POPPLER_ACTION_URI:
            return action.pointee.uri.uri.map { .uri(String(cString: $0)) }
        case POPPLER_ACTION_NAMED:
            return action.pointee.named.named_dest.map { .named(String(cString: $0)) }
        case POPPLER_ACTION_GOTO_REMOTE:
            let file = action.pointee.goto_remote.file_name.map { String(cString: $0) } ?? "another file"
            return .unsupported("a place in \(file)")
        case POPPLER_ACTION_LAUNCH:
            let file = action.pointee.launch.file_name.map { String(cString: $0) } ?? "a program"
            return .unsupported("launching \(file)")
        default:
            return nil
        }
    }

    private func destination(_ given: UnsafeMutablePointer<PopplerDest>) -> Destination? {
        var dest = given
        var found: UnsafeMutablePointer<PopplerDest>?
        defer { if let found { redline_poppler_dest_free(found) } }
        if dest.pointee.type == POPPLER_DEST_NAMED {
            guard let name = dest.pointee.named_dest, let named = redline_poppler_document_find_dest(document, name) else { return nil }
            found = named
            dest = named
        }
        let page = Int(dest.pointee.page_num) - 1
        guard page >= 0, page < pageCount else { return nil }
        let height = displaySize(ofPage: page).height
        let value = dest.pointee
        func finite(_ number: Double) -> Double? { number.isFinite ? number : nil }
        switch value.type {
        case POPPLER_DEST_XYZ:
            return Destination(pageIndex: page, left: value.change_left != 0 ? finite(value.left) : nil,
                               top: value.change_top != 0 ? finite(height - value.top) : nil)
        case POPPLER_DEST_FITH, POPPLER_DEST_FITBH:
            return Destination(pageIndex: page, top: value.change_top != 0 ? finite(height - value.top) : nil)
        case POPPLER_DEST_FITV, POPPLER_DEST_FITBV:
            return Destination(pageIndex: page, left: value.change_left != 0 ? finite(value.left) : nil)
        case POPPLER_DEST_FITR:
            return Destination(pageIndex: page, left: finite(value.left), top: finite(height - max(value.top, value.bottom)))
        default:
            return Destination(pageIndex: page)
        }
    }
}
