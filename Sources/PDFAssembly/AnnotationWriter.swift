import CQPDF
import Foundation
import RedlineCore

/// Writes annotation changes into a session as the PDF specification describes them (ISO 32000-1
/// §12.5.6.2–3): replies are Text annotations with /IRT and /RT, review states are Text annotations with
/// /StateModel and /State as text strings. They stay real annotations, editable in any reader.
struct AnnotationWriter {
    let session: QPDFSession
    let path: String
    /// What the markup painter drew for annotations: new ones, and annotations of the file drawn anew (`redrawn`).
    var appearances = AppearanceDrawings()
    /// Annotations of the file with a new look or text, as they will be (a FreeText's box fitted to its words).
    var redrawn: [AnnotationID: Annotation] = [:]
    let appearanceSessions = AppearanceSessions()
    /// Places in each page's /Annots, as read, that `delete` took out: what a later place in the array is now.
    let removedSlots = RemovedSlots()

    func apply(_ edits: AnnotationEdits, pages: [PageGeometry]) throws {
        guard !edits.isEmpty else { return }
        // What is added is written as it now stands; moves and new looks then name the file's annotations only.
        let edits = edits.foldingAdditions()
        guard session.allowsAnnotationChanges else { throw AnnotationEditError.notPermitted(path: path) }
        var located: [AnnotationID: AnnotationReader.Located] = [:]
        for entry in AnnotationReader(session: session).read(pages: pages) {
            located[entry.annotation.id] = entry
        }
        for id in edits.deleted.union(edits.changedContents.keys).union(edits.moved.keys) where located[id] == nil {
            throw AnnotationEditError.unknownAnnotation(id, path: path)
        }
        noteChangedPages(edits, located: located)
        move(edits, located: located, pages: pages)
        try delete(edits.deleted, located: located)
        changeContents(edits, located: located)
        try restyle(edits, located: located, pages: pages)
        var objects = located.mapValues(\.object)
        var additions: [Int: [qpdf_oh]] = [:]
        for annotation in edits.placedAdditions(amid: located.values.map(\.annotation)) {
            guard pages.indices.contains(annotation.pageIndex) else {
                throw DocumentError.damaged(path: path, reason: "page \(annotation.pageIndex + 1) does not exist")
            }
            let parent = try annotation.inReplyTo.map { id in
                guard let object = objects[id] else { throw AnnotationEditError.unknownAnnotation(id, path: path) }
                if session.objectID(object) == 0, let entry = located[id] {
                    // /IRT must name the annotation itself: a direct one would be copied into the reply.
                    let indirect = try makeIndirect(entry)
                    objects[id] = indirect
                    return indirect
                }
                return object
            }
            let made = try add(annotation, inReplyTo: parent, geometry: pages[annotation.pageIndex])
            objects[annotation.id] = made[0]
            additions[annotation.pageIndex, default: []] += made
        }
        // One new /Annots per page, however many annotations it gains.
        for (pageIndex, added) in additions.sorted(by: { $0.key < $1.key }) {
            let page = qpdf_get_page_n(session.data, pageIndex)
            replaceAnnotations(of: page, with: session.arrayItems(session.key(page, "/Annots")) + added)
        }
        try session.check()
    }

    /// The pages these edits change: those of the annotations they name, of everything answering those (a deletion or
    /// a move takes replies along), and of what they add.
    private func noteChangedPages(_ edits: AnnotationEdits, located: [AnnotationID: AnnotationReader.Located]) {
        let named = edits.deleted.union(edits.changedContents.keys).union(edits.moved.keys).union(edits.restyled.keys)
        // Up each chain once (a chain can be 20,000 deep: no recursion); a loop answers nothing named.
        var reaches: [AnnotationID: Bool] = [:]
        for entry in located.values {
            var path: [AnnotationID] = []
            var current: AnnotationID? = entry.annotation.id
            var result = false
            while let id = current {
                if let known = reaches[id] { result = known; break }
                if named.contains(id) { result = true; break }
                reaches[id] = false
                path.append(id)
                current = located[id]?.annotation.inReplyTo
            }
            for id in path { reaches[id] = result }
            if result {
                session.changedPages.insert(entry.annotation.pageIndex)
                session.noteChanged(annotation: entry.object)
            }
        }
        session.changedPages.formUnion(edits.added.map(\.pageIndex))
    }

