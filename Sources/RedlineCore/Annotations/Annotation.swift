/// An annotation's identity: its /NM when it has one, else a stable name Redline derives from it.
public struct AnnotationID: RawRepresentable, Sendable, Hashable, Comparable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { rawValue }
}

/// How a reply relates to the annotation it answers (/RT): a reply in the thread, or grouped with it.
public enum ReplyType: String, Sendable, Hashable, Codable {
    case reply
    case group
}

/// One annotation as a reviewer sees it, read from a file or made in this session. Popups are not
/// annotations here: they fold into their parent.
public struct Annotation: Sendable, Hashable, Identifiable {
    public var id: AnnotationID
    public var pageIndex: Int
    public var subtype: AnnotationSubtype
    /// The annotation's area on the displayed page: points, top-left origin, after /Rotate and the crop box.
    public var rect: Rect
    /// /T: who wrote it.
    public var author: String?
    public var created: PDFDate?
    public var modified: PDFDate?
    public var contents: String?
    public var inReplyTo: AnnotationID?
    public var replyType: ReplyType?
    public var state: AnnotationState?
    /// /F, the annotation flags (print, hidden, read-only, …).
    public var flags: Int
    /// Position in the document's own order (page by page, /Annots order): breaks ties between equal dates.
    public var order: Int
    /// Colour, opacity, width, ink strokes, quad points, font size: what it draws besides its rect.
    public var drawing: AnnotationDrawing {
        get { drawingStorage.value }
        set {
            if isKnownUniquelyReferenced(&drawingStorage) {
                drawingStorage.value = newValue
            } else {
                drawingStorage = DrawingStorage(newValue)
            }
        }
        _modify {
            if !isKnownUniquelyReferenced(&drawingStorage) { drawingStorage = DrawingStorage(drawingStorage.value) }
            yield &drawingStorage.value
        }
    }

    /// The drawing held once and shared by copies until one changes it: it is most of an annotation's size (some
    /// 400 bytes of optional fields), and a document's annotations are copied into lists, threads and reports.
    /// With it inline, each copy of 100,000 annotations cost 70 MB.
    private var drawingStorage: DrawingStorage

    private final class DrawingStorage: Hashable, @unchecked Sendable {
        // Changed only through `drawing`'s accessors, and only while uniquely referenced.
        var value: AnnotationDrawing

        init(_ value: AnnotationDrawing) {
            self.value = value
        }

        static func == (left: DrawingStorage, right: DrawingStorage) -> Bool { left === right || left.value == right.value }
        func hash(into hasher: inout Hasher) { hasher.combine(value) }
    }

    public init(id: AnnotationID, pageIndex: Int, subtype: AnnotationSubtype, rect: Rect, author: String? = nil,
                created: PDFDate? = nil, modified: PDFDate? = nil, contents: String? = nil,
                inReplyTo: AnnotationID? = nil, replyType: ReplyType? = nil, state: AnnotationState? = nil,
                flags: Int = 0, order: Int = 0, drawing: AnnotationDrawing = .none) {
        self.id = id
        self.pageIndex = pageIndex
        self.subtype = subtype
        self.rect = rect
        self.author = author
        self.created = created
        self.modified = modified
        self.contents = contents
        self.inReplyTo = inReplyTo
        self.replyType = inReplyTo == nil ? nil : (replyType ?? .reply)
        self.state = state
        self.flags = flags
        self.order = order
        drawingStorage = DrawingStorage(drawing)
    }

    public static let hiddenFlag = 2
    public static let printFlag = 4
    public static let noZoomFlag = 8
    public static let noRotateFlag = 16

    /// Kept upright however its page is turned (NoRotate), as readers show notes: its box on a turned page is
    /// `PageGeometry.displayRect(fromUser:upright:)`.
    public var staysUpright: Bool { Self.staysUpright(flags: flags, subtype: subtype) }

    /// The same, for an annotation being read: from its /F and /Subtype.
    public static func staysUpright(flags: Int, subtype: AnnotationSubtype) -> Bool { flags & noRotateFlag != 0 || subtype == .text }
    public static let noViewFlag = 32
    public static let readOnlyFlag = 64
    public static let lockedFlag = 128
    /// The text may not change, though the annotation may move (PDF 1.7).
    public static let lockedContentsFlag = 512

    public var isReply: Bool { inReplyTo != nil }
    /// A state annotation records a review decision rather than a comment.
    public var isStateChange: Bool { state != nil && inReplyTo != nil }
    /// The read-only flag: the annotation must not be changed or answered.
    public var isReadOnly: Bool { flags & Self.readOnlyFlag != 0 }
    /// The locked flag: the annotation must not be moved, resized or deleted (its contents may change).
    public var isLocked: Bool { flags & Self.lockedFlag != 0 }

    /// When it was written, for ordering a thread: the creation date, else the modification date.
    public var date: PDFDate? { created ?? modified }

    /// When it was last changed, for lists: the modification date, else the creation date.
    public var lastChanged: PDFDate? { modified ?? created }

    /// The first line of the contents, for one-line lists.
    public var firstLine: String {
        // Up to the first line break only: a long note is not split whole to show its first line.
        String((contents ?? "").drop(while: \.isNewline).prefix(while: { !$0.isNewline }))
    }
}
