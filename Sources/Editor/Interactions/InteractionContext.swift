import RedlineCore

/// What an interaction is about, given to its activation conditions and callbacks: the page, and for the
/// annotation components the markup or annotation, for `openLinkAnnotation` the link, for `smartZoom` the
/// rectangle it zooms to. `toggleUserInterface` and the page-turning `fastScroll` have only the page.
public struct InteractionContext: Sendable, Hashable {
    public var component: InteractionComponentName
    /// From 0.
    public var pageIndex: Int
    public var annotation: InteractionSubject?
    public var link: PageLink?
    /// Display space.
    public var targetRect: Rect?
    /// Who is using the editor: `author = "self"` compares an annotation's author with this.
    public var reviewer: String

    public init(component: InteractionComponentName, pageIndex: Int, annotation: InteractionSubject? = nil, link: PageLink? = nil,
                targetRect: Rect? = nil, reviewer: String) {
        self.component = component
        self.pageIndex = pageIndex
        self.annotation = annotation
        self.link = link
        self.targetRect = targetRect
        self.reviewer = reviewer
    }
}

/// A markup this session made, or an annotation the file carries, as conditions see it.
public struct InteractionSubject: Sendable, Hashable, Codable {
    /// The markup file's kinds for markup (`text`, `ink`, `highlight`, `underline`, `strike-out`); for a file's
    /// annotation its subtype the same way (`free-text`, `ink`, `highlight`, `note` for a sticky note, `square` …).
    public var kind: String
    /// Markup made in the editor is the reviewer's own; an annotation's is its /T.
    public var author: String?
    public var pageIndex: Int
    /// Display space.
    public var rect: Rect
    /// True for the editor's markup, false for an annotation the file carries.
    public var isMarkup: Bool
    /// The markup's or annotation's id.
    public var id: String

    public init(kind: String, author: String?, pageIndex: Int, rect: Rect, isMarkup: Bool, id: String) {
        self.kind = kind
        self.author = author
        self.pageIndex = pageIndex
        self.rect = rect
        self.isMarkup = isMarkup
        self.id = id
    }

    public init(_ item: MarkupItem, author: String, measuredBy measurer: any TextMeasuring) {
        let kind: String
        switch item.content {
        case .text: kind = "text"
        case .ink: kind = "ink"
        case .textMarks(let marks): kind = marks.kind.rawValue
        // Named as the annotation it is saved as, so that one rule governs a drawn rectangle and a file's square.
        case .shape(let shape): kind = Self.kindName(shape.kind.subtype.rawValue)
        }
        self.init(kind: kind, author: author, pageIndex: item.pageIndex, rect: item.bounds(measuredBy: measurer),
                  isMarkup: true, id: item.id.description)
    }

    public init(_ annotation: Annotation) {
        self.init(kind: Self.kindName(annotation.subtype.rawValue), author: annotation.author, pageIndex: annotation.pageIndex,
                  rect: annotation.rect, isMarkup: false, id: annotation.id.rawValue)
    }

    /// `FreeText` → `free-text`, `StrikeOut` → `strike-out`; `Text` (a sticky note) → `note`, so that `text`
    /// means a text markup wherever it is written.
    static func kindName(_ subtype: String) -> String {
        if subtype == "Text" { return "note" }
        var name = ""
        for (index, character) in subtype.enumerated() {
            if character.isUppercase, index > 0 { name += "-" }
            name += character.lowercased()
        }
        return name
    }
}

extension LinkTarget {
    /// How conditions name a link's target: `destination`, `uri`, `named` or `unsupported`.
    public var kindName: String {
        switch self {
        case .destination: "destination"
        case .uri: "uri"
        case .named: "named"
        case .unsupported: "unsupported"
        }
    }
}