    /// Moves annotations where `edits.moved` says, their replies along: every coordinate each carries, and its
    /// popup's rectangle. The appearance is kept: readers draw it into the moved /Rect.
    func move(_ edits: AnnotationEdits, located: [AnnotationID: AnnotationReader.Located], pages: [PageGeometry]) {
        guard !edits.moved.isEmpty else { return }
        let parents = located.compactMapValues(\.annotation.inReplyTo)
        for entry in located.values {
            guard let move = edits.move(of: entry.annotation.id, parents: parents),
                  pages.indices.contains(entry.annotation.pageIndex) else { continue }
            let geometry = pages[entry.annotation.pageIndex]
            let origin = geometry.userPoint(fromDisplay: Point(x: 0, y: 0))
            let moved = geometry.userPoint(fromDisplay: Point(x: move.dx, y: move.dy))
            let (dx, dy) = (moved.x - origin.x, moved.y - origin.y)
            keepName(of: entry)
            translate(entry.object, dx: dx, dy: dy)
            let popup = session.key(entry.object, "/Popup")
            if session.isDictionary(popup) { translate(popup, dx: dx, dy: dy) }
            if edits.moved[entry.annotation.id] != nil {
                qpdf_oh_replace_key(session.data, entry.object, "/M", session.newText(move.modified.pdfString))
            }
        }
    }

    /// New words into /Contents; rich text saying the old ones goes (readers show it before /Contents).
    func changeContents(_ edits: AnnotationEdits, located: [AnnotationID: AnnotationReader.Located]) {
        for (id, change) in edits.changedContents {
            guard let entry = located[id] else { continue }
            keepName(of: entry)
            qpdf_oh_replace_key(session.data, entry.object, "/Contents", session.newText(change.contents))
            qpdf_oh_replace_key(session.data, entry.object, "/M", session.newText(change.modified.pdfString))
            qpdf_oh_remove_key(session.data, entry.object, "/RC")
        }
    }

    /// New looks and FreeText words: a colour into /C (a FreeText's text colour and size into /DA), and the
    /// appearance drawn anew where Redline draws the subtype (`redrawn`); elsewhere the old appearance goes, so
    /// readers draw one in the new colour from the keys (a shape, line or polygon is given one drawn from them).
    func restyle(_ edits: AnnotationEdits, located: [AnnotationID: AnnotationReader.Located], pages: [PageGeometry]) throws {
        let t = session.data
        let freeTextWords = edits.changedContents.keys.filter { located[$0]?.annotation.subtype == .freeText }
        for id in Set(edits.restyled.keys).union(freeTextWords).sorted() {
            guard let entry = located[id], pages.indices.contains(entry.annotation.pageIndex) else { continue }
            let geometry = pages[entry.annotation.pageIndex]
            keepName(of: entry)
            let restyle = edits.restyled[id]
            if let restyle {
                qpdf_oh_replace_key(t, entry.object, "/M", session.newText(restyle.modified.pdfString))
                if let color = restyle.color, entry.annotation.subtype != .freeText {
                    qpdf_oh_replace_key(t, entry.object, "/C", session.newNumbers([color.red, color.green, color.blue].map { Double($0) / 255 }))
                }
            }
            let now = redrawn[id]
            if entry.annotation.subtype == .freeText, let drawing = now?.drawing ?? restyle?.applied(to: entry.annotation.drawing) {
                let size = drawing.fontSize ?? 12
                qpdf_oh_replace_key(t, entry.object, "/DA", session.newText(AnnotationDrawing.defaultAppearance(fontSize: size, color: drawing.color)))
                // Rich text would say the old words and size: the plain /Contents and /DA say it all now.
                for key in ["/DS", "/RC"] { qpdf_oh_remove_key(t, entry.object, key) }
            }
            if let now, let drawing = appearances.place(of: id) {
                let box = geometry.userBox(fromDisplay: now.rect, upright: now.staysUpright)
                qpdf_oh_replace_key(t, entry.object, "/Rect", session.newNumbers([box.x1, box.y1, box.x2, box.y2]))
                qpdf_oh_replace_key(t, entry.object, "/AP", appearanceDictionary(try appearance(drawing, for: now, geometry: geometry)))
            } else if appearances.outlined[id] != nil {
                // A shape, line or polygon drawn again from its keys, in its new colour, as an import draws it.
                try giveAppearance(to: entry.object, of: now ?? entry.annotation, geometry: geometry)
            } else if restyle?.color != nil, entry.annotation.subtype != .freeText {
                // Readers draw the note (or what else) again from its keys, in the new colour.
                qpdf_oh_remove_key(t, entry.object, "/AP")
            } else if entry.annotation.subtype == .freeText, !(entry.annotation.contents ?? "").isEmpty || edits.changedContents[id] != nil {
                // A text box the painter does not draw as the file has it (filled, centred, rich text): readers
                // draw it again from /DA, /C and /Q, with its new words, colour and size. An empty one keeps what
                // it shows, having nothing to draw it from. Grown to hold its new words (`redrawn`), its box says so.
                qpdf_oh_remove_key(t, entry.object, "/AP")
                if let now {
                    let box = geometry.userBox(fromDisplay: now.rect, upright: now.staysUpright)
                    qpdf_oh_replace_key(t, entry.object, "/Rect", session.newNumbers([box.x1, box.y1, box.x2, box.y2]))
                }
            }
        }
    }

