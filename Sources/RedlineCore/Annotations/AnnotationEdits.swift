/// Changes to a document's annotations that are not saved yet: new replies and state changes, new
/// contents for existing replies, and deletions. A value, so undo keeps copies and a save writes it as is.
public struct AnnotationEdits: Sendable, Hashable, Codable {
    /// New annotations, in the order they were made: a parent always comes before what answers it.
    public internal(set) var added: [Annotation] = []
    /// New contents (and modification date) for annotations already in the file.
    public internal(set) var changedContents: [AnnotationID: ContentsChange] = [:]
    /// Annotations of the file to remove, with everything that answers them.
    public internal(set) var deleted: Set<AnnotationID> = []
    /// Annotations of the file moved on their page: by how much, in display points, and when. Their replies and
    /// popups go along; their appearance is moved, not drawn again.
    public internal(set) var moved: [AnnotationID: Move] = [:]
    /// Annotations of the file given a new look: a colour, a FreeText's font size. Their appearance is drawn anew.
    public internal(set) var restyled: [AnnotationID: Restyle] = [:]

    public struct ContentsChange: Sendable, Hashable, Codable {
        public var contents: String
        public var modified: PDFDate

        public init(contents: String, modified: PDFDate) {
            self.contents = contents
            self.modified = modified
        }
    }

    /// How far an annotation of the file moved, in display points (x right, y down), and when it last did.
    public struct Move: Sendable, Hashable, Codable {
        public var dx: Double
        public var dy: Double
        public var modified: PDFDate

        public init(dx: Double, dy: Double, modified: PDFDate) {
            self.dx = dx
            self.dy = dy
            self.modified = modified
        }
    }

    /// A new look for an annotation of the file, and when it was given: nil keeps what the file has.
    public struct Restyle: Sendable, Hashable, Codable {
        public var color: RGBColor?
        public var fontSize: Double?
        public var modified: PDFDate

        public init(color: RGBColor? = nil, fontSize: Double? = nil, modified: PDFDate) {
            self.color = color
            self.fontSize = fontSize
            self.modified = modified
        }

        /// `drawing` with this look: the one the list shows and the writer puts in /C and /DA.
        public func applied(to drawing: AnnotationDrawing) -> AnnotationDrawing {
            var restyled = drawing
            if let color { restyled.color = color }
            if let fontSize { restyled.fontSize = fontSize }
            return restyled
        }

        /// `annotation` with this look. A text box's rich text and text style would say the old colour and size:
        /// /Contents and /DA say it all now.
        public func applied(to annotation: Annotation) -> Annotation {
            var restyled = annotation
            restyled.drawing = applied(to: annotation.drawing)
            if annotation.subtype == .freeText {
                restyled.drawing.richText = nil
                restyled.drawing.defaultStyle = nil
            }
            return restyled
        }
    }

    public init() {}

    private enum CodingKeys: String, CodingKey { case added, changedContents, deleted, moved, restyled }

