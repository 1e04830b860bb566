import Foundation

/// Reading a markup file with `Decodable`, field by field, so that every refusal names the item (counting
/// from 1) and the field, in the words of docs/markup-format.md rather than the decoder's.
extension MarkupFile {
    struct DecodedFile: Decodable {
        let edits: DocumentEdits

        static let fields = ["version", "document", "items", "annotations", "bookmarks"]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: FieldKey.self)
            // A misspelt field would otherwise be ignored without a word, as config.toml's unknown settings are not.
            if let unknown = container.allKeys.map(\.stringValue).sorted().first(where: { !Self.fields.contains($0) }) {
                throw MarkupFileError("unknown field \"\(unknown)\" (known: \(Self.fields.joined(separator: ", ")))")
            }
            guard let version = try? container.decode(Double.self, forKey: FieldKey("version")),
                  version == version.rounded(), abs(version) < 1e9 else {
                throw MarkupFileError("field \"version\" is missing or not a whole number")
            }
            guard Int(version) == MarkupFile.version else {
                throw MarkupFileError("version \(Int(version)) is not supported (this Redline reads version \(MarkupFile.version))")
            }
            guard var items = try? container.nestedUnkeyedContainer(forKey: FieldKey("items")) else {
                throw MarkupFileError("field \"items\" is missing or not an array")
            }
            var layer = MarkupLayer()
            let fileHash = decoder.userInfo[MarkupFile.fileHashKey] as? UInt64 ?? 0
            while !items.isAtEnd {
                let number = items.currentIndex + 1
                let decoded = try DecodedItem(from: try items.superDecoder(), number: number)
                // Items without an id get one derived from the file and their place in it: reading the same
                // file twice gives the same ids.
                let id = decoded.id ?? MarkupID(StableUUID.derived(seed: fileHash, item: "markup item \(number)"))
                guard layer.item(id) == nil else {
                    throw MarkupFileError.item(number, field: "id", "\(id) is the id of an earlier item")
                }
                layer.add(MarkupItem(id: id, pageIndex: decoded.pageIndex, content: decoded.content, comment: decoded.comment))
            }
            var annotations = AnnotationEdits()
            var bookmarks: BookmarkList?
            do {
                annotations = try container.decodeIfPresent(AnnotationEdits.self, forKey: FieldKey("annotations")) ?? AnnotationEdits()
            } catch {
                throw MarkupFileError("field \"annotations\": \(MarkupFile.reason(error, droppingFirst: 1))")
            }
            do {
                bookmarks = try container.decodeIfPresent([Bookmark].self, forKey: FieldKey("bookmarks")).map(BookmarkList.init)
            } catch {
                throw MarkupFileError("field \"bookmarks\": \(MarkupFile.reason(error, droppingFirst: 1))")
            }
            // Two bookmarks of one id would be one in every list and provider, and the other lost on the next save.
            var ids: Set<String> = []
            for (index, bookmark) in (bookmarks?.bookmarks ?? []).enumerated() {
                guard !bookmark.id.isEmpty else { throw MarkupFileError("bookmark \(index + 1): its id is empty") }
                guard ids.insert(bookmark.id.uppercased()).inserted else {
                    throw MarkupFileError("bookmark \(index + 1): its id is the id of an earlier bookmark")
                }
            }
            edits = DocumentEdits(markup: layer, annotations: annotations, bookmarks: bookmarks)
        }
    }

    /// One text or ink item.
    struct DecodedItem {
        let id: MarkupID?
        let pageIndex: Int
        let content: MarkupContent
        let comment: String?

        static let textFields = ["id", "page", "kind", "x", "y", "text", "size", "color", "callout"]
        static let inkFields = ["id", "page", "kind", "strokes", "width", "color", "opacity", "comment"]
        static let marksFields = ["id", "page", "kind", "rects", "color", "comment"]
        static let shapeFields = ["id", "page", "kind", "points", "width", "color", "fill", "comment"]
        static let stampFields = ["id", "page", "kind", "points", "name", "width", "color", "comment"]
        static let noteFields = ["id", "page", "kind", "points", "color", "comment"]

        init(from decoder: any Decoder, number: Int) throws {
            guard let container = try? decoder.container(keyedBy: FieldKey.self) else {
                throw MarkupFileError("item \(number): not a JSON object")
            }
            let fields = ItemFields(container: container, number: number)
            let page = try fields.integer("page")
            guard page >= 1 else { throw MarkupFileError.item(number, field: "page", "pages count from 1, got \(page)") }
            let kind = try fields.string("kind")
            let marksKind = TextMarks.Kind(rawValue: kind)
            let shapeKind = ShapeMarkup.Kind(rawValue: kind)
            let known = kind == "ink" ? Self.inkFields : marksKind != nil ? Self.marksFields : shapeKind == .stamp ? Self.stampFields
                : shapeKind == .note ? Self.noteFields : shapeKind != nil ? Self.shapeFields : Self.textFields
            if ["text", "ink"].contains(kind) || marksKind != nil || shapeKind != nil,
               let unknown = container.allKeys.map(\.stringValue).sorted().first(where: { !known.contains($0) }) {
                throw MarkupFileError.item(number, field: unknown, "is not a field of \(["ink", "underline", "ellipse", "arrow"].contains(kind) ? "an" : "a") \(kind) item (known: \(known.joined(separator: ", ")))")
            }
            pageIndex = page - 1
            // Line breaks are a comment's own (a popup shows them); other control characters would reach terminals.
            comment = try fields.optionalString("comment").flatMap { $0.isEmpty ? nil : $0 }
            if let comment, let control = ControlCharacters.first(in: comment, allowingLineBreaks: true) {
                throw MarkupFileError.item(number, field: "comment", "contains the control character \(control)")
            }
            if let text = try fields.optionalString("id") {
                guard let uuid = UUID(uuidString: text) else {
                    throw MarkupFileError.item(number, field: "id", "\"\(text)\" is not a UUID")
                }
                id = MarkupID(uuid)
            } else {
                id = nil
            }
            switch kind {
            case "text":
                let text = try fields.string("text")
                guard !text.isEmpty else { throw MarkupFileError.item(number, field: "text", "is empty") }
                if let control = ControlCharacters.first(in: text) {
                    throw MarkupFileError.item(number, field: "text", "contains the control character \(control)")
                }
                let size = try fields.optionalNumber("size") ?? TextMarkup.defaultFontSize
                guard size >= 1, size <= 1000 else {
                    throw MarkupFileError.item(number, field: "size", "must be at least 1 and at most 1000 points, got \(PDFNumber.shown(size))")
                }
                let color = try fields.color("color") ?? .red
                let origin = Point(x: try fields.number("x"), y: try fields.number("y"))
                // A callout's spot: where its line and arrow point.
                let pointsAt = try fields.optionalPoint("callout", meaning: "the spot the line points at")
                content = .text(TextMarkup(origin: origin, text: text, fontSize: size, color: color, pointsAt: pointsAt))
            case "ink":
                let strokes = try fields.strokes("strokes")
                let width = try fields.optionalNumber("width") ?? 2
                guard width >= 0.01, width <= 200 else {
                    throw MarkupFileError.item(number, field: "width", "must be at least 0.01 and at most 200 points, got \(PDFNumber.shown(width))")
                }
                let opacity = try fields.optionalNumber("opacity") ?? 1
                guard opacity >= 0.01, opacity <= 1 else {
                    throw MarkupFileError.item(number, field: "opacity", "must be at least 0.01 and at most 1, got \(PDFNumber.shown(opacity))")
                }
                let color = try fields.color("color") ?? .red
                content = .ink(InkMarkup(strokes: strokes, width: width, color: color, opacity: opacity))
            case _ where marksKind != nil:
                let rects = try fields.rects("rects")
                content = .textMarks(TextMarks(kind: marksKind ?? .highlight, rects: rects,
                                               color: try fields.color("color") ?? (marksKind == .highlight ? .yellow : .red)))
            case "note":
                // One corner places the usual icon there; two say its square.
                var points = try fields.points("points", kind: .note)
                if points.count == 1 { points = ShapeMarkup.note(at: points[0], color: .yellow).points }
                if let problem = ShapeMarkup.noteBoxProblem(points) { throw MarkupFileError.item(number, field: "points", problem) }
                content = .shape(ShapeMarkup(kind: .note, points: points, color: try fields.color("color") ?? .yellow))
            case _ where shapeKind != nil:
                let shapeKind = shapeKind ?? .rectangle
                let points = try fields.points("points", kind: shapeKind)
                let width = try fields.optionalNumber("width") ?? 2
                guard width >= 0.01, width <= 200 else {
                    throw MarkupFileError.item(number, field: "width", "must be at least 0.01 and at most 200 points, got \(PDFNumber.shown(width))")
                }
                let fill = try fields.optionalBoolean("fill") ?? false
                if fill, !shapeKind.canBeFilled {
                    throw MarkupFileError.item(number, field: "fill", "a \(kind) has no inside to fill (a rectangle, an ellipse or a polygon has)")
                }
                var stampName: String?
                if shapeKind == .stamp {
                    let name = ShapeMarkup.stampName(forWords: try fields.optionalString("name") ?? "Draft")
                    guard !name.isEmpty else {
                        throw MarkupFileError.item(number, field: "name",
                            "must be a standard stamp's name (\(ShapeMarkup.standardStamps.prefix(3).joined(separator: ", "))…) or words of your own")
                    }
                    if let problem = ShapeMarkup.stampNameProblem(name) { throw MarkupFileError.item(number, field: "name", problem) }
                    stampName = name
                }
                let shape = ShapeMarkup(kind: shapeKind, points: points, width: width, color: try fields.color("color") ?? .red, filled: fill,
                                        stampName: stampName)
                if !shape.drawsSomething {
                    throw MarkupFileError.item(number, field: "points", shapeKind.takesCorners || shapeKind == .line || shapeKind == .arrow
                        ? "the \(kind)'s points draw nothing: \(shapeKind == .polygon ? "its corners lie on one line" : "they are all one point")"
                        : "the \(kind)'s corners enclose nothing: its box has no width or no height")
                }
                content = .shape(shape)
            default:
                let kinds = (["text", "ink"] + TextMarks.Kind.allCases.map(\.rawValue) + ShapeMarkup.Kind.allCases.map(\.rawValue)).map { "\"\($0)\"" }
                throw MarkupFileError.item(number, field: "kind", "unknown kind \"\(kind)\" (expected \(kinds.dropLast().joined(separator: ", ")) or \(kinds.last ?? ""))")
            }
        }
    }

    struct FieldKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// Typed access to one item's fields, with errors that name the item and the field.
