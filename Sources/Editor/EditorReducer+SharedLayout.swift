import RedlineCore

/// A shared session's annotations: the file's with the server's laid over them, the session's own changes kept on
/// top (docs/architecture.md, "The editor in a shared session").
extension EditorReducer {
    /// The names this session defines wholly: replies and states it added, and its markup.
    static func locallyDefined(_ state: EditorState) -> Set<AnnotationID> {
        Set(state.edits.annotations.added.map(\.id)).union(markupNames(state))
    }

    /// The session's markup by the names it is shared under. The server's copy of one is listed (replies thread
    /// under it) but neither drawn nor selected on the page: the markup is.
    static func markupNames(_ state: EditorState) -> Set<AnnotationID> {
        Set(state.markup.items.map { state.sharing?.sharedName($0.annotationName) ?? $0.annotationName })
    }

    /// The names this session's edits change relative to the document's annotations (moved, restyled, reworded,
    /// deleted): they keep the version they were changed from.
    static func touchedByEdits(_ state: EditorState) -> Set<AnnotationID> {
        let edits = state.edits.annotations
        return edits.deleted.union(edits.moved.keys).union(edits.restyled.keys).union(edits.changedContents.keys)
    }

    static func changedByEdits(_ state: EditorState) -> Set<AnnotationID> {
        locallyDefined(state).union(touchedByEdits(state))
    }

    /// After events that changed only `names`: those annotations are changed, added or taken out in place when none
    /// of them is the file's or changed here (the usual case: annotations made in the session by others), in time of
    /// their number (a removal also renumbers what follows it); anything else lays the whole list out again.
    static func layOutShared(_ state: inout EditorState, changed names: Set<AnnotationID>) {
        guard let sharing = state.sharing, !sharing.laidIndex.isEmpty || state.document.annotations.isEmpty,
              names.isDisjoint(with: sharing.fileNames), names.isDisjoint(with: touchedByEdits(state)) else {
            return layOutShared(&state)
        }
        let defined = Set(state.edits.annotations.added.map { sharing.sharedName($0.id) })
        let listed = listedMarkup(sharing)
        var index = sharing.laidIndex
        var updates: [(position: Int?, annotation: Annotation)] = []
        var removals: [Int] = []
        for name in names.sorted(by: { $0.rawValue < $1.rawValue }) {
            let live = if let entry = listed[name] { entry } else if defined.contains(name) { Annotation?.none } else {
                sharing.replica.annotations.last { $0.id == name }
            }
            switch (index[name], live) {
            case (let position?, let annotation?): updates.append((position, annotation))
            case (nil, let annotation?): updates.append((nil, annotation))
            case (let position?, nil): removals.append(position)
            case (nil, nil): continue
            }
        }
        state.editing.changeAnnotationsInPlace { annotations in
            for (position, update) in updates {
                var annotation = update
                if let position {
                    annotation.order = position
                    annotations[position] = annotation
                } else {
                    annotation.order = annotations.count
                    index[annotation.id] = annotations.count
                    annotations.append(annotation)
                }
            }
            guard let first = removals.min() else { return }
            let gone = Set(removals)
            for position in gone { index[annotations[position].id] = nil }
            var kept = first
            // One pass over what follows the first removal: each kept annotation moves down to its new place.
            for position in first..<annotations.count where !gone.contains(position) {
                annotations.swapAt(kept, position)
                annotations[kept].order = kept
                index[annotations[kept].id] = kept
                kept += 1
            }
            annotations.removeLast(annotations.count - kept)
        }
        state.sharing?.laidIndex = index
        if !removals.isEmpty, let selected = state.interaction.selectedAnnotation, index[selected] == nil,
           !state.annotations.contains(where: { $0.id == selected }) {
            state.interaction.selectedAnnotation = nil
        }
    }

    /// The document's annotations become the file's with the server's laid over them. Linear in both.
    static func layOutShared(_ state: inout EditorState) {
        guard var sharing = state.sharing else { return }
        let defined = Set(state.edits.annotations.added.map { sharing.sharedName($0.id) })
        let touched = touchedByEdits(state)
        var kept: [AnnotationID: Annotation] = [:]
        if !touched.isEmpty {
            for annotation in state.document.annotations where touched.contains(annotation.id) { kept[annotation.id] = annotation }
        }
        var shared: [AnnotationID: Annotation] = [:]
        for annotation in sharing.replica.annotations { shared[annotation.id] = annotation }
        let listed = listedMarkup(sharing)
        var unshared: [Annotation] = []
        for (name, entry) in listed {
            if shared[name] == nil, let entry { unshared.append(entry) }
            shared[name] = entry
        }
        var laid: [Annotation] = []
        var replaced: Set<AnnotationID> = []
        for annotation in sharing.fileAnnotations {
            if let frozen = kept[annotation.id] {
                laid.append(frozen)
                if frozen != annotation { replaced.insert(annotation.id) }
                shared[annotation.id] = nil
            } else if let server = shared.removeValue(forKey: annotation.id) {
                if defined.contains(annotation.id) { continue }
                laid.append(server)
                // Drawn over the page when the painter draws its kind (as markup, or from its keys); a kind it does
                // not draw stays as the file draws it (the list has it as it is now).
                if !sameShape(server, annotation), MarkupAnnotations.item(for: server) != nil || AnnotationSketch(server) != nil {
                    replaced.insert(annotation.id)
                }
            } else if sharing.replica.entries[annotation.id.rawValue]?.deleted == true {
                replaced.insert(annotation.id)
            } else {
                laid.append(annotation)
            }
        }
        for annotation in sharing.replica.annotations where shared[annotation.id] != nil && !defined.contains(annotation.id) {
            laid.append(kept[annotation.id] ?? shared[annotation.id]!)
        }
        // Markup the server does not have yet, in the order it was made.
        let made = Dictionary(state.markup.items.enumerated().map { (sharing.sharedName($1.annotationName), $0) },
                              uniquingKeysWith: { first, _ in first })
        laid.append(contentsOf: unshared.sorted { made[$0.id] ?? .max < made[$1.id] ?? .max })
        for index in laid.indices { laid[index].order = index }
        sharing.replacedFileNames = replaced
        sharing.laidIndex = Dictionary(laid.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        state.sharing = sharing
        state.document.annotations = laid
        if let selected = state.interaction.selectedAnnotation, !state.annotations.contains(where: { $0.id == selected }) {
            state.interaction.selectedAnnotation = nil
        }
    }

    /// The session's markup as listed, by the names it is shared under; nil for markup taken away here.
    private static func listedMarkup(_ sharing: SharedReview) -> [AnnotationID: Annotation?] {
        var listed: [AnnotationID: Annotation?] = [:]
        for (name, entry) in sharing.markupListed {
            let wire = sharing.sharedName(name)
            guard var shown = entry else {
                listed[wire] = Annotation??.some(nil)
                continue
            }
            shown.id = wire
            listed[wire] = shown
        }
        return listed
    }

    /// Whether the server's version of a file's annotation looks as the file draws it: its XFDF is all the server
    /// has, so what XFDF carries is compared.
    private static func sameShape(_ server: Annotation, _ file: Annotation) -> Bool {
        server.rect == file.rect && server.subtype == file.subtype && server.contents == file.contents
            && server.drawing.color == file.drawing.color && server.drawing.inkList == file.drawing.inkList
            && server.drawing.fontSize == file.drawing.fontSize && server.drawing.vertices == file.drawing.vertices
            && server.drawing.interiorColor == file.drawing.interiorColor && server.drawing.lineWidth == file.drawing.lineWidth
    }
}
