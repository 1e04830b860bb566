import CQPDF
import Foundation
import RedlineCore

/// Redline's folder of bookmarks in the document outline (`OutlineFolder`), read and written. The folder is the
/// last top-level entry carrying `/RedlineBookmarks` (the ids it was written with); each of its entries Redline
/// wrote carries `/RedlineBookmark << /ID /Title /Page >>`, what it was written as. Other readers ignore both keys,
/// as PDF asks of keys they do not know; the document's own entries are never touched, moved or repeated.
enum OutlineFolderAccess {
    static let folderKey = "/RedlineBookmarks"
    static let entryKey = "/RedlineBookmark"
    /// Top-level entries and folder entries looked at: an outline of a million entries, or one whose /Next
    /// chain loops, is walked no further.
    static let largestWalk = 100_000

    static func read(in session: QPDFSession) -> OutlineFolder? {
        guard let folder = folderItem(in: session) else { return nil }
        let written = session.arrayItems(session.key(folder, folderKey)).prefix(largestWalk).compactMap(session.text).map { $0.uppercased() }
        var entries: [OutlineFolder.Entry] = []
        for item in chain(from: session.key(folder, "/First"), in: session) {
            let record = session.key(item, entryKey)
            let id = session.text(session.key(record, "/ID"))
            entries.append(OutlineFolder.Entry(bookmarkID: id, title: session.text(session.key(item, "/Title")) ?? "",
                                               pageIndex: page(of: item, in: session),
                                               writtenTitle: id == nil ? nil : session.text(session.key(record, "/Title")),
                                               writtenPage: id == nil ? nil : session.integer(session.key(record, "/Page"))))
        }
        return OutlineFolder(entries: entries, written: written)
    }

    /// Makes the outline hold `folder`: its entries replace the folder's, the folder is added after the document's
    /// own entries when there is none, and removed when `folder` has no entries. The objects changed are noted
    /// for an appended update (`QPDFSession.alsoChanged`).
    static func write(_ folder: OutlineFolder, in session: QPDFSession) throws {
        let t = session.data
        let root = qpdf_get_root(t)
        var outlines = session.key(root, "/Outlines")
        let existing = folderItem(in: session)
        if existing == nil && folder.entries.isEmpty { return }
        if !session.isDictionary(outlines) {
            outlines = try session.makeIndirect(qpdf_oh_parse(t, "<< /Type /Outlines >>"))
            qpdf_oh_replace_key(t, root, "/Outlines", outlines)
        }
        session.alsoChanged.append(outlines)
        let item = try existing ?? appendedFolder(to: outlines, in: session)
        session.alsoChanged.append(item)
        endLoop(after: item, in: outlines, session: session)
        let shownBefore = existing.map { max(0, session.integer(session.key($0, "/Count")) ?? 0) + 1 } ?? 0
        guard !folder.entries.isEmpty else {
            unlink(item, from: outlines, in: session)
            adjustCount(of: outlines, by: -shownBefore, in: session)
            try session.check()
            return
        }
        let pageCount = Int(qpdf_get_num_pages(t))
        var children: [qpdf_oh] = []
        for entry in folder.entries {
            guard let page = entry.pageIndex, page >= 0, page < pageCount else { continue }
            let child = try session.makeIndirect(qpdf_oh_new_dictionary(t))
            qpdf_oh_replace_key(t, child, "/Title", session.newText(entry.title))
            qpdf_oh_replace_key(t, child, "/Parent", item)
            let destination = qpdf_oh_new_array(t)
            qpdf_oh_append_item(t, destination, qpdf_get_page_n(t, page))
            qpdf_oh_append_item(t, destination, session.newName("Fit"))
            qpdf_oh_replace_key(t, child, "/Dest", destination)
            let record = qpdf_oh_new_dictionary(t)
            qpdf_oh_replace_key(t, record, "/ID", session.newText(entry.bookmarkID ?? ""))
            qpdf_oh_replace_key(t, record, "/Title", session.newText(entry.title))
            qpdf_oh_replace_key(t, record, "/Page", qpdf_oh_new_integer(t, Int64(page)))
            qpdf_oh_replace_key(t, child, entryKey, record)
            children.append(child)
        }
        for (index, child) in children.enumerated() {
            if index > 0 { qpdf_oh_replace_key(t, child, "/Prev", children[index - 1]) }
            if index + 1 < children.count { qpdf_oh_replace_key(t, child, "/Next", children[index + 1]) }
        }
        let written = qpdf_oh_new_array(t)
        for id in folder.written { qpdf_oh_append_item(t, written, session.newText(id)) }
        qpdf_oh_replace_key(t, item, folderKey, written)
        qpdf_oh_replace_key(t, item, "/Title", session.newText(OutlineFolder.title))
        if let first = children.first, let last = children.last {
            qpdf_oh_replace_key(t, item, "/First", first)
            qpdf_oh_replace_key(t, item, "/Last", last)
            // Chosen, the folder goes where its first bookmark does, rather than nowhere.
            qpdf_oh_replace_key(t, item, "/Dest", session.key(first, "/Dest"))
        }
        // A folder the reader closed stays closed (a negative count); an open one shows its entries.
        let closed = (session.integer(session.key(item, "/Count")) ?? 1) < 0
        qpdf_oh_replace_key(t, item, "/Count", qpdf_oh_new_integer(t, Int64(closed ? -children.count : children.count)))
        adjustCount(of: outlines, by: (closed ? 1 : children.count + 1) - (existing == nil ? 0 : shownBefore), in: session)
        try session.check()
    }