    /// An annotation without /NM is known by an id made from what it says (its place, dates, contents): changing
    /// any of those would change the id, and `redline reply --to` or an XFDF exchange would lose it. Written into
    /// /NM it stays the annotation's name.
    private func keepName(of entry: AnnotationReader.Located) {
        guard session.text(session.key(entry.object, "/NM")).map({ !$0.isEmpty }) != true else { return }
        qpdf_oh_replace_key(session.data, entry.object, "/NM", session.newText(entry.annotation.id.rawValue))
    }

    /// Shifts every coordinate pair of an annotation dictionary: /Rect, /QuadPoints, /L, /Vertices, /CL, /InkList.
    private func translate(_ dictionary: qpdf_oh, dx: Double, dy: Double) {
        func shifted(_ array: qpdf_oh) -> qpdf_oh? {
            let numbers = session.arrayItems(array).compactMap(session.real)
            guard session.isArray(array), numbers.count == Int(qpdf_oh_get_array_n_items(session.data, array)),
                  numbers.count % 2 == 0 else { return nil }
            return session.newNumbers(numbers.enumerated().map { $0.offset % 2 == 0 ? $0.element + dx : $0.element + dy })
        }
        for key in ["/Rect", "/QuadPoints", "/L", "/Vertices", "/CL"] {
            if let moved = shifted(session.key(dictionary, key)) { qpdf_oh_replace_key(session.data, dictionary, key, moved) }
        }
        let ink = session.key(dictionary, "/InkList")
        if session.isArray(ink) {
            let strokes = session.arrayItems(ink).map { shifted($0) }
            if strokes.allSatisfy({ $0 != nil }) {
                let list = qpdf_oh_new_array(session.data)
                for stroke in strokes { qpdf_oh_append_item(session.data, list, stroke!) }
                qpdf_oh_replace_key(session.data, dictionary, "/InkList", list)
            }
        }
    }

    /// Gives a direct annotation an object of its own and puts the reference where it stood in /Annots.
    func makeIndirect(_ entry: AnnotationReader.Located) throws -> qpdf_oh {
        let indirect = try session.makeIndirect(entry.object)
        // Deletions earlier in this write moved later places down.
        guard let slot = removedSlots.current(ofOriginal: entry.slot, page: entry.annotation.pageIndex) else { return indirect }
        var items = session.arrayItems(session.key(entry.page, "/Annots"))
        if items.indices.contains(slot) { items[slot] = indirect }
        replaceAnnotations(of: entry.page, with: items)
        return indirect
    }

