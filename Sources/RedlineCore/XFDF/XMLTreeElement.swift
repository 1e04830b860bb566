/// An XML element as the XFDF reader and writer see it: attributes in their order, children as elements and text.
/// Small on purpose: no DTD, no entities but XML's five; names kept as written, with the namespace the reader
/// resolved for the element beside them.
public struct XMLTreeElement: Sendable, Hashable {
    public enum Child: Sendable, Hashable {
        case element(XMLTreeElement)
        case text(String)
    }

    public var name: String
    public var attributes: [(name: String, value: String)]
    public var children: [Child]
    /// Where the element starts in the file it was read from, for messages; 0 for one made in code.
    public var line: Int
    /// The namespace URI of the element's name, as the reader resolved it; nil for none, or for one made in code.
    public var namespace: String?

    public init(_ name: String, attributes: [(name: String, value: String)] = [], children: [Child] = [], line: Int = 0,
                namespace: String? = nil) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.line = line
        self.namespace = namespace
    }

    /// The name without its prefix.
    public var localName: Substring {
        name.firstIndex(of: ":").map { name[name.index(after: $0)...] } ?? name[...]
    }

    public subscript(attribute name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    public var elements: [XMLTreeElement] {
        children.compactMap { if case .element(let element) = $0 { element } else { nil } }
    }

    public func first(_ name: String) -> XMLTreeElement? { elements.first { $0.name == name } }

    /// The text directly inside, CDATA included.
    public var text: String {
        children.map { if case .text(let text) = $0 { text } else { "" } }.joined()
    }

    public static func == (lhs: XMLTreeElement, rhs: XMLTreeElement) -> Bool {
        lhs.name == rhs.name && lhs.children == rhs.children && lhs.line == rhs.line
            && lhs.attributes.map(\.name) == rhs.attributes.map(\.name) && lhs.attributes.map(\.value) == rhs.attributes.map(\.value)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        for attribute in attributes { hasher.combine(attribute.name); hasher.combine(attribute.value) }
        hasher.combine(children)
    }
}

extension XMLTreeElement {
    /// The tree with the names of `namespace`'s elements (and of elements in no namespace, as some tools write
    /// XFDF) written without their prefix, as XFDF is read: `xfdf:annots` is `annots`. Other names stay as written
    /// (the element keeps its namespace, which `isXFDFRoot` checks). What elements named in `opaque` hold (rich
    /// text's XHTML) stays as written.
    /// Whether this is an `<xfdf>` root: of XFDF's namespace or of none (`<xfdf xmlns="urn:other">` is not).
    public var isXFDFRoot: Bool { name == "xfdf" && (namespace == nil || namespace == XFDF.namespace) }

    /// The element's name for a message, with its namespace when that is not XFDF's.
    public var shownName: String {
        namespace == nil || namespace == XFDF.namespace ? "<\(name)>" : "<\(name)> of namespace \(namespace!)"
    }

    public func unprefixed(in namespace: String, keeping opaque: Set<String>) -> XMLTreeElement {
        var copy = self
        if self.namespace == nil || self.namespace == namespace { copy.name = String(localName) }
        guard !opaque.contains(copy.name) else { return copy }
        copy.children = children.map { child in
            if case .element(let element) = child { .element(element.unprefixed(in: namespace, keeping: opaque)) } else { child }
        }
        return copy
    }

    /// The element as XML text, children indented two spaces a level; elements with text keep it exact.
    public func serialized(indent: Int = 0) -> String {
        let pad = String(repeating: " ", count: indent)
        var out = pad + "<" + name
        for attribute in attributes { out += " \(attribute.name)=\"\(Self.escape(attribute.value, attribute: true))\"" }
        if children.isEmpty { return out + "/>" }
        if elements.isEmpty { return out + ">" + Self.escape(text, attribute: false) + "</\(name)>" }
        // Rich text is XHTML, where a space between two elements is a word space: it is written exactly as it is.
        if Self.keptExactly.contains(name) {
            return out + ">" + childrenCompact + "</\(name)>"
        }
        out += ">\n"
        for child in children {
            switch child {
            case .element(let element): out += element.serialized(indent: indent + 2) + "\n"
            case .text(let text) where !text.allSatisfy(\.isWhitespace): out += pad + "  " + Self.escape(text, attribute: false) + "\n"
            case .text: break
            }
        }
        return out + pad + "</\(name)>"
    }

    /// Elements whose content is written on one line exactly as it is, never indented.
    static let keptExactly: Set<String> = ["contents-richtext"]

    /// The element as XML text on one line, every character of its text kept.
    public var compact: String {
        var out = "<" + name
        for attribute in attributes { out += " \(attribute.name)=\"\(Self.escape(attribute.value, attribute: true))\"" }
        return children.isEmpty ? out + "/>" : out + ">" + childrenCompact + "</\(name)>"
    }

    /// What the element holds as XML text on one line.
    public var childrenCompact: String {
        children.map { child in
            switch child {
            case .element(let element): element.compact
            case .text(let text): Self.escape(text, attribute: false)
            }
        }.joined()
    }

    /// `&`, `<`, `>` and in attributes `"` as entities; tab and line ends in attributes, and a carriage return
    /// anywhere, as character references, so they read back as they were. Characters XML 1.0 cannot hold at all,
    /// even as references (the C0 controls but tab and line ends, ESC among them), become U+FFFD: a strict reader
    /// elsewhere (expat, libxml2, Java) would otherwise refuse the whole file.
    static func escape(_ text: String, attribute: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            case "\r": out += "&#13;"
            case "\t", "\n":
                if attribute { out += "&#\(scalar.value);" } else { out.unicodeScalars.append(scalar) }
            default:
                if !XMLReader.isAllowed(scalar) {
                    out += "\u{FFFD}"
                } else if (0x7F...0x9F).contains(scalar.value) {
                    out += "&#\(scalar.value);"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
