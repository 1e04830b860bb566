import CQPDF
import Foundation
import RedlineCore

/// Redline's folder of bookmarks in the document outline (`OutlineFolder`), read and written. The folder is the last
/// entry carrying `/RedlineBookmarks` (the ids it was written with) whose entries include one of Redline's, or none
/// at all; each entry Redline wrote carries `/RedlineBookmark << /ID /Title /Page >>`, what it was written as. Other
/// readers ignore both keys, as PDF asks of keys they do not know; the document's own entries are never touched,
/// moved or repeated. A program that rewrites the outline drops the keys: the last top-level "Bookmarks" entry is
/// then offered as the folder (`OutlineFolder.adopted`), Redline's when its entries are the bookmarks.
enum OutlineFolderAccess {
    static let folderKey = "/RedlineBookmarks"
    static let entryKey = "/RedlineBookmark"
    /// Entries looked at in all: an outline of a million entries, or one whose links loop, is walked no further.
    static let largestWalk = 100_000

    static func read(in session: QPDFSession) -> OutlineFolder? {
        let outlines = session.key(qpdf_get_root(session.data), "/Outlines")
        var budget = largestWalk
        let everything = tree(from: session.key(outlines, "/First"), in: session, budget: &budget)
        let keyed = everything.last { item in
            guard !session.isNull(session.key(item, folderKey)) else { return false }
            var budget = largestWalk
            let children = chain(from: session.key(item, "/First"), in: session, budget: &budget)
            return children.isEmpty || children.contains { !session.isNull(session.key($0, entryKey)) }
        }
        var topBudget = largestWalk
        let adopted = keyed == nil ? chain(from: session.key(outlines, "/First"), in: session, budget: &topBudget).last {
            session.text(session.key($0, "/Title")) == OutlineFolder.title
        } : nil
        guard let folder = keyed ?? adopted else { return nil }
        let written = session.arrayItems(session.key(folder, folderKey)).prefix(largestWalk).compactMap(session.text).map { $0.uppercased() }
        var entries: [OutlineFolder.Entry] = []
        var childBudget = largestWalk
        let destinations = NamedDestinations(session: session)
        for item in chain(from: session.key(folder, "/First"), in: session, budget: &childBudget) {
            let record = session.key(item, entryKey)
            let id = session.text(session.key(record, "/ID"))
            entries.append(OutlineFolder.Entry(bookmarkID: id, title: session.text(session.key(item, "/Title")) ?? "",
                                               pageIndex: page(of: item, in: session, destinations: destinations),
                                               writtenTitle: id == nil ? nil : session.text(session.key(record, "/Title")),
                                               writtenPage: id == nil ? nil : session.integer(session.key(record, "/Page")),
                                               object: handle(of: item, in: session)))
        }
        return OutlineFolder(entries: entries, written: written, object: handle(of: folder, in: session), adopted: keyed == nil)
    }