    /// Takes the annotations off their pages, with the popups that belong to them. Objects nothing refers
    /// to any more are not written.
    func delete(_ ids: Set<AnnotationID>, located: [AnnotationID: AnnotationReader.Located]) throws {
        guard !ids.isEmpty else { return }
        let entries = ids.compactMap { located[$0] }
        let doomed = Set(entries.map { session.objectID($0.object) }.filter { $0 != 0 })
        // An annotation written into /Annots itself has no object number: it is known by its place in the array
        // (`move`, which runs first, may have given it an object of its own in that same place).
        var doomedSlots: [Int: Set<Int>] = [:]
        for entry in entries where session.objectID(entry.object) == 0 {
            doomedSlots[entry.annotation.pageIndex, default: []].insert(entry.slot)
        }
        for pageIndex in Set(entries.map(\.annotation.pageIndex)).sorted() {
            let page = qpdf_get_page_n(session.data, pageIndex)
            let slots = doomedSlots[pageIndex] ?? []
            var kept: [qpdf_oh] = []
            var removed: [Int] = []
            for (index, object) in session.arrayItems(session.key(page, "/Annots")).enumerated() {
                let slot = removedSlots.original(ofCurrent: index, page: pageIndex)
                let id = session.objectID(object)
                let parent = session.objectID(session.key(object, "/Parent"))
                if slots.contains(slot) || (id != 0 && doomed.contains(id))
                    || (session.name(session.key(object, "/Subtype")) == "Popup" && doomed.contains(parent)) {
                    removed.append(slot)
                } else {
                    kept.append(object)
                }
            }
            removedSlots.record(removed, page: pageIndex)
            replaceAnnotations(of: page, with: kept)
        }
        try session.check()
    }

    /// Makes the annotation (and its popup) as objects; the caller puts them on the page. A note without a popup
    /// of its own gets one beside it when `notesGetPopups` (replies written in Redline); from XFDF, the file says.
    /// `reserved`: the object to write it into (made empty by `reserve()`), for a caller that named it before.
    func add(_ annotation: Annotation, as reserved: qpdf_oh? = nil, inReplyTo parent: qpdf_oh?, geometry: PageGeometry,
             notesGetPopups: Bool = true) throws -> [qpdf_oh] {
        var entries = entries(for: annotation, inReplyTo: parent, geometry: geometry)
        if annotation.subtype == .text { entries["/Open"] = .boolean(false) }
        if let form = try appearance(of: annotation, geometry: geometry) {
            entries["/AP"] = .dictionary(["/N": session.reference(to: form)])
        }
        let object = try reserved ?? reserve()
        var added = [object]
        // Notes open in a popup, as Acrobat writes them (a closed one beside the note unless the annotation says
        // where); state changes have none, and other annotations only the popup they bring. Made first: the
        // annotation is written once, naming it.
        let place = annotation.drawing.popup
        if place != nil || (notesGetPopups && annotation.state == nil && annotation.subtype == .text) {
            let rect = place?.rect ?? Self.popupPlace(beside: annotation.rect, on: geometry.displaySize)
            let popup = try reserve()
            session.write(popupEntries(parent: object, pageIndex: annotation.pageIndex, rect: rect, isOpen: place?.isOpen ?? false,
                                       geometry: geometry), into: popup)
            entries["/Popup"] = session.reference(to: popup)
            added.append(popup)
        }
        session.write(entries, into: object)
        try session.check()
        return added
    }

    /// Where a note's popup opens when nothing says: 180 × 120 beside it, to its right or else its left, on the page.
    static func popupPlace(beside rect: Rect, on page: Size) -> Rect {
        let size = Size(width: min(180, page.width), height: min(120, page.height))
        let x = rect.maxX + size.width <= page.width ? rect.maxX : max(0, rect.minX - size.width)
        let y = min(max(rect.minY, 0), page.height - size.height)
        return Rect(x: min(x, page.width - size.width), y: y, width: size.width, height: size.height)
    }

    /// A new, empty indirect object, to be written with `QPDFSession.write(_:into:)`.
    func reserve() throws -> qpdf_oh { try session.makeIndirect(qpdf_oh_new_dictionary(session.data)) }

    private func popupEntries(parent: qpdf_oh, pageIndex: Int, rect: Rect, isOpen: Bool, geometry: PageGeometry) -> [String: ObjectText] {
        let box = geometry.userBox(fromDisplay: rect)
        return ["/Type": .name("Annot"), "/Subtype": .name("Popup"), "/Rect": .numbers([box.x1, box.y1, box.x2, box.y2]),
                "/Parent": session.reference(to: parent), "/P": session.reference(to: qpdf_get_page_n(session.data, pageIndex)),
                "/Open": .boolean(isOpen), "/F": .integer(Int64(Annotation.printFlag | Annotation.noZoomFlag | Annotation.noRotateFlag))]
    }

