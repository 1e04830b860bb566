import Foundation

/// The markup file format (docs/markup-format.md): what `redline apply` reads and the crash journal holds.
///
///     {"version": 1, "items": [{"page": 1, "kind": "text", "x": 72, "y": 100,
///                               "text": "Approved", "size": 14, "color": "red"},
///                              {"page": 2, "kind": "ink", "strokes": [[[10, 10], [50, 10]]],
///                               "width": 2, "color": "blue", "opacity": 1.0}]}
///
/// Pages count from 1 in the file and from 0 in memory.
public enum MarkupFile {
    public static let version = 1

    public static func decode(_ data: Data) throws -> MarkupLayer {
        try decodeEdits(data).markup
    }

    /// The markup and, when the file has an `annotations` section, the annotation changes.
    public static func decodeEdits(_ data: Data) throws -> DocumentEdits {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw MarkupFileError("not valid JSON: \(error.localizedDescription)")
        }
        guard let object = root as? [String: Any] else { throw MarkupFileError("the top level must be a JSON object") }
        // A misspelt field would otherwise be ignored without a word, as config.toml's unknown settings are not.
        if let unknown = object.keys.sorted().first(where: { !["version", "document", "items", "annotations", "bookmarks"].contains($0) }) {
            throw MarkupFileError("unknown field \"\(unknown)\" (known: version, document, items, annotations, bookmarks)")
        }
        guard let version = object["version"] as? Int else {
            throw MarkupFileError("field \"version\" is missing or not a whole number")
        }
        guard version == Self.version else {
            throw MarkupFileError("version \(version) is not supported (this Redline reads version \(Self.version))")
        }
        guard let rawItems = object["items"] as? [Any] else { throw MarkupFileError("field \"items\" is missing or not an array") }
        var layer = MarkupLayer()
        for (index, rawItem) in rawItems.enumerated() {
            let (pageIndex, content) = try decodeItem(rawItem, number: index + 1)
            layer.add(pageIndex: pageIndex, content: content)
        }
        var annotations = AnnotationEdits()
        if let section = object["annotations"], !(section is NSNull) {
            do {
                let sectionData = try JSONSerialization.data(withJSONObject: section)
                annotations = try JSONDecoder().decode(AnnotationEdits.self, from: sectionData)
            } catch {
                throw MarkupFileError("field \"annotations\": \(Self.reason(error))")
            }
        }
        var bookmarks: BookmarkList?
        if let section = object["bookmarks"], !(section is NSNull) {
            do {
                let sectionData = try JSONSerialization.data(withJSONObject: section)
                bookmarks = BookmarkList(try JSONDecoder().decode([Bookmark].self, from: sectionData))
            } catch {
                throw MarkupFileError("field \"bookmarks\": \(Self.reason(error))")
            }
        }
        return DocumentEdits(markup: layer, annotations: annotations, bookmarks: bookmarks)
    }

    private static func reason(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            "\(path(context.codingPath + [key])) is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
             DecodingError.dataCorrupted(let context):
            context.codingPath.isEmpty ? context.debugDescription : "\(path(context.codingPath)): \(context.debugDescription)"
        default:
            "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    private static func decodeItem(_ raw: Any, number: Int) throws -> (Int, MarkupContent) {
        guard let item = raw as? [String: Any] else { throw MarkupFileError("item \(number): not a JSON object") }
        let fields = ItemFields(item, number: number)
        let page = try fields.integer("page")
        guard page >= 1 else { throw MarkupFileError.item(number, field: "page", "pages count from 1, got \(page)") }
        let kind = try fields.string("kind")
        let known = kind == "ink" ? ["page", "kind", "strokes", "width", "color", "opacity"] : ["page", "kind", "x", "y", "text", "size", "color"]
        if let unknown = item.keys.sorted().first(where: { !known.contains($0) }), ["text", "ink"].contains(kind) {
            throw MarkupFileError.item(number, field: unknown, "is not a field of a \(kind) item (known: \(known.joined(separator: ", ")))")
        }
        switch kind {
        case "text":
            let text = try fields.string("text")
            guard !text.isEmpty else { throw MarkupFileError.item(number, field: "text", "is empty") }
            let size = try fields.optionalNumber("size") ?? TextMarkup.defaultFontSize
            guard size > 0, size <= 1000 else {
                throw MarkupFileError.item(number, field: "size", "must be above 0 and at most 1000 points, got \(size)")
            }
            let color = try fields.color("color") ?? .red
            let origin = Point(x: try fields.number("x"), y: try fields.number("y"))
            return (page - 1, .text(TextMarkup(origin: origin, text: text, fontSize: size, color: color)))
        case "ink":
            let strokes = try fields.strokes("strokes")
            let width = try fields.optionalNumber("width") ?? 2
            guard width > 0, width <= 200 else {
                throw MarkupFileError.item(number, field: "width", "must be above 0 and at most 200 points, got \(width)")
            }
            let opacity = try fields.optionalNumber("opacity") ?? 1
            guard opacity > 0, opacity <= 1 else {
                throw MarkupFileError.item(number, field: "opacity", "must be above 0 and at most 1, got \(opacity)")
            }
            let color = try fields.color("color") ?? .red
            return (page - 1, .ink(InkMarkup(strokes: strokes, width: width, color: color, opacity: opacity)))
        default:
            throw MarkupFileError.item(number, field: "kind", "unknown kind \"\(kind)\" (expected \"text\" or \"ink\")")
        }
    }

    /// Checks the items against the document they will be applied to: the page exists and the markup lies on it.
    public static func validate(_ layer: MarkupLayer, pageSizes: [Size], measuredBy measurer: some TextMeasuring) throws {
        for (index, item) in layer.items.enumerated() {
            let number = index + 1
            guard pageSizes.indices.contains(item.pageIndex) else {
                throw MarkupFileError.item(number, field: "page",
                                           "page \(item.pageIndex + 1) does not exist (the document has \(pageSizes.count))")
            }
            let size = pageSizes[item.pageIndex]
            if case .ink(let ink) = item.content {
                for point in ink.strokes.joined() where point.x < -0.01 || point.y < -0.01
                    || point.x > size.width + 0.01 || point.y > size.height + 0.01 {
                    throw MarkupFileError.item(number, field: "strokes",
                        "point [\(PDFNumber.format(point.x)), \(PDFNumber.format(point.y))] is off the page (\(PDFNumber.format(size.width)) × \(PDFNumber.format(size.height)))")
                }
                continue
            }
            let box = item.bounds(measuredBy: measurer)
            let slack = 0.01
            if box.minX < -slack || box.minX > size.width + slack {
                throw MarkupFileError.item(number, field: "x", "\(PDFNumber.format(box.minX)) is off the page (0 to \(PDFNumber.format(size.width)))")
            }
            if box.minY < -slack || box.minY > size.height + slack {
                throw MarkupFileError.item(number, field: "y", "\(PDFNumber.format(box.minY)) is off the page (0 to \(PDFNumber.format(size.height)))")
            }
        }
    }

    public static func encode(_ layer: MarkupLayer, document: String? = nil) -> Data {
        encode(DocumentEdits(markup: layer), document: document)
    }

    public static func encode(_ edits: DocumentEdits, document: String? = nil) -> Data {
        let file = EncodedFile(version: version, document: document, items: edits.markup.items.map(EncodedItem.init),
                               annotations: edits.annotations.isEmpty ? nil : edits.annotations,
                               bookmarks: edits.bookmarks?.bookmarks)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and numbers cannot fail.
        return (try? encoder.encode(file)) ?? Data()
    }

    private struct EncodedFile: Encodable {
        let version: Int
        let document: String?
        let items: [EncodedItem]
        let annotations: AnnotationEdits?
        let bookmarks: [Bookmark]?
    }

    /// One item as the file holds it; the fields of the other kinds stay out (nil is not encoded).
    private struct EncodedItem: Encodable {
        let page: Int
        let kind: String
        var x: Double?
        var y: Double?
        var text: String?
        var size: Double?
        var strokes: [[[Double]]]?
        var width: Double?
        var opacity: Double?
        let color: String

        init(_ item: MarkupItem) {
            page = item.pageIndex + 1
            switch item.content {
            case .text(let text):
                kind = "text"
                (x, y) = (text.origin.x, text.origin.y)
                self.text = text.text
                size = text.fontSize
                color = text.color.name
            case .ink(let ink):
                kind = "ink"
                strokes = ink.strokes.map { $0.map { [$0.x, $0.y] } }
                width = ink.width
                opacity = ink.opacity
                color = ink.color.name
            }
        }
    }
}

