/// The JSON form of an annotation (docs/annotations-format.md): what `redline annotations --json` prints
/// and what the journal keeps of unsaved replies. Exactly these keys, absent values as null.
extension Annotation: Codable {
    enum CodingKeys: String, CodingKey {
        case id, page, type, rect, author, created, modified, contents, inReplyTo, replyType, stateModel, state
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(pageIndex + 1, forKey: .page)
        try container.encode(subtype.rawValue, forKey: .type)
        try container.encode(exportedRect, forKey: .rect)
        try container.encode(author, forKey: .author)
        try container.encode(created?.iso8601, forKey: .created)
        try container.encode(modified?.iso8601, forKey: .modified)
        try container.encode(contents, forKey: .contents)
        try container.encode(inReplyTo, forKey: .inReplyTo)
        try container.encode(replyType?.rawValue, forKey: .replyType)
        try container.encode(state?.model.lowercased(), forKey: .stateModel)
        try container.encode(state?.value.lowercased(), forKey: .state)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let box = try container.decode([Double].self, forKey: .rect)
        guard box.count == 4 else {
            throw DecodingError.dataCorruptedError(forKey: .rect, in: container, debugDescription: "needs [x0, y0, x1, y1]")
        }
        func date(_ key: CodingKeys) throws -> PDFDate? {
            guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let date = PDFDate(iso8601: text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not an ISO 8601 date")
            }
            return date
        }
        let model = try container.decodeIfPresent(String.self, forKey: .stateModel).map(Self.capitalised)
        let value = try container.decodeIfPresent(String.self, forKey: .state).map(Self.capitalised)
        let state = AnnotationState(model: model, value: value)
        let inReplyTo = try container.decodeIfPresent(AnnotationID.self, forKey: .inReplyTo)
        self.init(id: try container.decode(AnnotationID.self, forKey: .id),
                  pageIndex: try container.decode(Int.self, forKey: .page) - 1,
                  subtype: AnnotationSubtype(rawValue: try container.decode(String.self, forKey: .type)),
                  rect: Rect(x: box[0], y: box[1], width: box[2] - box[0], height: box[3] - box[1]),
                  author: try container.decodeIfPresent(String.self, forKey: .author),
                  created: try date(.created), modified: try date(.modified),
                  contents: try container.decodeIfPresent(String.self, forKey: .contents),
                  inReplyTo: inReplyTo,
                  replyType: try container.decodeIfPresent(ReplyType.self, forKey: .replyType),
                  state: state,
                  flags: Annotation.printFlag | Annotation.noZoomFlag | Annotation.noRotateFlag
                      | (state != nil && inReplyTo != nil ? Annotation.noViewFlag : 0))
        // What this form is read back for are the notes a session made (the journal): replies and state changes, which
        // look as Acrobat's do.
        if subtype == .text { drawing = AnnotationEdits.noteDrawing }
    }

    /// The rectangle as exported, `[x0, y0, x1, y1]` in hundredths of a point: enough for any reader, and stable
    /// across runs.
    public var exportedRect: [Double] { [rect.minX, rect.minY, rect.maxX, rect.maxY].map { ($0 * 100).rounded() / 100 } }

    private static func capitalised(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
}

extension AnnotationID: CodingKeyRepresentable {
    public var codingKey: any CodingKey { AnyKey(stringValue: rawValue) }
    public init?<T: CodingKey>(codingKey: T) { self.init(codingKey.stringValue) }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
