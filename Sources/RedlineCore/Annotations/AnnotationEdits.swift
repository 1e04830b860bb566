/// Changes to a document's annotations that are not saved yet: new replies and state changes, new
/// contents for existing replies, and deletions. A value, so undo keeps copies and a save writes it as is.
public struct AnnotationEdits: Sendable, Hashable, Codable {
    /// New annotations, in the order they were made: a parent always comes before what answers it.
    public internal(set) var added: [Annotation] = []
    /// New contents (and modification date) for annotations already in the file.
    public internal(set) var changedContents: [AnnotationID: ContentsChange] = [:]
    /// Annotations of the file to remove, with everything that answers them.
    public internal(set) var deleted: Set<AnnotationID> = []

    public struct ContentsChange: Sendable, Hashable, Codable {
        public var contents: String
        public var modified: PDFDate

        public init(contents: String, modified: PDFDate) {
            self.contents = contents
            self.modified = modified
        }
    }

    public init() {}

    /// Replies and state changes as Acrobat writes them: a yellow note with the Comment icon.
    static let noteDrawing = AnnotationDrawing(color: RGBColor(red: 255, green: 209, blue: 0), icon: "Comment")

    public var isEmpty: Bool { added.isEmpty && changedContents.isEmpty && deleted.isEmpty }

    /// The document's annotations as they will be after saving.
    public func applied(to original: [Annotation]) -> [Annotation] {
        var result = original.filter { !deleted.contains($0.id) }.map { annotation in
            guard let change = changedContents[annotation.id] else { return annotation }
            var changed = annotation
            changed.contents = change.contents
            changed.modified = change.modified
            return changed
        }
        let nextOrder = (original.map(\.order).max() ?? -1) + 1
        result += added.enumerated().map { index, annotation in
            var placed = annotation
            placed.order = nextOrder + index
            return placed
        }
        return result
    }

    // MARK: Changes

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
        for gone in doomed where !addedIDs.contains(gone) {
            deleted.insert(gone)
            changedContents[gone] = nil
        }
        return doomed
    }
}

extension AnnotationEdits {
    /// True when every change names an annotation among `known` or one added here, on an existing page:
    /// edits journaled against another version of the file are not applied to this one.
    public func refersOnly(to known: Set<AnnotationID>, pageCount: Int) -> Bool {
        let available = known.union(added.map(\.id))
        return deleted.isSubset(of: known) && Set(changedContents.keys).isSubset(of: known)
            && added.allSatisfy { ($0.inReplyTo.map(available.contains) ?? true) && (0..<pageCount).contains($0.pageIndex) }
    }
}