private struct ItemFields {
    let container: KeyedDecodingContainer<MarkupFile.FieldKey>
    let number: Int

    private func key(_ field: String) -> MarkupFile.FieldKey { MarkupFile.FieldKey(field) }

    /// Present and not null.
    private func has(_ field: String) -> Bool {
        container.contains(key(field)) && (try? container.decodeNil(forKey: key(field))) == false
    }

    func number(_ field: String) throws -> Double {
        guard let value = try optionalNumber(field) else { throw MarkupFileError.item(number, field: field, "is missing") }
        return value
    }

    /// JSON's true and false, strings, and numbers too large for a double are no numbers.
    func optionalNumber(_ field: String) throws -> Double? {
        guard has(field) else { return nil }
        guard let value = try? container.decode(Double.self, forKey: key(field)), value.isFinite else {
            // A number JSON allows and a double cannot hold (1e400) is none of JSON's other kinds either.
            throw MarkupFileError.item(number, field: field, holdsAnotherKind(field) ? "must be a number" : "is too large to be a number of points")
        }
        return value
    }

    /// Whether the field holds a value of one of JSON's kinds (a number a double holds, text, true or false, an array,
    /// an object): when it holds none, what is there is what the parser could not take as written.
    private func holdsAnotherKind(_ field: String) -> Bool {
        (try? container.decode(Double.self, forKey: key(field))) != nil || (try? container.decode(String.self, forKey: key(field))) != nil
            || (try? container.decode(Bool.self, forKey: key(field))) != nil
            || (try? container.nestedUnkeyedContainer(forKey: key(field))) != nil
            || (try? container.nestedContainer(keyedBy: MarkupFile.FieldKey.self, forKey: key(field))) != nil
            || (try? container.decodeNil(forKey: key(field))) == true
    }

