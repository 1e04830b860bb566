import Foundation

/// A change as the collaboration server reads it from a client's XFDF, without the PDF: what it does, to which
/// annotation, and (for an addition or a modification) the annotation's element, checked as `redline xfdf import`
/// checks it and carrying the authenticated author as its `title`.
public struct SharedChangeRequest: Sendable, Hashable {
    public var action: AnnotationChange.Action
    public var name: String
    public var pageIndex: Int
    /// What the annotation answers (a reply or a review state), as its XFDF says.
    public var inReplyTo: String?
    /// The annotation's element as stored and sent: one line of XML.
    public var element: String?

    public init(action: AnnotationChange.Action, name: String, pageIndex: Int, inReplyTo: String?, element: String?) {
        self.action = action
        self.name = name
        self.pageIndex = pageIndex
        self.inReplyTo = inReplyTo
        self.element = element
    }
}

public enum SharedChangeReader {
    /// Longer names are refused: an `/NM` is an id, and every frame and row carries it.
    public static let longestName = 256
    /// Pages are counted from 0; a document with more is beyond what any reader opens.
    public static let mostPages = 1_000_000
    /// The page geometry the server reads rectangles against: the numbers are checked, not placed.
    private static let neutralPage = PageGeometry(mediaBox: PDFBox(x1: 0, y1: 0, x2: 612, y2: 792))

    /// Reads one change: an `<xfdf>` holding exactly one of `<add>`, `<modify>` (one annotation element each) or
    /// `<delete>` (one `<id>`). `author` replaces whatever `title` the element gives.
    public static func read(_ xfdf: String, author: String) throws -> SharedChangeRequest {
        let bytes = Array(xfdf.utf8)
        guard bytes.count <= XFDF.largestFile else { throw XFDFError(line: 0, message: "the XFDF is larger than \(XFDF.largestFile >> 20) MiB") }
        let root: XMLTreeElement
        do {
            root = try XMLReader.read(bytes).unprefixed(in: XFDF.namespace, keeping: XMLTreeElement.keptExactly)
        } catch let failure as XMLReader.Failure {
            throw XFDFError(line: failure.line, message: "not XML: \(failure.message)")
        }
        guard root.isXFDFRoot else { throw XFDFError(line: root.line, message: "the root element is \(root.shownName), not XFDF's <xfdf>") }
        let parts = root.elements.filter { !["f", "fields", "ids", "pdf-info"].contains($0.name) }
        guard parts.count == 1, let part = parts.first else {
            throw XFDFError(line: root.line, message: "a change holds one <add>, <modify> or <delete>, not \(parts.count) parts")
        }
        guard let action = AnnotationChange.Action(rawValue: part.name) else {
            throw XFDFError(line: part.line, message: "unknown element <\(part.name)> in <xfdf>")
        }
        guard part.elements.count == 1, let item = part.elements.first else {
            throw XFDFError(line: part.line, message: "a change is to one annotation: <\(part.name)> holds \(part.elements.count)")
        }
        if action == .delete {
            guard item.name == "id" else { throw XFDFError(line: item.line, message: "unknown element <\(item.name)> in <delete>") }
            let page = try pageIndex(item[attribute: "page"], of: item)
            let name = item.text.trimmingCharacters(in: .whitespacesAndNewlines)
            try check(name: name, of: item)
            return SharedChangeRequest(action: .delete, name: name, pageIndex: page, inReplyTo: nil, element: nil)
        }
        guard let subtype = XFDFAnnotationElement.subtypes[item.name] else {
            throw XFDFError(line: item.line, message: "unknown element <\(item.name)> in <\(part.name)>")
        }
        let page = try pageIndex(item[attribute: "page"], of: item)
        let name = item[attribute: "name"] ?? ""
        try check(name: name, of: item)
        _ = try XFDFAnnotationElement.annotation(from: item, subtype: subtype, page: page, geometry: neutralPage, order: 0)
        var stored = item
        stored.attributes.removeAll { $0.name == "title" }
        stored.attributes.append((name: "title", value: author))
        let parent = item[attribute: "inreplyto"].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let parent { try check(name: parent, of: item) }
        return SharedChangeRequest(action: action, name: name, pageIndex: page, inReplyTo: parent, element: stored.compact)
    }

    private static func pageIndex(_ text: String?, of element: XMLTreeElement) throws -> Int {
        guard let text else { throw XFDFError(line: element.line, message: "<\(element.name)> has no page") }
        guard let page = Int(text), page >= 0, page < mostPages else {
            throw XFDFError(line: element.line, message: "page=\"\(text.prefix(40))\" of <\(element.name)> is not a page number from 0")
        }
        return page
    }

    private static func check(name: String, of element: XMLTreeElement) throws {
        guard !name.isEmpty else { throw XFDFError(line: element.line, message: "<\(element.name)> names no annotation: a shared annotation needs a name") }
        guard name.utf8.count <= longestName else {
            throw XFDFError(line: element.line, message: "the name of <\(element.name)> is longer than \(longestName) bytes")
        }
    }
}
