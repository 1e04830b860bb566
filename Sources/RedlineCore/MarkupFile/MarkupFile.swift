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
        // JSON is UTF-8: other bytes (Latin-1 from an old editor) would be met as "not a string" in some field.
        if String(validating: data, as: UTF8.self) == nil {
            var offset = 0
            while offset < data.count, String(validating: data.prefix(offset + 1), as: UTF8.self) != nil
                    || data[data.startIndex + offset] >= 0x80 && offset + 4 > data.count { offset += 1 }
            let line = data.prefix(offset).filter { $0 == 0x0A }.count + 1
            throw MarkupFileError("not UTF-8 text: line \(line) holds the byte 0x\(String(data[data.startIndex + min(offset, data.count - 1)], radix: 16, uppercase: true)), which UTF-8 does not allow there (save the file as UTF-8)")
        }
        if let problem = JSONShape.problemAroundTheValue(in: Array(data)) { throw MarkupFileError("not valid JSON: \(problem)") }
        // Foundation's decoder takes a comma before `]` or `}`, which JSON does not allow and other readers refuse.
        if let comma = JSONShape.trailingComma(in: Array(data)) {
            throw MarkupFileError("not valid JSON: a comma before \"\(comma.closing)\" at line \(comma.line), column \(comma.column) (JSON allows none after the last entry)")
        }
        do {
            let decoder = JSONDecoder()
            decoder.userInfo[fileHashKey] = StableHash.fnv1a64(data)
            let edits = try decoder.decode(DecodedFile.self, from: data).edits
            if let repeated = RepeatedJSONKeys.first(in: Array(data)) {
                let place = repeated.path.hasPrefix("items[")
                    ? "item \((Int(repeated.path.dropFirst(6).prefix { $0.isNumber }) ?? 0) + 1)" : repeated.path
                throw MarkupFileError("\(place): field \"\(repeated.key)\" is given twice")
            }
            return edits
        } catch let error as MarkupFileError {
            throw error
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw MarkupFileError("the top level must be a JSON object")
        } catch DecodingError.valueNotFound(_, let context) where context.codingPath.isEmpty {
            // `null` at the top: Foundation's words ("Cannot get keyed decoding container") say nothing to a user.
            throw MarkupFileError("the top level must be a JSON object")
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw MarkupFileError("not valid JSON: \(syntaxProblem(in: data) ?? context.debugDescription)")
        } catch {
            throw MarkupFileError(reason(error, droppingFirst: 0))
        }
    }

    /// What Foundation's JSON parser says is wrong, and where ("Unexpected character 'x' around line 2, column 7."):
    /// the decoder's own error says only that the data is not valid.
    static func syntaxProblem(in data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            guard let said = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String else { return nil }
            // "around character 34": the line and column an editor shows.
            guard let range = said.range(of: #"character \d+"#, options: .regularExpression),
                  let offset = Int(said[range].dropFirst("character ".count)), offset <= data.count else { return said }
            let before = data.prefix(offset)
            let line = before.filter { $0 == 0x0A }.count + 1
            let column = before.count - (before.lastIndex(of: 0x0A).map { $0 - data.startIndex + 1 } ?? 0) + 1
            return said.replacingCharacters(in: range, with: "line \(line), column \(column)")
        }
    }

    static let fileHashKey = CodingUserInfoKey(rawValue: "redline.markup-file-hash")!

    /// A decoding error in the words of the format: the path of the field, then what is wrong with it.
    static func reason(_ error: Error, droppingFirst dropped: Int) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "\(path(Array((context.codingPath + [key]).dropFirst(dropped)))) is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
             DecodingError.dataCorrupted(let context):
            let keys = Array(context.codingPath.dropFirst(dropped))
            return keys.isEmpty ? context.debugDescription : "\(path(keys)): \(context.debugDescription)"
        default:
            return "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    /// Checks the items against the document they will be applied to: the page exists and the markup lies on it.
    /// `placing` false checks only that the markup can be drawn at all (the page exists, every point on it): what a
    /// crash journal must pass, whose last text may be still being typed, and is held to the placing rules (the
    /// font's glyphs, the page's right and bottom edges) only when committed.
    /// Bookmarks lead to pages the document has.
    public static func validate(_ bookmarks: BookmarkList?, pageCount: Int) throws {
        for (index, bookmark) in (bookmarks?.bookmarks ?? []).enumerated() {
            if let page = bookmark.pageIndex, page < 0 || page >= pageCount {
                throw MarkupFileError("bookmark \(index + 1): page index \(page) is not a page of the document (0 to \(pageCount - 1))")
            }
        }
    }

    public static func validate(_ layer: MarkupLayer, pageSizes: [Size], measuredBy measurer: some TextMeasuring,
                                placing: Bool = true) throws {
        for (index, item) in layer.items.enumerated() {
            let number = index + 1
            guard pageSizes.indices.contains(item.pageIndex) else {
                throw MarkupFileError.item(number, field: "page",
                                           "page \(item.pageIndex + 1) does not exist (the document has \(pageSizes.count))")
            }
            let size = pageSizes[item.pageIndex]
            if case .textMarks(let marks) = item.content {
                for rect in marks.rects where rect.minX < -0.01 || rect.minY < -0.01
                    || rect.maxX > size.width + 0.01 || rect.maxY > size.height + 0.01 {
                    throw MarkupFileError.item(number, field: "rects",
                        "[\(PDFNumber.shown(rect.minX)), \(PDFNumber.shown(rect.minY)), \(PDFNumber.shown(rect.width)), \(PDFNumber.shown(rect.height))] is off the page (\(PDFNumber.shown(size.width)) × \(PDFNumber.shown(size.height)))")
                }
                continue
            }
            // An ink's and a shape's points lie on the page; the line's width and an arrow's head may reach past them.
            func onThePage(_ points: some Sequence<Point>, field: String) throws {
                for point in points where point.x < -0.01 || point.y < -0.01 || point.x > size.width + 0.01 || point.y > size.height + 0.01 {
                    throw MarkupFileError.item(number, field: field,
                        "point [\(PDFNumber.shown(point.x)), \(PDFNumber.shown(point.y))] is off the page (\(PDFNumber.shown(size.width)) × \(PDFNumber.shown(size.height)))")
                }
            }
            if case .shape(let shape) = item.content {
                try onThePage(shape.points, field: "points")
                // A stamp's words are drawn in the bundled font, as a text item's are.
                if placing, let words = shape.stampWords, let problem = measurer.undrawable(words) {
                    throw MarkupFileError.item(number, field: "name", problem)
                }
                continue
            }
            if case .ink(let ink) = item.content {
                try onThePage(ink.strokes.joined(), field: "strokes")
                continue
            }
            guard case .text(let text) = item.content else { continue }
            if placing, let problem = measurer.undrawable(text.text) {
                throw MarkupFileError.item(number, field: "text", problem)
            }
            // A callout's spot lies on the page, as a shape's points do; its words are held to the rules below.
            if let tip = text.pointsAt { try onThePage([tip], field: "callout") }
            let box = text.textBox(measuredBy: measurer)
            guard box.width <= size.width + 0.01 || !placing else {
                throw MarkupFileError.item(number, field: "text", "\(PDFNumber.shown(box.width.rounded())) pt wide at this size, "
                                           + "wider than its page (\(PDFNumber.shown(size.width)) pt): shorten it or make it smaller")
            }
            let slack = 0.01
            if box.minX < -slack || box.minX > size.width + slack {
                throw MarkupFileError.item(number, field: "x", "\(PDFNumber.shown(box.minX)) is off the page (0 to \(PDFNumber.shown(size.width)))")
            }
            if box.minY < -slack || box.minY > size.height + slack {
                throw MarkupFileError.item(number, field: "y", "\(PDFNumber.shown(box.minY)) is off the page (0 to \(PDFNumber.shown(size.height)))")
            }
            // The editor keeps text wholly on its page (typing past an edge pulls it back, a nudge stops there): a
            // markup file is held to the same rule.
            if placing, box.maxX > size.width + slack {
                throw MarkupFileError.item(number, field: "x", "the text runs past the page's right edge (to \(PDFNumber.shown(box.maxX.rounded())) of "
                                           + "\(PDFNumber.shown(size.width)) pt): move it left to at most \(PDFNumber.shown((size.width - box.width).rounded(.down)))")
            }
            if placing, box.maxY > size.height + slack {
                throw MarkupFileError.item(number, field: "y", "the text runs past the page's bottom edge (to \(PDFNumber.shown(box.maxY.rounded())) of "
                                           + "\(PDFNumber.shown(size.height)) pt): move it up to at most \(PDFNumber.shown((size.height - box.height).rounded(.down)))")
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
        let id: String
        let page: Int
        let kind: String
        var x: Double?
        var y: Double?
        var text: String?
        var size: Double?
        var strokes: [[[Double]]]?
        var width: Double?
        var opacity: Double?
        var rects: [[Double]]?
        var points: [[Double]]?
        var fill: Bool?
        var name: String?
        var callout: [Double]?
        var comment: String?
        let color: String

        init(_ item: MarkupItem) {
            id = item.id.rawValue.uuidString
            page = item.pageIndex + 1
            comment = item.takesComment ? item.comment : nil
            switch item.content {
            case .text(let text):
                kind = "text"
                (x, y) = (text.origin.x, text.origin.y)
                self.text = text.text
                size = text.fontSize
                callout = text.pointsAt.map { [$0.x, $0.y] }
                color = text.color.name
            case .textMarks(let marks):
                kind = marks.kind.rawValue
                rects = marks.rects.map { [$0.minX, $0.minY, $0.width, $0.height] }
                color = marks.color.name
            case .shape(let shape):
                kind = shape.kind.rawValue
                points = shape.points.map { [$0.x, $0.y] }
                width = shape.kind == .note ? nil : shape.width
                fill = shape.filled ? true : nil
                name = shape.stampName
                color = shape.color.name
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