    /// The last top-level entry that is Redline's folder.
    private static func folderItem(in session: QPDFSession) -> qpdf_oh? {
        let outlines = session.key(qpdf_get_root(session.data), "/Outlines")
        return chain(from: session.key(outlines, "/First"), in: session).last { !session.isNull(session.key($0, folderKey)) }
    }

    /// Entries from `first` along /Next: each indirect dictionary once, at most `largestWalk`.
    private static func chain(from first: qpdf_oh, in session: QPDFSession) -> [qpdf_oh] {
        var items: [qpdf_oh] = []
        var seen: Set<Int32> = []
        var item = first
        while session.isDictionary(item), items.count < largestWalk {
            let id = session.objectID(item)
            guard id != 0, seen.insert(id).inserted else { break }
            items.append(item)
            item = session.key(item, "/Next")
        }
        return items
    }

    /// The page an entry's destination (/Dest, or a GoTo action's /D) leads to, when it names a page object.
    private static func page(of item: qpdf_oh, in session: QPDFSession) -> Int? {
        var destination = session.key(item, "/Dest")
        if session.isNull(destination) {
            let action = session.key(item, "/A")
            guard session.name(session.key(action, "/S")) == "GoTo" else { return nil }
            destination = session.key(action, "/D")
        }
        if session.isDictionary(destination) { destination = session.key(destination, "/D") }
        guard let target = session.arrayItems(destination).first else { return nil }
        if let number = session.integer(target) { return number >= 0 ? number : nil }
        let id = session.objectID(target)
        guard id != 0 else { return nil }
        let index = qpdf_find_page_by_id(session.data, id, Int32(qpdf_oh_get_generation(session.data, target)))
        return index >= 0 ? Int(index) : nil
    }

    private static func appendedFolder(to outlines: qpdf_oh, in session: QPDFSession) throws -> qpdf_oh {
        let t = session.data
        let item = try session.makeIndirect(qpdf_oh_new_dictionary(t))
        qpdf_oh_replace_key(t, item, "/Parent", outlines)
        let topLevel = chain(from: session.key(outlines, "/First"), in: session)
        if let last = topLevel.last {
            qpdf_oh_replace_key(t, last, "/Next", item)
            qpdf_oh_replace_key(t, item, "/Prev", last)
            session.alsoChanged.append(last)
        } else {
            qpdf_oh_replace_key(t, outlines, "/First", item)
        }
        qpdf_oh_replace_key(t, outlines, "/Last", item)
        return item
    }

    /// A folder whose /Next leads back to an entry before it makes the outline a loop readers stop at (mutool
    /// says "Cycle detected"): the folder is made the last entry it was meant to be.
    private static func endLoop(after item: qpdf_oh, in outlines: qpdf_oh, session: QPDFSession) {
        let next = session.key(item, "/Next")
        guard session.isDictionary(next) else { return }
        let before = chain(from: session.key(outlines, "/First"), in: session).prefix { session.objectID($0) != session.objectID(item) }
        guard before.contains(where: { session.objectID($0) == session.objectID(next) }) || session.objectID(next) == session.objectID(item) else { return }
        qpdf_oh_remove_key(session.data, item, "/Next")
        qpdf_oh_replace_key(session.data, outlines, "/Last", item)
    }

    private static func unlink(_ item: qpdf_oh, from outlines: qpdf_oh, in session: QPDFSession) {
        let t = session.data
        let previous = session.key(item, "/Prev"), next = session.key(item, "/Next")
        let hasPrevious = session.isDictionary(previous), hasNext = session.isDictionary(next)
        if hasPrevious {
            if hasNext { qpdf_oh_replace_key(t, previous, "/Next", next) } else { qpdf_oh_remove_key(t, previous, "/Next") }
            session.alsoChanged.append(previous)
        } else if hasNext {
            qpdf_oh_replace_key(t, outlines, "/First", next)
        } else {
            qpdf_oh_remove_key(t, outlines, "/First")
        }
        if hasNext {
            if hasPrevious { qpdf_oh_replace_key(t, next, "/Prev", previous) } else { qpdf_oh_remove_key(t, next, "/Prev") }
            session.alsoChanged.append(next)
        } else if hasPrevious {
            qpdf_oh_replace_key(t, outlines, "/Last", previous)
        } else {
            qpdf_oh_remove_key(t, outlines, "/Last")
        }
    }

    /// The outline's /Count is how many entries show when it opens; one it does not state is left unstated.
    private static func adjustCount(of outlines: qpdf_oh, by change: Int, in session: QPDFSession) {
        let t = session.data
        let count = session.key(outlines, "/Count")
        if session.isNull(count) {
            if session.isNull(session.key(outlines, "/First")) { return }
            // A new outline (or one without a count): its entries counted as they show.
            guard change > 0, session.isNull(session.key(session.key(outlines, "/First"), "/Next")) else { return }
            qpdf_oh_replace_key(t, outlines, "/Count", qpdf_oh_new_integer(t, Int64(change)))
            return
        }
        guard let now = session.integer(count) else { return }
        qpdf_oh_replace_key(t, outlines, "/Count", qpdf_oh_new_integer(t, Int64(max(0, now + change))))
    }
}
