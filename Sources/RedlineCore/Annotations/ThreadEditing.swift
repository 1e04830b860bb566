/// Replying, reviewing, editing and deleting, with the checks a reviewer expects, the same for the editor
/// and the command line. Each works on the document's annotations as they currently stand (the file's,
/// with the unsaved edits applied) and adds to the edits.
public struct ThreadEditing: Sendable {
    /// Who is reviewing: written into /T.
    public var author: String
    /// The document, for messages.
    public var path: String
    /// False when the document's permissions forbid changing annotations.
    public var allowsChanges: Bool

    public init(author: String, path: String, allowsChanges: Bool = true) {
        self.author = author
        self.path = path
        self.allowsChanges = allowsChanges
    }

    /// A new annotation's stamp: when it is made and its /NM.
    public struct Stamp: Sendable, Equatable {
        public var date: PDFDate
        public var id: AnnotationID

        public init(date: PDFDate, id: AnnotationID) {
            self.date = date
            self.id = id
        }
    }

    @discardableResult
    public func reply(to id: AnnotationID, text: String, current: [Annotation], edits: inout AnnotationEdits,
                      stamp: Stamp) throws -> Annotation {
        let parent = try answerable(id, in: current)
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw AnnotationEditError.emptyText }
        return edits.reply(to: parent, text: trimmed, author: author, at: stamp.date, id: stamp.id)
    }

    @discardableResult
    public func setState(_ state: AnnotationState, on id: AnnotationID, current: [Annotation],
                         edits: inout AnnotationEdits, stamp: Stamp) throws -> Annotation {
        try setState(state, on: id, current: current, thread: Self.thread(containing: id, in: current), edits: &edits, stamp: stamp)
    }

    private func setState(_ state: AnnotationState, on id: AnnotationID, current: [Annotation], thread: AnnotationThread?,
                          edits: inout AnnotationEdits, stamp: Stamp) throws -> Annotation {
        let target = try answerable(id, in: current)
        return edits.setState(state, on: target, by: author,
                              in: thread ?? AnnotationThread(root: target, replies: [], stateChanges: [:]),
                              at: stamp.date, id: stamp.id)
    }

    private static func thread(containing id: AnnotationID, in current: [Annotation]) -> AnnotationThread? {
        AnnotationThreads.build(current).first { $0.members.contains { $0.id == id } }
    }

    /// Marked when the author has not marked it (or last unmarked it), else Unmarked.
    @discardableResult
    public func toggleMarked(_ id: AnnotationID, current: [Annotation], edits: inout AnnotationEdits,
                             stamp: Stamp) throws -> Annotation {
        // One grouping serves both the toggle and the chaining.
        let thread = Self.thread(containing: id, in: current)
        let mine = thread?.latestChange(on: id, model: AnnotationState.markedModel, by: author)
        let next: AnnotationState = mine?.state == .marked ? .unmarked : .marked
        return try setState(next, on: id, current: current, thread: thread, edits: &edits, stamp: stamp)
    }

    /// New text for one of the author's own replies.
    public func editReply(_ id: AnnotationID, text: String, current: [Annotation], edits: inout AnnotationEdits,
                          date: PDFDate) throws {
        let reply = try ownReply(id, in: current)
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw AnnotationEditError.emptyText }
        edits.changeContents(of: reply.id, to: trimmed, at: date)
    }

    /// Deletes an annotation with everything that answers it. Replies and state changes may be deleted only
    /// by their author; a top-level annotation by anyone, as in other readers.
    @discardableResult
    public func delete(_ id: AnnotationID, current: [Annotation], edits: inout AnnotationEdits) throws -> Set<AnnotationID> {
        guard let annotation = current.first(where: { $0.id == id }) else {
            throw AnnotationEditError.unknownAnnotation(id, path: path)
        }
        if annotation.isReply { _ = try ownReply(id, in: current) }
        guard allowsChanges else { throw AnnotationEditError.notPermitted(path: path) }
        guard !annotation.isReadOnly else { throw AnnotationEditError.readOnly(id) }
        guard !annotation.isLocked else { throw AnnotationEditError.locked(id) }
        return edits.delete(id, in: current)
    }

    /// Moves an annotation of the file by (dx, dy) display points, its replies and popup along. A reply moves
    /// only with what it answers; links, form fields and popups are not markup and stay.
    public func move(_ id: AnnotationID, dx: Double, dy: Double, at date: PDFDate, current: [Annotation],
                     edits: inout AnnotationEdits) throws {
        _ = try changeable(id, in: current)
        edits.move(id, dx: dx, dy: dy, at: date)
    }

    /// A new colour (any annotation of the file Redline can show in it: not a stamp, whose look is its picture) or
    /// font size (a FreeText's) for an annotation that starts a thread. `original` is the annotation as the file
    /// has it: going back to its look is no change.
    public func restyle(_ id: AnnotationID, color: RGBColor?, fontSize: Double?, original: Annotation, at date: PDFDate,
                        current: [Annotation], edits: inout AnnotationEdits) throws {
        let annotation = try changeable(id, in: current)
        if annotation.subtype == .freeText, (annotation.contents ?? "").isEmpty {
            throw AnnotationEditError.emptyTextBox(id, what: color != nil ? "colour" : "size")
        }
        if color != nil, !Self.recolourable(annotation) {
            throw AnnotationEditError.keepsItsLook(id, subtype: annotation.subtype, what: "colour", why: Self.whyItKeepsItsColour(annotation))
        }
        if fontSize != nil, annotation.subtype != .freeText {
            throw AnnotationEditError.keepsItsLook(id, subtype: annotation.subtype, what: "size")
        }
        edits.restyle(id, color: color, fontSize: fontSize, original: original, at: date)
    }

    /// What takes a new colour: what Redline's painter draws again (a text box with words, ink, highlight, underline,
    /// strike-out), and what poppler and MuPDF both draw from their keys alone (an unfilled square, circle, line,
    /// polygon or polyline, a squiggly, a note). A filled shape (an area highlight) would be drawn opaque over the
    /// page, a caret vanishes in poppler, a stamp's look is a picture: those keep their look.
    /// Why `recolourable` says no, in the words of the message line.
    static func whyItKeepsItsColour(_ annotation: Annotation) -> String {
        switch annotation.subtype.rawValue {
        case "Polygon" where annotation.drawing.vertices.count < 3, "PolyLine" where annotation.drawing.vertices.count < 2:
            "it has too few corners for readers to draw it again"
        case "Square", "Circle", "Line", "Polygon", "PolyLine": "drawn again, its fill would cover the page"
        case "Caret": "poppler draws none without the appearance it has"
        case "Stamp": "its look is a picture"
        case "Text": "poppler has no \(annotation.drawing.icon ?? "Note") icon to draw it with"
        default: "readers would not draw it again as it looks now"
        }
    }

    public static func recolourable(_ annotation: Annotation) -> Bool {
        switch annotation.subtype.rawValue {
        case "FreeText": !(annotation.contents ?? "").isEmpty
        case "Ink", "Highlight", "Underline", "StrikeOut", "Squiggly": true
        // poppler draws a note without an appearance only with these icons (a Check or a Star would vanish).
        case "Text": ["Note", "Comment", "Key", "Help", "NewParagraph", "Paragraph", "Insert", "Cross", "Circle"].contains(annotation.drawing.icon ?? "Note")
        case "Square", "Circle", "Line": annotation.drawing.interiorColor == nil
        // Fewer corners than the shape needs: its appearance drew something, readers would draw nothing.
        case "Polygon": annotation.drawing.interiorColor == nil && annotation.drawing.vertices.count >= 3
        case "PolyLine": annotation.drawing.interiorColor == nil && annotation.drawing.vertices.count >= 2
        default: false
        }
    }

    /// New text for a FreeText or a note of the file that starts a thread (a reply is its author's, edited with
    /// `editReply`).
    public func rewrite(_ id: AnnotationID, text: String, at date: PDFDate, current: [Annotation], edits: inout AnnotationEdits) throws {
        // Every markup annotation's /Contents is text a reader shows (a shape's or a highlight's in its popup); a text
        // box's and a note's are all they are, and cannot be emptied.
        let annotation = try changeable(id, in: current)
        guard annotation.flags & Annotation.lockedContentsFlag == 0 else { throw AnnotationEditError.locked(id) }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty || !(annotation.subtype == .freeText || annotation.subtype == .text) else { throw AnnotationEditError.emptyText }
        edits.changeContents(of: id, to: trimmed, at: date)
    }

    /// An annotation of the file that may change: markup, starting its thread, neither read-only nor locked, in a
    /// document whose permissions allow it.
    private func changeable(_ id: AnnotationID, in current: [Annotation]) throws -> Annotation {
        let annotation = try permitted(id, in: current)
        guard annotation.subtype.isMarkup else { throw AnnotationEditError.notMovable(id, subtype: annotation.subtype) }
        guard !annotation.isReply else { throw AnnotationEditError.movesWithItsThread(id) }
        guard !annotation.isReadOnly else { throw AnnotationEditError.readOnly(id) }
        guard !annotation.isLocked else { throw AnnotationEditError.locked(id) }
        return annotation
    }

    /// The annotation named, in a document whose permissions allow changing annotations.
    private func permitted(_ id: AnnotationID, in current: [Annotation]) throws -> Annotation {
        guard let annotation = current.first(where: { $0.id == id }) else {
            throw AnnotationEditError.unknownAnnotation(id, path: path)
        }
        guard allowsChanges else { throw AnnotationEditError.notPermitted(path: path) }
        return annotation
    }

    private func answerable(_ id: AnnotationID, in current: [Annotation]) throws -> Annotation {
        let annotation = try permitted(id, in: current)
        guard annotation.subtype.isMarkup else { throw AnnotationEditError.notAComment(id, subtype: annotation.subtype) }
        guard !annotation.isReadOnly else { throw AnnotationEditError.readOnly(id) }
        return annotation
    }

    private func ownReply(_ id: AnnotationID, in current: [Annotation]) throws -> Annotation {
        let annotation = try answerable(id, in: current)
        guard annotation.author == author else {
            throw AnnotationEditError.notTheAuthor(id, author: annotation.author ?? "someone else")
        }
        return annotation
    }
}
