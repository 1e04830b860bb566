/// Applying operations to edits, and finding the operation between two versions of the edits. Pure: the same
/// edits and the same operation give the same result everywhere.
extension DocumentEdits {
    /// Applies every change in order. Bookmarks changed back to what the document's providers hold
    /// (`bookmarkBase`) count as unchanged again.
    public mutating func apply(_ operation: DocumentOperation, bookmarkBase: BookmarkList) {
        for change in operation.changes { apply(change, bookmarkBase: bookmarkBase) }
    }

    public mutating func apply(_ change: DocumentChange, bookmarkBase: BookmarkList) {
        switch change {
        case .insertMarkup(let item, let index): markup.insert(item, at: index)
        case .removeMarkup(let item, _): markup.remove(item.id)
        case .replaceMarkup(_, let after): markup.add(after)
        case .insertAnnotation(let annotation, let index): annotations.insertAdded(annotation, at: index)
        case .removeAnnotation(let annotation, _): annotations.added.removeAll { $0.id == annotation.id }
        case .replaceAnnotation(_, let after): annotations.insertAdded(after, at: annotations.added.count)
        case .changeContents(let id, _, let after): annotations.changedContents[id] = after
        case .deleteAnnotation(let id, let deleted):
            if deleted { annotations.deleted.insert(id) } else { annotations.deleted.remove(id) }
        case .moveAnnotation(let id, _, let after): annotations.moved[id] = after
        case .restyleAnnotation(let id, _, let after): annotations.restyled[id] = after
        case .putBookmark(let before, let after):
            var list = bookmarks ?? bookmarkBase
            if let before, after?.id != before.id { list.remove(before.id) }
            if let after { list.store(after) }
            bookmarks = list == bookmarkBase ? nil : list
        }
    }

    /// True when everything the change expects to find is there: the state it was made on, as far as it
    /// touches it. Undo checks this, so undoing never overwrites what someone else changed since.
    public func fits(_ change: DocumentChange, bookmarkBase: BookmarkList) -> Bool {
        switch change {
        case .insertMarkup(let item, _): markup.item(item.id) == nil
        case .removeMarkup(let item, _): markup.item(item.id) == item
        case .replaceMarkup(let before, _): markup.item(before.id) == before
        case .insertAnnotation(let annotation, _): !annotations.added.contains { $0.id == annotation.id }
        case .removeAnnotation(let annotation, _): annotations.added.first { $0.id == annotation.id } == annotation
        case .replaceAnnotation(let before, _): annotations.added.first { $0.id == before.id } == before
        case .changeContents(let id, let before, _): annotations.changedContents[id] == before
        case .deleteAnnotation(let id, let deleted): annotations.deleted.contains(id) != deleted
        case .moveAnnotation(let id, let before, _): annotations.moved[id] == before
        case .restyleAnnotation(let id, let before, _): annotations.restyled[id] == before
        case .putBookmark(let before, let after):
            (bookmarks ?? bookmarkBase).bookmark((before ?? after)?.id ?? "") == before
        }
    }

    /// Each change checked against the edits as the changes before it leave them (a moved markup is removed
    /// and inserted again in one operation).
    public func fits(_ operation: DocumentOperation, bookmarkBase: BookmarkList) -> Bool {
        var trial = self
        for change in operation.changes {
            guard trial.fits(change, bookmarkBase: bookmarkBase) else { return false }
            trial.apply(change, bookmarkBase: bookmarkBase)
        }
        return true
    }