    func integer(_ field: String) throws -> Int {
        let value = try number(field)
        guard value == value.rounded() else { throw MarkupFileError.item(number, field: field, "must be a whole number") }
        guard abs(value) < 1e9 else { throw MarkupFileError.item(number, field: field, "\(PDFNumber.shown(value)) is too large") }
        return Int(value)
    }

    func string(_ field: String) throws -> String {
        guard container.contains(key(field)) else { throw MarkupFileError.item(number, field: field, "is missing") }
        guard let value = try? container.decode(String.self, forKey: key(field)) else {
            // A string JSON does not allow (a control character typed into it unescaped) is none of the other kinds.
            throw MarkupFileError.item(number, field: field, holdsAnotherKind(field)
                ? "must be a string" : "is not a valid JSON string: a control character (a line break, a tab, an escape) must be written as \\n, \\t or \\u001b, and a \\u escape must name a whole character (a surrogate comes in pairs)")
        }
        return value
    }

    func optionalString(_ field: String) throws -> String? {
        guard has(field) else { return nil }
        return try string(field)
    }

    /// `[[[x, y], …], …]`: one array of points per stroke, each with at least one point.
    func strokes(_ field: String) throws -> [[Point]] {
        guard container.contains(key(field)) else { throw MarkupFileError.item(number, field: field, "is missing") }
        guard var strokes = try? container.nestedUnkeyedContainer(forKey: key(field)), strokes.count != 0 else {
            throw MarkupFileError.item(number, field: field, "must be a non-empty array of strokes")
        }
        var result: [[Point]] = []
        while !strokes.isAtEnd {
            let strokeNumber = strokes.currentIndex + 1
            guard var points = try? strokes.nestedUnkeyedContainer(), points.count != 0 else {
                throw MarkupFileError.item(number, field: field, "stroke \(strokeNumber) must be a non-empty array of [x, y] points")
            }
            var stroke: [Point] = []
            while !points.isAtEnd {
                let pointNumber = points.currentIndex + 1
                guard let pair = try? points.decode([Double].self), pair.count == 2, pair.allSatisfy(\.isFinite) else {
                    throw MarkupFileError.item(number, field: field, "stroke \(strokeNumber), point \(pointNumber) must be [x, y] numbers")
                }
                stroke.append(Point(x: pair[0], y: pair[1]))
            }
            result.append(stroke)
        }
        return result
    }

