import Foundation

/// XFDF (ISO 19444-1), the XML form of a PDF's annotations that Acrobat, PDFBox, PSPDFKit and others read and
/// write: a whole set (`<annots>`) or a command (`<add>`, `<modify>`, `<delete>`). Read and written here, in the core,
/// with `XMLReader`: no XML library, no DTD, no entities but XML's own.
public enum XFDF {
    public static let namespace = "http://ns.adobe.com/xfdf/"
    /// Larger files are refused before reading: a set of annotations this size is an attack or a mistake.
    public static let largestFile = 32 << 20

    // MARK: Writing

    /// Whether XFDF has an element for the annotation on its page (markup does; links, widgets and popups do not,
    /// nor an ink without strokes).
    public static func carries(_ annotation: Annotation, pages: [PageGeometry]) -> Bool {
        pages.indices.contains(annotation.pageIndex)
            && XFDFAnnotationElement.element(for: annotation, geometry: pages[annotation.pageIndex]) != nil
    }

    /// `<xfdf><annots>…</annots></xfdf>`: every markup annotation (links, widgets and popups have no element).
    public static func document(_ annotations: [Annotation], pages: [PageGeometry]) -> String {
        let annots = XMLTreeElement("annots", children: elements(annotations, pages: pages))
        return text(of: root([.element(annots)]))
    }

    /// The annotations a document carries that `document(_:pages:)` leaves out although a reader lists them with the
    /// markup (not links or form fields, which XFDF never holds): Inks without strokes.
    public static func leftOut(_ annotations: [Annotation]) -> [Annotation] {
        annotations.filter(XFDFAnnotationElement.isStrokelessInk)
    }

    /// `<xfdf><add>…</add><modify>…</modify><delete><id page="N">NAME</id></delete></xfdf>`, empty parts left out.
    public static func document(_ command: XFDFCommand, pages: [PageGeometry]) -> String {
        var parts: [XMLTreeElement.Child] = []
        if !command.add.isEmpty { parts.append(.element(XMLTreeElement("add", children: elements(command.add, pages: pages)))) }
        if !command.modify.isEmpty { parts.append(.element(XMLTreeElement("modify", children: elements(command.modify, pages: pages)))) }
        if !command.delete.isEmpty {
            let ids = command.delete.map { XMLTreeElement.Child.element(XMLTreeElement("id", attributes: [("page", String($0.pageIndex))],
                                                                              children: [.text($0.id.rawValue)])) }
            parts.append(.element(XMLTreeElement("delete", children: ids)))
        }
        return text(of: root(parts))
    }

    /// Whether two annotations are written alike: what an import of a file's own export leaves as it is. The
    /// elements are compared, not their text: 100,000 of them were written twice each to be compared.
    public static func saysTheSame(_ one: Annotation, as other: Annotation, pages: [PageGeometry]) -> Bool {
        guard pages.indices.contains(one.pageIndex), pages.indices.contains(other.pageIndex) else {
            return !pages.indices.contains(one.pageIndex) && !pages.indices.contains(other.pageIndex)
        }
        // Equal values are written alike; values that differ may still be (numbers a file holds more finely than XFDF).
        var reordered = other
        reordered.order = one.order
        if reordered == one { return true }
        return XFDFAnnotationElement.element(for: one, geometry: pages[one.pageIndex])
            == XFDFAnnotationElement.element(for: other, geometry: pages[other.pageIndex])
    }

    private static func elements(_ annotations: [Annotation], pages: [PageGeometry]) -> [XMLTreeElement.Child] {
        annotations.compactMap { annotation in
            guard pages.indices.contains(annotation.pageIndex) else { return nil }
            return XFDFAnnotationElement.element(for: annotation, geometry: pages[annotation.pageIndex]).map(XMLTreeElement.Child.element)
        }
    }

    private static func root(_ children: [XMLTreeElement.Child]) -> XMLTreeElement {
        XMLTreeElement("xfdf", attributes: [("xmlns", namespace), ("xml:space", "preserve")], children: children)
    }