    /// Puts an existing annotation's popup where `place` says, making one when it has none. Returns a popup made
    /// anew, for the caller to put on the page.
    func placePopup(of object: qpdf_oh, pageIndex: Int, at place: AnnotationDrawing.Popup, geometry: PageGeometry) throws -> qpdf_oh? {
        let t = session.data
        let popup = session.key(object, "/Popup")
        guard session.isDictionary(popup) else {
            let made = try reserve()
            session.write(popupEntries(parent: object, pageIndex: pageIndex, rect: place.rect, isOpen: place.isOpen, geometry: geometry), into: made)
            qpdf_oh_replace_key(t, object, "/Popup", made)
            return made
        }
        let box = geometry.userBox(fromDisplay: place.rect)
        qpdf_oh_replace_key(t, popup, "/Rect", session.newNumbers([box.x1, box.y1, box.x2, box.y2]))
        qpdf_oh_replace_key(t, popup, "/Open", qpdf_oh_new_bool(t, place.isOpen ? QPDF_TRUE : QPDF_FALSE))
        return nil
    }

    /// Writes what `entries(for:)` says into an annotation's dictionary.
    func fill(_ dictionary: qpdf_oh, with annotation: Annotation, inReplyTo parent: qpdf_oh?, geometry: PageGeometry) {
        session.write(entries(for: annotation, inReplyTo: parent, geometry: geometry), into: dictionary)
    }

    /// The keys a dictionary written for `annotation` holds: identity, page, author, dates, thread, state, drawing.
    /// `parent` is indirect.
    func entries(for annotation: Annotation, inReplyTo parent: qpdf_oh?, geometry: PageGeometry) -> [String: ObjectText] {
        var entries: [String: ObjectText] = [:]
        let box = geometry.userBox(fromDisplay: annotation.rect, upright: annotation.staysUpright)
        entries["/Type"] = .name("Annot")
        entries["/Subtype"] = .name(annotation.subtype.rawValue)
        entries["/Rect"] = .numbers([box.x1, box.y1, box.x2, box.y2])
        entries["/NM"] = session.textValue(annotation.id.rawValue)
        entries["/F"] = .integer(Int64(annotation.flags))
        entries["/P"] = session.reference(to: qpdf_get_page_n(session.data, annotation.pageIndex))
        if let author = annotation.author { entries["/T"] = session.textValue(author) }
        if let contents = annotation.contents { entries["/Contents"] = session.textValue(contents) }
        if let created = annotation.created { entries["/CreationDate"] = session.textValue(created.pdfString) }
        if let modified = annotation.modified { entries["/M"] = session.textValue(modified.pdfString) }
        if let parent {
            entries["/IRT"] = session.reference(to: parent)
            entries["/RT"] = .name(annotation.replyType == .group ? "Group" : "R")
        }
        if let state = annotation.state {
            entries["/StateModel"] = session.textValue(state.model)
            entries["/State"] = session.textValue(state.value)
        }
        if annotation.subtype == .text, let icon = annotation.drawing.icon { entries["/Name"] = .name(icon) }
        write(annotation.drawing, of: annotation.subtype, into: &entries, geometry: geometry)
        if annotation.drawing.fringe.count == 4 {
            entries["/RD"] = .numbers(geometry.userFringe(fromDisplay: annotation.drawing.fringe, upright: annotation.staysUpright))
        }
        return entries
    }

    /// What `fill` may have written: cleared before a dictionary is filled again for a changed annotation.
    static let describedKeys = ["/T", "/Contents", "/CreationDate", "/M", "/IRT", "/RT", "/StateModel", "/State", "/C", "/IC",
                                "/CA", "/BS", "/Border", "/InkList", "/QuadPoints", "/L", "/Vertices", "/DA", "/DS", "/Subj",
                                "/Rotate", "/Name", "/LE", "/IT", "/BE", "/RD", "/Q", "/RC", "/CL"]