    /// Makes the outline hold `folder`: its entries (those it had changed in place, new ones made) in its order, the
    /// folder added after the document's own top-level entries when it has none, and removed when `folder` has no
    /// entries. The objects changed are noted for an appended update (`QPDFSession.alsoChanged`).
    static func write(_ folder: OutlineFolder, in session: QPDFSession) throws {
        let t = session.data
        let root = qpdf_get_root(t)
        var outlines = session.key(root, "/Outlines")
        let pageCount = Int(qpdf_get_num_pages(t))
        let existing = folder.object.flatMap { object(at: $0, in: session) }
        let wanted = folder.entries.filter { entry in entry.pageIndex.map { $0 >= 0 && $0 < pageCount } ?? (entry.object != nil) }
        if existing == nil && wanted.isEmpty { return }
        if !session.isDictionary(outlines) {
            outlines = try session.makeIndirect(qpdf_oh_parse(t, "<< /Type /Outlines >>"))
            qpdf_oh_replace_key(t, root, "/Outlines", outlines)
        }
        session.alsoChanged.append(outlines)
        let item = try existing ?? appendedFolder(to: outlines, in: session)
        session.alsoChanged.append(item)
        let parent = existing.map { session.key($0, "/Parent") }.flatMap { session.isDictionary($0) ? $0 : nil } ?? outlines
        endLoop(after: item, in: parent, session: session)
        let shownBefore = existing.map { 1 + max(0, session.integer(session.key($0, "/Count")) ?? 0) } ?? 0
        guard !wanted.isEmpty else {
            unlink(item, from: parent, in: session)
            adjustCounts(from: parent, by: -shownBefore, in: session)
            try session.check()
            return
        }
        var children: [qpdf_oh] = []
        for entry in wanted {
            let reused = entry.object.flatMap { object(at: $0, in: session) }
            let child = try reused ?? session.makeIndirect(qpdf_oh_new_dictionary(t))
            qpdf_oh_replace_key(t, child, "/Parent", item)
            qpdf_oh_remove_key(t, child, "/Prev")
            qpdf_oh_remove_key(t, child, "/Next")
            if let page = entry.pageIndex {
                qpdf_oh_replace_key(t, child, "/Title", session.newText(shown(entry.title)))
                // A destination that already leads to the page (a GoTo action, a named one) stays as the program
                // that made it wrote it.
                if reused == nil || Self.page(of: child, in: session, destinations: NamedDestinations(session: session)) != page {
                    let destination = qpdf_oh_new_array(t)
                    qpdf_oh_append_item(t, destination, qpdf_get_page_n(t, page))
                    qpdf_oh_append_item(t, destination, session.newName("Fit"))
                    qpdf_oh_replace_key(t, child, "/Dest", destination)
                    qpdf_oh_remove_key(t, child, "/A")
                }
                let record = qpdf_oh_new_dictionary(t)
                qpdf_oh_replace_key(t, record, "/ID", session.newText(entry.bookmarkID ?? ""))
                qpdf_oh_replace_key(t, record, "/Title", session.newText(shown(entry.title)))
                qpdf_oh_replace_key(t, record, "/Page", qpdf_oh_new_integer(t, Int64(page)))
                qpdf_oh_replace_key(t, child, entryKey, record)
            }
            children.append(child)
            if reused != nil { session.alsoChanged.append(child) }
        }
        for (index, child) in children.enumerated() {
            if index > 0 { qpdf_oh_replace_key(t, child, "/Prev", children[index - 1]) }
            if index + 1 < children.count { qpdf_oh_replace_key(t, child, "/Next", children[index + 1]) }
        }
        let written = qpdf_oh_new_array(t)
        for id in folder.written { qpdf_oh_append_item(t, written, session.newText(id)) }
        qpdf_oh_replace_key(t, item, folderKey, written)
        // A folder renamed in another program keeps its name.
        if existing == nil { qpdf_oh_replace_key(t, item, "/Title", session.newText(OutlineFolder.title)) }
        qpdf_oh_replace_key(t, item, "/First", children[0])
        qpdf_oh_replace_key(t, item, "/Last", children[children.count - 1])
        // Chosen, the folder goes where its first bookmark does, rather than nowhere.
        if let first = children.first(where: { !session.isNull(session.key($0, entryKey)) }) {
            qpdf_oh_replace_key(t, item, "/Dest", session.key(first, "/Dest"))
            qpdf_oh_remove_key(t, item, "/A")
        }
        // A folder the reader closed stays closed (a negative count); an open one shows its entries, and theirs.
        let closed = (session.integer(session.key(item, "/Count")) ?? 1) < 0
        let shown = children.count + children.reduce(0) { $0 + max(0, session.integer(session.key($1, "/Count")) ?? 0) }
        qpdf_oh_replace_key(t, item, "/Count", qpdf_oh_new_integer(t, Int64(closed ? -shown : shown)))
        adjustCounts(from: parent, by: (closed ? 1 : shown + 1) - shownBefore, in: session)
        try session.check()
    }

    /// An entry's object as `OutlineFolder` keeps it: its number and generation in one value.
    private static func handle(of item: qpdf_oh, in session: QPDFSession) -> Int {
        Int(session.objectID(item)) << 16 | Int(qpdf_oh_get_generation(session.data, item) & 0xFFFF)
    }

    /// The dictionary `handle` names, if the file has it.
    private static func object(at handle: Int, in session: QPDFSession) -> qpdf_oh? {
        let number = handle >> 16, generation = handle & 0xFFFF
        guard number > 0, number <= Int(Int32.max) else { return nil }
        let object = qpdf_get_object_by_id(session.data, Int32(number), Int32(generation))
        return session.isDictionary(object) ? object : nil
    }