/// Typed access to one item's fields, with errors that name the item and the field.
private struct ItemFields {
    let values: [String: Any]
    let number: Int

    init(_ values: [String: Any], number: Int) {
        self.values = values
        self.number = number
    }

    func number(_ field: String) throws -> Double {
        guard let value = try optionalNumber(field) else { throw MarkupFileError.item(number, field: field, "is missing") }
        return value
    }

    func optionalNumber(_ field: String) throws -> Double? {
        guard let raw = values[field], !(raw is NSNull) else { return nil }
        guard let value = raw as? NSNumber, !Self.isBoolean(value), value.doubleValue.isFinite else {
            throw MarkupFileError.item(number, field: field, "must be a number")
        }
        return value.doubleValue
    }

    /// JSON true and false arrive as NSNumbers too; their type says which they are.
    private static func isBoolean(_ value: NSNumber) -> Bool {
        String(describing: type(of: value)).contains("Boolean")
    }

    func integer(_ field: String) throws -> Int {
        let value = try number(field)
        guard value == value.rounded(), abs(value) < 1e9 else {
            throw MarkupFileError.item(number, field: field, "must be a whole number")
        }
        return Int(value)
    }

    func string(_ field: String) throws -> String {
        guard let raw = values[field] else { throw MarkupFileError.item(number, field: field, "is missing") }
        guard let value = raw as? String else { throw MarkupFileError.item(number, field: field, "must be a string") }
        return value
    }