    /// Colour, opacity, width, strokes, quads and font, in user space.
    private func write(_ drawing: AnnotationDrawing, of subtype: AnnotationSubtype, into entries: inout [String: ObjectText],
                       geometry: PageGeometry) {
        func components(_ color: RGBColor) -> ObjectText { .numbers([color.red, color.green, color.blue].map { Double($0) / 255 }) }
        func user(_ points: [Point]) -> [Double] {
            points.flatMap { point -> [Double] in
                let mapped = geometry.userPoint(fromDisplay: point)
                return [mapped.x, mapped.y]
            }
        }
        // A FreeText's /C is its background (Acrobat fills the box with it): its text colour is in /DA.
        if let color = subtype == .freeText ? drawing.background : drawing.color { entries["/C"] = components(color) }
        if let opacity = drawing.opacity { entries["/CA"] = .real(opacity) }
        if drawing.lineWidth != nil || drawing.borderStyle != nil || !drawing.dashes.isEmpty {
            var border: [String: ObjectText] = [:]
            if let width = drawing.lineWidth { border["/W"] = .real(width) }
            let style = switch drawing.borderStyle {
            case .dashed: "D"
            case .beveled: "B"
            case .inset: "I"
            case .underline: "U"
            case .cloudy, nil: "S"
            }
            border["/S"] = .name(style)
            if !drawing.dashes.isEmpty { border["/D"] = .numbers(drawing.dashes) }
            entries["/BS"] = .dictionary(border)
        }
        if case .cloudy(let intensity) = drawing.borderStyle {
            entries["/BE"] = .dictionary(["/S": .name("C"), "/I": .real(intensity)])
        }
        if subtype == .freeText {
            if let ending = drawing.lineEndings.first { entries["/LE"] = .name(ending) }
            if !drawing.callout.isEmpty { entries["/CL"] = .numbers(user(drawing.callout)) }
        } else if drawing.lineEndings.count == 2 {
            entries["/LE"] = .names(drawing.lineEndings)
        }
        if let intent = drawing.intent { entries["/IT"] = .name(intent) }
        if drawing.fringe.count == 4 { entries["/RD"] = .numbers(drawing.fringe) }
        if let rich = drawing.richText { entries["/RC"] = session.textValue(rich) }
        if !drawing.inkList.isEmpty { entries["/InkList"] = .array(drawing.inkList.map { .numbers(user($0)) }) }
        if !drawing.quads.isEmpty { entries["/QuadPoints"] = .numbers(drawing.quads.flatMap(user)) }
        if let subject = drawing.subject { entries["/Subj"] = session.textValue(subject) }
        if let inside = drawing.interiorColor { entries["/IC"] = components(inside) }
        if let icon = drawing.icon, subtype != .text { entries["/Name"] = .name(icon) }
        if let rotation = drawing.rotation { entries["/Rotate"] = .integer(Int64(rotation)) }
        if subtype.rawValue == "Line", drawing.vertices.count == 2 { entries["/L"] = .numbers(user(drawing.vertices)) }
        if ["Polygon", "PolyLine"].contains(subtype.rawValue), !drawing.vertices.isEmpty {
            entries["/Vertices"] = .numbers(user(drawing.vertices))
        }
        if subtype == .freeText, let size = drawing.fontSize {
            entries["/DA"] = session.textValue(AnnotationDrawing.defaultAppearance(fontSize: size, color: drawing.color))
            // On a turned page the text reads as the user saw it: a reader drawing it afresh turns it the same way.
            if drawing.rotation == nil, geometry.rotation != .none {
                entries["/Rotate"] = .integer(Int64(geometry.rotation.rawValue))
            }
        }
        if subtype == .freeText {
            if let style = drawing.defaultStyle { entries["/DS"] = session.textValue(style) }
            if let justification = drawing.justification { entries["/Q"] = .integer(Int64(justification.rawValue)) }
        }
    }

    /// Sets the appearance `appearances` has for `annotation` (the painter's drawing or its paths) as the object's /AP.
    func giveAppearance(to object: qpdf_oh, of annotation: Annotation, geometry: PageGeometry) throws {
        guard let form = try appearance(of: annotation, geometry: geometry) else { return }
        qpdf_oh_replace_key(session.data, object, "/AP", appearanceDictionary(form))
    }

    /// The appearance `appearances` has for the annotation, the painter's drawing or its paths; nil when none.
    private func appearance(of annotation: Annotation, geometry: PageGeometry) throws -> qpdf_oh? {
        if let drawing = appearances.place(of: annotation.id) { return try appearance(drawing, for: annotation, geometry: geometry) }
        guard let drawing = appearances.outlined[annotation.id] else { return nil }
        let written = OutlinedAppearance.written(drawing, pageHeight: geometry.displaySize.height, scale: geometry.overlayScale)
        let (box, matrix) = placement(of: annotation, geometry: geometry)
        let resources: ObjectText = written.state.map { .dictionary(["/ExtGState": .dictionary(["/G": $0])]) } ?? .dictionary([:])
        let form = try session.newStream(entries: ["/Type": .name("XObject"), "/Subtype": .name("Form"), "/BBox": .numbers(box),
                                                   "/Matrix": .numbers(matrix), "/Resources": resources], data: written.content)
        return try uprightWrapped(form, of: annotation, geometry: geometry)
    }