    /// The changes that turn `self` into `other`: removals (last first), then insertions (first first), then
    /// replacements, so the positions each records are right when applied in order and when inverted.
    public func changes(to other: DocumentEdits, bookmarkBase: BookmarkList) -> [DocumentChange] {
        var changes: [DocumentChange] = []
        changes += Self.listChanges(markup.items, other.markup.items, id: \.id,
                                    insert: { .insertMarkup(item: $0, index: $1) },
                                    remove: { .removeMarkup(item: $0, index: $1) },
                                    replace: { .replaceMarkup(before: $0, after: $1) })
        changes += Self.listChanges(annotations.added, other.annotations.added, id: \.id,
                                    insert: { .insertAnnotation(annotation: $0, index: $1) },
                                    remove: { .removeAnnotation(annotation: $0, index: $1) },
                                    replace: { .replaceAnnotation(before: $0, after: $1) })
        let contentIDs = Set(annotations.changedContents.keys).union(other.annotations.changedContents.keys)
        for id in contentIDs.sorted() where annotations.changedContents[id] != other.annotations.changedContents[id] {
            changes.append(.changeContents(id: id, before: annotations.changedContents[id], after: other.annotations.changedContents[id]))
        }
        let movedIDs = Set(annotations.moved.keys).union(other.annotations.moved.keys)
        for id in movedIDs.sorted() where annotations.moved[id] != other.annotations.moved[id] {
            changes.append(.moveAnnotation(id: id, before: annotations.moved[id], after: other.annotations.moved[id]))
        }
        let restyledIDs = Set(annotations.restyled.keys).union(other.annotations.restyled.keys)
        for id in restyledIDs.sorted() where annotations.restyled[id] != other.annotations.restyled[id] {
            changes.append(.restyleAnnotation(id: id, before: annotations.restyled[id], after: other.annotations.restyled[id]))
        }
        for id in annotations.deleted.symmetricDifference(other.annotations.deleted).sorted() {
            changes.append(.deleteAnnotation(id: id, deleted: other.annotations.deleted.contains(id)))
        }
        let before = bookmarks ?? bookmarkBase, after = other.bookmarks ?? bookmarkBase
        let bookmarkIDs = Set(before.bookmarks.map(\.id)).union(after.bookmarks.map(\.id))
        for id in bookmarkIDs.sorted() where before.bookmark(id) != after.bookmark(id) {
            changes.append(.putBookmark(before: before.bookmark(id), after: after.bookmark(id)))
        }
        return changes
    }

    /// Elements only in `old` are removed, elements only in `new` inserted, and elements in both replaced
    /// where they differ. Common elements whose order changed (a collaborator's list, not this editor's,
    /// which only appends) are removed and inserted again, all but the longest run already in order.
    private static func listChanges<Element: Equatable, ID: Hashable>(
        _ old: [Element], _ new: [Element], id: KeyPath<Element, ID>,
        insert: (Element, Int) -> DocumentChange, remove: (Element, Int) -> DocumentChange,
        replace: (Element, Element) -> DocumentChange
    ) -> [DocumentChange] {
        guard old != new else { return [] }
        let oldIndex = Dictionary(old.enumerated().map { ($1[keyPath: id], $0) }, uniquingKeysWith: { first, _ in first })
        let newIDs = Set(new.map { $0[keyPath: id] })
        // Positions in `old` of the common elements, in the order `new` has them; those on the longest
        // increasing run stay where they are.
        let commonInNewOrder = new.compactMap { oldIndex[$0[keyPath: id]] }
        let staying = Set(longestIncreasingRun(commonInNewOrder))
        var changes: [DocumentChange] = []
        for (index, element) in old.enumerated().reversed() where !newIDs.contains(element[keyPath: id]) || !staying.contains(index) {
            changes.append(remove(element, index))
        }
        var replacements: [DocumentChange] = []
        for (index, element) in new.enumerated() {
            if let previous = oldIndex[element[keyPath: id]], staying.contains(previous) {
                if old[previous] != element { replacements.append(replace(old[previous], element)) }
            } else {
                changes.append(insert(element, index))
            }
        }
        return changes + replacements
    }

    /// The values of one longest strictly increasing subsequence (patience sorting, O(n log n)).
    private static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        var tails: [Int] = []          // index into `values` of the smallest tail of each run length
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var run: [Int] = []
        var position = tails.last ?? -1
        while position >= 0 {
            run.append(values[position])
            position = previous[position]
        }
        return run.reversed()
    }
}

extension AnnotationEdits {
    /// Puts a session-made annotation at `index` (clamped), or in place of the one with its id.
    mutating func insertAdded(_ annotation: Annotation, at index: Int) {
        if let existing = added.firstIndex(where: { $0.id == annotation.id }) {
            added[existing] = annotation
        } else {
            added.insert(annotation, at: min(max(0, index), added.count))
        }
    }
}

extension BookmarkList {
    /// Puts a bookmark with the sort key it carries (an operation's, not a new one at the end).
    mutating func store(_ bookmark: Bookmark) {
        bookmarks.removeAll { $0.id == bookmark.id }
        bookmarks.append(bookmark)
        bookmarks.sort { ($0.sortKey, $0.id) < ($1.sortKey, $1.id) }
    }
}