    /// A title as readers can show it: control characters (a NUL ends it in mutool) as spaces.
    private static func shown(_ title: String) -> String {
        String(String.UnicodeScalarView(title.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }

    /// Every entry of the outline from `first`, each before its own entries, within `budget`.
    private static func tree(from first: qpdf_oh, in session: QPDFSession, budget: inout Int) -> [qpdf_oh] {
        var items: [qpdf_oh] = []
        var seen: Set<Int32> = []
        var pending = [first]
        while let next = pending.popLast() {
            let level = chain(from: next, in: session, budget: &budget).filter { seen.insert(session.objectID($0)).inserted }
            for item in level {
                items.append(item)
            }
            // Children after their siblings here; the order among folders is what matters, and the last found wins.
            pending += level.reversed().map { session.key($0, "/First") }.filter(session.isDictionary)
        }
        return items
    }

    /// Entries from `first` along /Next: each indirect dictionary once, within `budget`.
    private static func chain(from first: qpdf_oh, in session: QPDFSession, budget: inout Int) -> [qpdf_oh] {
        var items: [qpdf_oh] = []
        var seen: Set<Int32> = []
        var item = first
        while session.isDictionary(item), budget > 0 {
            let id = session.objectID(item)
            guard id != 0, seen.insert(id).inserted else { break }
            items.append(item)
            budget -= 1
            item = session.key(item, "/Next")
        }
        return items
    }

    /// The page an entry's destination (/Dest, or a GoTo action's /D; explicit or named) leads to.
    private static func page(of item: qpdf_oh, in session: QPDFSession, destinations: NamedDestinations) -> Int? {
        var destination = session.key(item, "/Dest")
        if session.isNull(destination) {
            let action = session.key(item, "/A")
            guard session.name(session.key(action, "/S")) == "GoTo" else { return nil }
            destination = session.key(action, "/D")
        }
        if let name = session.text(destination) ?? session.name(destination) { destination = destinations.lookUp(name) }
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
        var budget = largestWalk
        let topLevel = chain(from: session.key(outlines, "/First"), in: session, budget: &budget)
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
    private static func endLoop(after item: qpdf_oh, in parent: qpdf_oh, session: QPDFSession) {
        let next = session.key(item, "/Next")
        guard session.isDictionary(next) else { return }
        var budget = largestWalk
        let before = chain(from: session.key(parent, "/First"), in: session, budget: &budget).prefix { session.objectID($0) != session.objectID(item) }
        guard before.contains(where: { session.objectID($0) == session.objectID(next) }) || session.objectID(next) == session.objectID(item) else { return }
        qpdf_oh_remove_key(session.data, item, "/Next")
        qpdf_oh_replace_key(session.data, parent, "/Last", item)
    }

    private static func unlink(_ item: qpdf_oh, from parent: qpdf_oh, in session: QPDFSession) {
        let t = session.data
        let previous = session.key(item, "/Prev"), next = session.key(item, "/Next")
        let hasPrevious = session.isDictionary(previous), hasNext = session.isDictionary(next)
        if hasPrevious {
            if hasNext { qpdf_oh_replace_key(t, previous, "/Next", next) } else { qpdf_oh_remove_key(t, previous, "/Next") }
            session.alsoChanged.append(previous)
        } else if hasNext {
            qpdf_oh_replace_key(t, parent, "/First", next)
        } else {
            qpdf_oh_remove_key(t, parent, "/First")
        }
        if hasNext {
            if hasPrevious { qpdf_oh_replace_key(t, next, "/Prev", previous) } else { qpdf_oh_remove_key(t, next, "/Prev") }
            session.alsoChanged.append(next)
        } else if hasPrevious {
            qpdf_oh_replace_key(t, parent, "/Last", previous)
        } else {
            qpdf_oh_remove_key(t, parent, "/Last")
        }
        session.alsoChanged.append(parent)
    }

    /// /Count is how many entries show below an entry (the outline: when it opens); a closed entry's is negative and
    /// counts what would show. A change in the folder changes its ancestors' counts up to the first closed one. An
    /// outline that states no count is left unstated, but for one just made to hold the folder.
    private static func adjustCounts(from start: qpdf_oh, by change: Int, in session: QPDFSession) {
        let t = session.data
        var entry = start
        var seen: Set<Int32> = []
        while session.isDictionary(entry), seen.insert(session.objectID(entry)).inserted, seen.count < 1_000 {
            session.alsoChanged.append(entry)
            let count = session.key(entry, "/Count")
            let isOutlines = session.isNull(session.key(entry, "/Parent"))
            if session.isNull(count) {
                guard isOutlines, change > 0, session.isNull(session.key(session.key(entry, "/First"), "/Next")) else { return }
                qpdf_oh_replace_key(t, entry, "/Count", qpdf_oh_new_integer(t, Int64(change)))
                return
            }
            guard let now = session.integer(count) else { return }
            if now < 0 && !isOutlines {
                qpdf_oh_replace_key(t, entry, "/Count", qpdf_oh_new_integer(t, Int64(min(-1, now - change))))
                return
            }
            qpdf_oh_replace_key(t, entry, "/Count", qpdf_oh_new_integer(t, Int64(max(0, now + change))))
            entry = session.key(entry, "/Parent")
        }
    }
}

/// The document's named destinations (the catalog's /Dests, and the /Dests name tree under /Names), looked up by
/// name within a budget: a name tree can be deep or loop.
struct NamedDestinations {
    let session: QPDFSession

    func lookUp(_ name: String) -> qpdf_oh {
        let t = session.data
        let root = qpdf_get_root(t)
        let old = session.key(session.key(root, "/Dests"), "/" + name)
        if !session.isNull(old) { return old }
        var node = session.key(session.key(root, "/Names"), "/Dests")
        var seen: Set<Int32> = []
        for _ in 0..<64 {
            guard session.isDictionary(node) else { break }
            let id = session.objectID(node)
            if id != 0 { guard seen.insert(id).inserted else { break } }
            let names = session.arrayItems(session.key(node, "/Names"))
            if !names.isEmpty {
                var index = 0
                while index + 1 < names.count {
                    if session.text(names[index]) == name { return names[index + 1] }
                    index += 2
                }
                break
            }
            // The kid whose /Limits hold the name (keys sort as bytes; Swift's order of these strings agrees for ASCII).
            let kid = session.arrayItems(session.key(node, "/Kids")).first { kid in
                let limits = session.arrayItems(session.key(kid, "/Limits")).compactMap(session.text)
                return limits.count == 2 && limits[0] <= name && name <= limits[1]
            }
            guard let kid else { break }
            node = kid
        }
        return qpdf_oh_new_null(t)
    }
}