    /// An upright annotation's appearance on a turned page, as a form whose /BBox starts at the origin and holds the
    /// drawing (placed there by `placement`): MuPDF keeps such an appearance upright only from a box at the origin,
    /// and draws nothing otherwise. Anything else is `form` itself.
    private func uprightWrapped(_ form: qpdf_oh, of annotation: Annotation, geometry: PageGeometry) throws -> qpdf_oh {
        guard annotation.staysUpright, geometry.rotation != .none else { return form }
        return try session.newStream(entries: ["/Type": .name("XObject"), "/Subtype": .name("Form"),
                                               "/BBox": .numbers([0, 0, annotation.rect.width, annotation.rect.height]),
                                               "/Resources": .dictionary(["/XObject": .dictionary(["/D": session.reference(to: form)])])],
                                     data: Array("/D Do".utf8))
    }

    /// An appearance's /BBox, the annotation's box in the drawing's space, and its /Matrix, the overlay's placement:
    /// the transformed box is exactly /Rect (ISO 32000-1 §12.5.5).
    private func placement(of annotation: Annotation, geometry: PageGeometry) -> (box: [Double], matrix: [Double]) {
        let scale = geometry.overlayScale
        let height = geometry.displaySize.height
        let rect = annotation.rect
        let box = [rect.minX * scale, (height - rect.maxY) * scale, rect.maxX * scale, (height - rect.minY) * scale]
        if annotation.staysUpright, geometry.rotation != .none {
            // Drawn as the user sees it and not turned with the page (readers keep it upright themselves): moved, not
            // turned, to the origin of the form `uprightWrapped` puts it in.
            return (box, [1 / scale, 0, 0, 1 / scale, -box[0] / scale, -box[1] / scale])
        }
        let matrix = geometry.overlayFormTransform
        return (box, [matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f])
    }

    private func appearanceDictionary(_ form: qpdf_oh) -> qpdf_oh {
        let dictionary = qpdf_oh_new_dictionary(session.data)
        qpdf_oh_replace_key(session.data, dictionary, "/N", form)
        return dictionary
    }

    /// The appearance: the painter's drawing, a Form whose /BBox is the annotation's box in the drawing's space and
    /// whose /Matrix is the overlay's placement, so the transformed box is exactly /Rect (ISO 32000-1 §12.5.5).
    private func appearance(_ drawing: AppearanceDrawings.Place, for annotation: Annotation, geometry: PageGeometry) throws -> qpdf_oh {
        let (box, matrix) = placement(of: annotation, geometry: geometry)
        let form = try appearanceSessions.form(drawing, of: appearances, into: session) { drawings, resources in
            try OverlayForm.make(page: drawing.page, of: drawings, into: session, label: "the appearance of annotation \(annotation.id)",
                                 box: box, matrix: matrix, copies: resources)
        }
        return try uprightWrapped(form, of: annotation, geometry: geometry)
    }

    /// A fresh /Annots array for the page: the old one may be shared with other pages.
    func replaceAnnotations(of page: qpdf_oh, with items: [qpdf_oh]) {
        let array = qpdf_oh_new_array(session.data)
        for item in items { qpdf_oh_append_item(session.data, array, item) }
        qpdf_oh_replace_key(session.data, page, "/Annots", array)
    }
}

/// The places `AnnotationWriter.delete` took out of each page's /Annots, counted as the array was read: entries
/// read before the deletion know their place as it was.
final class RemovedSlots {
    private var removed: [Int: [Int]] = [:]

    func record(_ slots: [Int], page: Int) {
        guard !slots.isEmpty else { return }
        removed[page, default: []] = (removed[page, default: []] + slots).sorted()
    }

    /// Where an entry read at `slot` is now; nil when it was taken out.
    func current(ofOriginal slot: Int, page: Int) -> Int? {
        let gone = removed[page] ?? []
        if gone.contains(slot) { return nil }
        return slot - gone.prefix { $0 < slot }.count
    }

    /// Where the entry now at `index` was when the array was read.
    func original(ofCurrent index: Int, page: Int) -> Int {
        var slot = index
        for gone in removed[page] ?? [] {
            if gone <= slot { slot += 1 } else { break }
        }
        return slot
    }
}