    /// Journals written before moves or new looks existed have no `moved` or `restyled`; a markup file written by
    /// hand gives only the kinds of change it makes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        added = try container.decodeIfPresent([Annotation].self, forKey: .added) ?? []
        changedContents = try container.decodeIfPresent([AnnotationID: ContentsChange].self, forKey: .changedContents) ?? [:]
        deleted = try container.decodeIfPresent(Set<AnnotationID>.self, forKey: .deleted) ?? []
        moved = try container.decodeIfPresent([AnnotationID: Move].self, forKey: .moved) ?? [:]
        restyled = try container.decodeIfPresent([AnnotationID: Restyle].self, forKey: .restyled) ?? [:]
    }

    /// Replies and state changes as Acrobat writes them: a yellow note with the Comment icon.
    static let noteDrawing = AnnotationDrawing(color: RGBColor(red: 255, green: 209, blue: 0), icon: "Comment")

    public var isEmpty: Bool { added.isEmpty && changedContents.isEmpty && deleted.isEmpty && moved.isEmpty && restyled.isEmpty }

    /// The document's annotations as they will be after saving.
    public func applied(to original: [Annotation]) -> [Annotation] {
        // Nothing of the file's changed (a session that only adds, or none): the file's list as it is, not copied
        // annotation by annotation.
        if changedContents.isEmpty && restyled.isEmpty && moved.isEmpty && deleted.isEmpty {
            guard !added.isEmpty else { return original }
            let nextOrder = (original.lazy.map(\.order).max() ?? -1) + 1
            return original + added.enumerated().map { index, annotation in
                var placed = annotation
                placed.order = nextOrder + index
                return placed
            }
        }
        let parents = Dictionary(original.compactMap { annotation in annotation.inReplyTo.map { (annotation.id, $0) } },
                                 uniquingKeysWith: { first, _ in first })
        var result = original.filter { !deleted.contains($0.id) }.map { annotation in
            var changed = annotation
            if let change = changedContents[annotation.id] {
                changed.contents = change.contents
                changed.modified = change.modified
                // Rich text would still say the old words, and readers show it before /Contents.
                changed.drawing.richText = nil
                if annotation.subtype == .freeText { changed.drawing.defaultStyle = nil }
            }
            if let restyle = restyled[annotation.id] {
                changed = restyle.applied(to: changed)
                if changedContents[annotation.id] == nil { changed.modified = restyle.modified }
            }
            if let move = move(of: annotation.id, parents: parents) {
                changed.rect = changed.rect.offsetBy(dx: move.dx, dy: move.dy)
                changed.drawing = changed.drawing.translated(dx: move.dx, dy: move.dy)
                if moved[annotation.id] != nil { changed.modified = move.modified }
            }
            return changed
        }
        let nextOrder = (original.map(\.order).max() ?? -1) + 1
        result += placedAdditions(amid: original).enumerated().map { index, annotation in
            var placed = annotation
            placed.order = nextOrder + index
            return placed
        }
        return result
    }

    /// The annotations added here as they now stand: moved and given a new look where the session did so (an
    /// annotation added here is moved and restyled as one of the file is), and each reply in a moved thread placed
    /// over its parent as the parent now stands: a reply is made over its parent and goes where its thread goes,
    /// whether it was written before the move or after it.
    public func placedAdditions(amid original: [Annotation]) -> [Annotation] {
        guard !moved.isEmpty || !restyled.isEmpty else { return added }
        let parents = Dictionary(original.compactMap { annotation in annotation.inReplyTo.map { (annotation.id, $0) } },
                                 uniquingKeysWith: { first, _ in first })
        var movedPlaces: [AnnotationID: Rect] = [:]
        if !moved.isEmpty {
            for annotation in original {
                if let move = move(of: annotation.id, parents: parents) {
                    movedPlaces[annotation.id] = annotation.rect.offsetBy(dx: move.dx, dy: move.dy)
                }
            }
        }
        return added.map { annotation in
            var placed = annotation
            if let restyle = restyled[annotation.id] {
                placed = restyle.applied(to: placed)
                placed.modified = restyle.modified
            }
            if let move = moved[annotation.id] {
                placed.rect = annotation.rect.offsetBy(dx: move.dx, dy: move.dy)
                placed.drawing = placed.drawing.translated(dx: move.dx, dy: move.dy)
                placed.modified = move.modified
                movedPlaces[annotation.id] = placed.rect
            } else if let parent = annotation.inReplyTo, let place = movedPlaces[parent] {
                placed.drawing = placed.drawing.translated(dx: place.minX - annotation.rect.minX, dy: place.minY - annotation.rect.minY)
                placed.rect = place
                movedPlaces[annotation.id] = place
            }
            return placed
        }
    }

    /// These edits with the moves and new looks of annotations added here made part of those annotations: what
    /// a writer finds the file's annotations by name with.
    public func foldingAdditions() -> AnnotationEdits {
        let addedIDs = Set(added.map(\.id))
        guard !addedIDs.isEmpty, moved.keys.contains(where: addedIDs.contains) || restyled.keys.contains(where: addedIDs.contains) else {
            return self
        }
        var folded = self
        folded.added = placedAdditions(amid: [])
        for id in addedIDs {
            folded.moved[id] = nil
            folded.restyled[id] = nil
        }
        return folded
    }

    /// The move an annotation takes part in: its own, or the one of what it answers (a reply sits where its
    /// thread's first annotation is, and goes where it goes).
    public func move(of id: AnnotationID, parents: [AnnotationID: AnnotationID]) -> Move? {
        var current = id
        var seen: Set<AnnotationID> = []
        while seen.insert(current).inserted {
            if let move = moved[current] { return move }
            guard let parent = parents[current] else { return nil }
            current = parent
        }
        return nil
    }

    /// What of these edits changes how page `pageIndex` looks: its annotations of the file moved or deleted.
    /// `hiding`: annotations drawn some other way (over the page), left out of it as if deleted.
    public func shownChanges(onPage pageIndex: Int, of original: [Annotation], hiding: Set<AnnotationID> = []) -> AnnotationEdits {
        var shown = AnnotationEdits()
        // Asked at every frame: with nothing changed (the usual case) the annotations are not gone through at all.
        guard !(deleted.isEmpty && moved.isEmpty && restyled.isEmpty && changedContents.isEmpty && hiding.isEmpty) else { return shown }
        // By index: a loop over the elements would copy each annotation.
        for index in original.indices where original[index].pageIndex == pageIndex {
            let id = original[index].id
            if hiding.contains(id) {
                shown.deleted.insert(id)
                continue
            }
            if deleted.contains(id) { shown.deleted.insert(id) }
            if let move = moved[id] { shown.moved[id] = move }
            if let restyle = restyled[id] { shown.restyled[id] = restyle }
            // A FreeText shows its words; a note's text is not on the page.
            if original[index].subtype == .freeText, let change = changedContents[id] { shown.changedContents[id] = change }
        }
        return shown
    }

    // MARK: Changes

    /// Moves an annotation of the file by (dx, dy) display points more; back where it was, it is no longer moved.
    public mutating func move(_ id: AnnotationID, dx: Double, dy: Double, at date: PDFDate) {
        let total = (moved[id].map { ($0.dx + dx, $0.dy + dy) }) ?? (dx, dy)
        moved[id] = abs(total.0) < 1e-9 && abs(total.1) < 1e-9 ? nil : Move(dx: total.0, dy: total.1, modified: date)
    }

    /// Gives an annotation of the file a new colour or font size (nil leaves that as it is); back to what the file
    /// has, it is no longer restyled.
    public mutating func restyle(_ id: AnnotationID, color: RGBColor?, fontSize: Double?, original: Annotation, at date: PDFDate) {
        var next = restyled[id] ?? Restyle(modified: date)
        if let color { next.color = color == original.drawing.color ? nil : color }
        if let fontSize { next.fontSize = fontSize == original.drawing.fontSize ? nil : fontSize }
        next.modified = date
        restyled[id] = next.color == nil && next.fontSize == nil ? nil : next
    }

    /// Adds an annotation made elsewhere (markup saved as annotations, an XFDF import).
    public mutating func add(_ annotation: Annotation) {
        added.append(annotation)
    }

    /// Adds a text reply to `parent`, on its page and over its area.
    @discardableResult
    public mutating func reply(to parent: Annotation, text: String, author: String, at date: PDFDate,
                               id: AnnotationID) -> Annotation {
        let reply = Annotation(id: id, pageIndex: parent.pageIndex, subtype: .text, rect: parent.rect, author: author,
                               created: date, modified: date, contents: text, inReplyTo: parent.id, replyType: .reply,
                               flags: Annotation.printFlag | Annotation.noZoomFlag | Annotation.noRotateFlag,
                               drawing: Self.noteDrawing)
        added.append(reply)
        return reply
    }

    /// Records `author`'s decision on `target`. As Acrobat does, a later change by the same author in the
    /// same model answers that author's previous state annotation, so the changes form a chain.
    @discardableResult
    public mutating func setState(_ state: AnnotationState, on target: Annotation, by author: String,
                                  in thread: AnnotationThread, at date: PDFDate, id: AnnotationID) -> Annotation {
        let previous = thread.latestChange(on: target.id, model: state.model, by: author)
        let change = Annotation(id: id, pageIndex: target.pageIndex, subtype: .text, rect: target.rect, author: author,
                                created: date, modified: date, contents: "\(state.value) set by \(author)",
                                inReplyTo: previous?.id ?? target.id, replyType: .reply, state: state,
                                flags: Annotation.printFlag | Annotation.noViewFlag | Annotation.noZoomFlag | Annotation.noRotateFlag,
                                drawing: Self.noteDrawing)
        added.append(change)
        return change
    }

    /// Replaces the contents of an annotation, new or from the file.
    public mutating func changeContents(of id: AnnotationID, to text: String, at date: PDFDate) {
        if let index = added.firstIndex(where: { $0.id == id }) {
            added[index].contents = text
            added[index].modified = date
        } else {
            changedContents[id] = ContentsChange(contents: text, modified: date)
        }
    }

    /// Deletes an annotation and everything that answers it, directly or through other replies.
    /// Returns what was deleted.
    @discardableResult
    public mutating func delete(_ id: AnnotationID, in current: [Annotation]) -> Set<AnnotationID> {
        var answers: [AnnotationID: [AnnotationID]] = [:]
        for annotation in current {
            if let parent = annotation.inReplyTo { answers[parent, default: []].append(annotation.id) }
        }
        var doomed: Set<AnnotationID> = [id]
        var waiting = [id]
        while let next = waiting.popLast() {
            for answer in answers[next] ?? [] where doomed.insert(answer).inserted {
                waiting.append(answer)
            }
        }
        let addedIDs = Set(added.map(\.id))
        added.removeAll { doomed.contains($0.id) }
        for gone in doomed {
            if !addedIDs.contains(gone) {
                deleted.insert(gone)
                changedContents[gone] = nil
            }
            moved[gone] = nil
            restyled[gone] = nil
        }
        return doomed
    }
}

extension AnnotationEdits {
    /// True when every change names an annotation among `known` or one added here, on an existing page:
    /// edits journaled against another version of the file are not applied to this one.
    /// These edits with the changes (moves, new looks, words, deletions) of annotations outside `allowed` left out;
    /// what was added stays.
    public func keepingChanges(of allowed: Set<AnnotationID>) -> AnnotationEdits {
        var kept = self
        kept.changedContents = changedContents.filter { allowed.contains($0.key) }
        kept.deleted = deleted.intersection(allowed)
        kept.moved = moved.filter { allowed.contains($0.key) }
        kept.restyled = restyled.filter { allowed.contains($0.key) }
        return kept
    }

    public func refersOnly(to known: Set<AnnotationID>, pageCount: Int) -> Bool {
        let available = known.union(added.map(\.id))
        return deleted.isSubset(of: known) && Set(changedContents.keys).isSubset(of: known) && Set(moved.keys).isSubset(of: available)
            && Set(restyled.keys).isSubset(of: available)
            && added.allSatisfy { ($0.inReplyTo.map(available.contains) ?? true) && (0..<pageCount).contains($0.pageIndex) }
    }
}