    /// `[[[x, y], …], …]`: one array of points per stroke, each with at least one point.
    func strokes(_ field: String) throws -> [[Point]] {
        guard let raw = values[field] else { throw MarkupFileError.item(number, field: field, "is missing") }
        guard let strokes = raw as? [Any], !strokes.isEmpty else {
            throw MarkupFileError.item(number, field: field, "must be a non-empty array of strokes")
        }
        return try strokes.enumerated().map { strokeIndex, rawStroke in
            guard let points = rawStroke as? [Any], !points.isEmpty else {
                throw MarkupFileError.item(number, field: field, "stroke \(strokeIndex + 1) must be a non-empty array of [x, y] points")
            }
            return try points.enumerated().map { pointIndex, rawPoint in
                guard let pair = rawPoint as? [Any], pair.count == 2,
                      let x = pair[0] as? NSNumber, let y = pair[1] as? NSNumber,
                      !Self.isBoolean(x), !Self.isBoolean(y), x.doubleValue.isFinite, y.doubleValue.isFinite else {
                    throw MarkupFileError.item(number, field: field,
                                               "stroke \(strokeIndex + 1), point \(pointIndex + 1) must be [x, y] numbers")
                }
                return Point(x: x.doubleValue, y: y.doubleValue)
            }
        }
    }

    func color(_ field: String) throws -> MarkupColor? {
        guard values[field] != nil else { return nil }
        let name = try string(field)
        guard let color = MarkupColor(name: name) else {
            throw MarkupFileError.item(number, field: field, "\"\(name)\" is not \(MarkupColor.names)")
        }
        return color
    }
}