    /// `[[x, y], …]`: a box's two corners or a line's two ends, or a polygon's or polyline's corners.
    func points(_ field: String, kind: ShapeMarkup.Kind) throws -> [Point] {
        guard container.contains(key(field)) else { throw MarkupFileError.item(number, field: field, "is missing") }
        let expected = kind.takesCorners ? "\(kind.leastPoints) to \(ShapeMarkup.mostCorners) points [x, y]"
            : kind == .note ? "one corner [x, y] or two opposite corners of a square"
            : [.rectangle, .ellipse, .stamp].contains(kind) ? "two opposite corners [x, y]" : "two ends [x, y]"
        guard let pairs = try? container.decode([[Double]].self, forKey: key(field)) else {
            // Which point is not [x, y] numbers, in a polygon of thousands.
            if var list = try? container.nestedUnkeyedContainer(forKey: key(field)) {
                while !list.isAtEnd {
                    let index = list.currentIndex
                    if (try? list.decode([Double].self)) == nil {
                        throw MarkupFileError.item(number, field: field, "point \(index + 1) must be [x, y] numbers")
                    }
                }
            }
            throw MarkupFileError.item(number, field: field, "must be \(expected)")
        }
        let fits = kind.takesCorners ? (kind.leastPoints...ShapeMarkup.mostCorners).contains(pairs.count)
            : kind == .note ? (1...2).contains(pairs.count) : pairs.count == 2
        guard fits else { throw MarkupFileError.item(number, field: field, "must be \(expected), got \(pairs.count)") }
        return try pairs.enumerated().map { index, pair in
            guard pair.count == 2, pair.allSatisfy(\.isFinite) else {
                throw MarkupFileError.item(number, field: field, "point \(index + 1) must be [x, y] numbers")
            }
            return Point(x: pair[0], y: pair[1])
        }
    }

    func optionalPoint(_ field: String, meaning: String) throws -> Point? {
        guard has(field) else { return nil }
        guard let pair = try? container.decode([Double].self, forKey: key(field)), pair.count == 2, pair.allSatisfy(\.isFinite) else {
            throw MarkupFileError.item(number, field: field, "must be \(meaning), [x, y]")
        }
        return Point(x: pair[0], y: pair[1])
    }

    func optionalBoolean(_ field: String) throws -> Bool? {
        guard has(field) else { return nil }
        guard let value = try? container.decode(Bool.self, forKey: key(field)) else {
            throw MarkupFileError.item(number, field: field, "must be true or false")
        }
        return value
    }

    /// `[[x, y, width, height], …]`, one to a thousand of them, sizes not negative.
    func rects(_ field: String) throws -> [Rect] {
        guard container.contains(key(field)) else { throw MarkupFileError.item(number, field: field, "is missing") }
        guard let arrays = try? container.decode([[Double]].self, forKey: key(field)), !arrays.isEmpty, arrays.count <= 1000 else {
            throw MarkupFileError.item(number, field: field, "must be 1 to 1000 rectangles [x, y, width, height]")
        }
        return try arrays.enumerated().map { index, values in
            guard values.count == 4, values.allSatisfy(\.isFinite), values[2] >= 0, values[3] >= 0 else {
                throw MarkupFileError.item(number, field: field, "rectangle \(index + 1) must be [x, y, width, height] numbers, sizes not negative")
            }
            return Rect(x: values[0], y: values[1], width: values[2], height: values[3])
        }
    }

    func color(_ field: String) throws -> MarkupColor? {
        guard container.contains(key(field)) else { return nil }
        let name = try string(field)
        guard let color = MarkupColor(name: name) else {
            throw MarkupFileError.item(number, field: field, "\"\(name)\" is not \(MarkupColor.names)")
        }
        return color
    }
}