    private static func text(of root: XMLTreeElement) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + root.serialized() + "\n"
    }

    // MARK: Reading

    /// The annotations of an XFDF file: its `<annots>`, or what its `<add>` and `<modify>` carry. Annotations without
    /// a name get a new one.
    public static func annotations(from bytes: [UInt8], pages: [PageGeometry]) throws -> [Annotation] {
        let command = try command(from: bytes, pages: pages)
        return command.add + command.modify
    }

    /// The command an XFDF file carries; a plain `<annots>` is read as adding them all. Given the document's
    /// annotations (`existing`), it is also checked against them: `<modify>` names only what the document has, and
    /// no reply ends up answering itself.
    public static func command(from bytes: [UInt8], pages: [PageGeometry], existing: [Annotation]? = nil) throws -> XFDFCommand {
        guard bytes.count <= largestFile else {
            throw XFDFError(line: 0, message: "the file is larger than \(largestFile >> 20) MiB")
        }
        let root: XMLTreeElement
        do {
            root = try XMLReader.read(bytes).unprefixed(in: namespace, keeping: XMLTreeElement.keptExactly)
        } catch let failure as XMLReader.Failure {
            throw XFDFError(line: failure.line, message: "not XML: \(failure.message)")
        }
        guard root.isXFDFRoot else { throw XFDFError(root, "the root element is \(root.shownName), not <xfdf>") }
        // A name the file does not give is derived from the file and the annotation's place in it, as bookmarks
        // without ids are: two reads of one file agree on it, and so do the clients of a shared document.
        let fileHash = StableHash.fnv1a64(bytes)
        var command = XFDFCommand()
        var order = 0
        // One name, one annotation: a name given twice would make matching by name mean nothing.
        var lines: [AnnotationID: Int] = [:]
        var deleteLines: [AnnotationID: Int] = [:]
        func read(_ part: XMLTreeElement) throws -> [Annotation] {
            let elements = part.elements
            let converted = XFDFAnnotationElement.annotations(from: elements, pages: pages, firstOrder: order)
            var annotations: [Annotation] = []
            annotations.reserveCapacity(elements.count)
            // In the file's order, so the first fault in it is the one told, whichever part of the work met it first.
            for (element, result) in zip(elements, converted) {
                var annotation = try result.get()
                order += 1
                if annotation.id.rawValue.isEmpty {
                    annotation.id = AnnotationID(StableUUID.derived(seed: fileHash, item: "xfdf annotation \(order)").uuidString)
                }
                if let earlier = lines[annotation.id] {
                    throw XFDFError(element, "the name \"\(annotation.id.rawValue.prefix(80))\" is given twice (first on line \(earlier))")
                }
                lines[annotation.id] = element.line
                annotations.append(annotation)
            }
            return annotations
        }
        for part in root.elements {
            switch part.name {
            case "annots", "add": command.add += try read(part)
            case "modify": command.modify += try read(part)
            case "delete":
                for id in part.elements {
                    guard id.name == "id" else { throw XFDFError(id, "unknown element <\(id.name)> in <delete>") }
                    guard let pageText = id[attribute: "page"], let page = Int(pageText) else {
                        throw XFDFError(id, "<id> in <delete> needs a page, a whole number from 0")
                    }
                    guard pages.indices.contains(page) else {
                        throw XFDFError(id, "page=\"\(page)\" of <id> is out of range: the document has \(pages.count) page\(pages.count == 1 ? "" : "s"), counted from 0")
                    }
                    let name = id.text.trimmingCharacters(in: .whitespacesAndNewlines)
                    guard !name.isEmpty else { throw XFDFError(id, "<id> in <delete> names no annotation") }
                    if let earlier = lines[AnnotationID(name)] {
                        throw XFDFError(id, "\"\(name.prefix(80))\" is both deleted and changed (line \(earlier))")
                    }
                    command.delete.append(XFDFCommand.Deletion(pageIndex: page, id: AnnotationID(name)))
                    deleteLines[AnnotationID(name)] = id.line
                }
            // What else XFDF may carry about the document: its file name, form fields, its ids.
            case "f", "fields", "ids", "pdf-info": continue
            default: throw XFDFError(part, "unknown element <\(part.name)> in <xfdf>")
            }
        }
        if let existing {
            let known = Set(existing.map(\.id))
            if let stray = command.modify.first(where: { !known.contains($0.id) }) {
                throw XFDFError(line: lines[stray.id] ?? 0, message: "<modify> changes \"\(stray.id.rawValue.prefix(80))\", which the document does not have")
            }
            if let stray = command.delete.first(where: { !known.contains($0.id) }) {
                throw XFDFError(line: deleteLines[stray.id] ?? 0, message: "<delete> names \"\(stray.id.rawValue.prefix(80))\", which the document does not have")
            }
            // A review state is a decision about an annotation: without it, it says nothing (a plain reply to a
            // missing name stands alone, as a note).
            let named = known.union(lines.keys)
            if let stray = command.incoming.first(where: { $0.state != nil && $0.inReplyTo.map { !named.contains($0) } == true }) {
                throw XFDFError(line: lines[stray.id] ?? 0, message: "the review state \"\(stray.id.rawValue.prefix(80))\" answers \"\(stray.inReplyTo!.rawValue.prefix(80))\", which neither this file nor the document has")
            }
        }
        // A reply that answers itself, directly or through others: readers walking the thread would never end.
        // A loop the document already had, away from this file's annotations, is not this file's doing.
        // The threads as the command leaves them (what `applied(to:)` gives, without copying every annotation): the
        // document's, those this file brings or changes in their place, less what it deletes.
        var parents: [AnnotationID: AnnotationID] = [:]
        for annotation in existing ?? [] where parents[annotation.id] == nil { parents[annotation.id] = annotation.inReplyTo }
        for annotation in command.incoming { parents[annotation.id] = annotation.inReplyTo }
        for deletion in command.delete { parents[deletion.id] = nil }
        let looped = ReplyLoops.members(parents: parents)
        if let annotation = command.incoming.first(where: { $0.inReplyTo != nil && looped.contains($0.id) }) {
            throw XFDFError(line: lines[annotation.id] ?? 0,
                            message: "inreplyto=\"\(annotation.inReplyTo!.rawValue.prefix(80))\" of \"\(annotation.id.rawValue.prefix(80))\" makes a loop of replies")
        }
        return command
    }
}
