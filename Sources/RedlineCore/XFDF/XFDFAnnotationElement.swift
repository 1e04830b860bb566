/// One annotation as an XFDF element (ISO 19444-1) and back. XFDF speaks PDF user space; `Annotation` speaks the
/// displayed page: the page's geometry converts between them.
enum XFDFAnnotationElement {
    /// The markup annotation subtypes XFDF has an element for, by element name.
    static let subtypes: [String: AnnotationSubtype] = Dictionary(uniqueKeysWithValues:
        ["Text", "FreeText", "Line", "Square", "Circle", "Polygon", "PolyLine", "Highlight", "Underline", "Squiggly",
         "StrikeOut", "Stamp", "Caret", "Ink", "FileAttachment", "Sound", "Redact"].map { ($0.lowercased(), AnnotationSubtype(rawValue: $0)) })

    /// What an annotation element may hold; other tools' extras (appearances, rich text, popups) are read past.
    static let children: Set<String> = ["contents", "contents-richtext", "popup", "inklist", "vertices", "defaultappearance",
                                        "defaultstyle", "appearance", "apref", "data", "imagedata", "trn-custom-data"]

    static let flagNames: [(name: String, bit: Int)] = [
        ("invisible", 1), ("hidden", 2), ("print", 4), ("nozoom", 8), ("norotate", 16), ("noview", 32),
        ("readonly", 64), ("locked", 128), ("togglenoview", 256), ("lockedcontents", 512),
    ]

    static func name(of subtype: AnnotationSubtype) -> String? {
        let name = subtype.rawValue.lowercased()
        return subtypes[name] == nil ? nil : name
    }

    // MARK: Writing

    static func isStrokelessInk(_ annotation: Annotation) -> Bool {
        annotation.subtype == .ink && !annotation.drawing.inkList.contains(where: { !$0.isEmpty })
    }

    static func element(for annotation: Annotation, geometry: PageGeometry) -> XMLTreeElement? {
        guard let name = name(of: annotation.subtype) else { return nil }
        let drawing = annotation.drawing
        // An <ink> holds an <inklist> of at least one <gesture> (ISO 19444-1; PDFBox refuses it otherwise): an Ink
        // without strokes (no /InkList, which no viewer draws) has no XFDF form, as a link has none.
        if isStrokelessInk(annotation) { return nil }
        func user(_ point: Point) -> String {
            let mapped = geometry.userPoint(fromDisplay: point)
            return PDFNumber.format(mapped.x) + "," + PDFNumber.format(mapped.y)
        }
        let box = geometry.userBox(fromDisplay: annotation.rect, upright: annotation.staysUpright)
        var attributes: [(name: String, value: String)] = [
            ("page", String(annotation.pageIndex)),
            ("rect", [box.x1, box.y1, box.x2, box.y2].map(PDFNumber.format).joined(separator: ",")),
            ("name", annotation.id.rawValue),
        ]
        func add(_ name: String, _ value: String?) { if let value { attributes.append((name, value)) } }
        add("title", annotation.author)
        add("date", annotation.modified?.pdfString)
        add("creationdate", annotation.created?.pdfString)
        // A FreeText's colour is its text's, which XFDF keeps in defaultappearance: `color` is its background.
        add("color", (annotation.subtype == .freeText ? drawing.background : drawing.color)?.hex)
        add("interior-color", drawing.interiorColor?.hex)
        if annotation.flags != 0 { add("flags", flagNames.filter { annotation.flags & $0.bit != 0 }.map(\.name).joined(separator: ",")) }
        add("opacity", drawing.opacity.map(PDFNumber.format))
        add("width", drawing.lineWidth.map(PDFNumber.format))
        add("subject", drawing.subject)
        add("inreplyto", annotation.inReplyTo?.rawValue)
        if annotation.inReplyTo != nil { add("replyType", annotation.replyType == .group ? "group" : "reply") }
        add("statemodel", annotation.state?.model)
        add("state", annotation.state?.value)
        if !drawing.quads.isEmpty { add("coords", drawing.quads.flatMap { $0 }.map(user).joined(separator: ",")) }
        add("icon", drawing.icon)
        add("rotation", drawing.rotation.map(String.init))
        if annotation.subtype.rawValue == "Line", drawing.vertices.count == 2 {
            add("start", user(drawing.vertices[0]))
            add("end", user(drawing.vertices[1]))
        }
        if annotation.subtype == .freeText {
            add("head", drawing.lineEndings.first)
            if !drawing.callout.isEmpty { add("callout", drawing.callout.map(user).joined(separator: ",")) }
        } else if drawing.lineEndings.count == 2 {
            add("head", drawing.lineEndings[0])
            add("tail", drawing.lineEndings[1])
        }
        add("intent", drawing.intent)
        add("style", drawing.borderStyle.map(styleName))
        if case .cloudy(let intensity) = drawing.borderStyle { add("intensity", PDFNumber.format(intensity)) }
        if !drawing.dashes.isEmpty { add("dashes", drawing.dashes.map(PDFNumber.format).joined(separator: ",")) }
        if drawing.fringe.count == 4 {
            add("fringe", geometry.userFringe(fromDisplay: drawing.fringe, upright: annotation.staysUpright).map(PDFNumber.format).joined(separator: ","))
        }
        add("justification", drawing.justification.map { ["left", "centered", "right"][$0.rawValue] })
        var children: [XMLTreeElement.Child] = []
        if let contents = annotation.contents { children.append(.element(XMLTreeElement("contents", children: [.text(contents)]))) }
        // Rich text goes as the XHTML it is; text that does not read as XML (or has a DTD) has no XFDF form.
        if let rich = drawing.richText, let body = try? XMLReader.read(Array(rich.utf8)) {
            children.append(.element(XMLTreeElement("contents-richtext", children: [.element(body)])))
        }
        if let popup = drawing.popup {
            let box = geometry.userBox(fromDisplay: popup.rect)
            children.append(.element(XMLTreeElement("popup", attributes: [
                ("page", String(annotation.pageIndex)),
                ("rect", [box.x1, box.y1, box.x2, box.y2].map(PDFNumber.format).joined(separator: ",")),
                ("open", popup.isOpen ? "yes" : "no"),
            ])))
        }
        if !drawing.inkList.isEmpty {
            let gestures = drawing.inkList.filter { !$0.isEmpty }.map { stroke in
                XMLTreeElement.Child.element(XMLTreeElement("gesture", children: [.text(stroke.map(user).joined(separator: ";"))]))
            }
            children.append(.element(XMLTreeElement("inklist", children: gestures)))
        }
        if ["Polygon", "PolyLine"].contains(annotation.subtype.rawValue), !drawing.vertices.isEmpty {
            children.append(.element(XMLTreeElement("vertices", children: [.text(drawing.vertices.map(user).joined(separator: ";"))])))
        }
        if annotation.subtype == .freeText, let size = drawing.fontSize {
            let appearance = AnnotationDrawing.defaultAppearance(fontSize: size, color: drawing.color)
            children.append(.element(XMLTreeElement("defaultappearance", children: [.text(appearance)])))
        }
        if annotation.subtype == .freeText, let style = drawing.defaultStyle {
            children.append(.element(XMLTreeElement("defaultstyle", children: [.text(style)])))
        }
        return XMLTreeElement(name, attributes: attributes, children: children)
    }

    /// XFDF's `style` values (Acrobat's spelling), solid being the default and left out.
    static let styles: [(name: String, style: AnnotationDrawing.BorderStyle?)] = [
        ("solid", nil), ("dash", .dashed), ("bevelled", .beveled), ("inset", .inset), ("underline", .underline), ("cloudy", .cloudy(intensity: 0)),
    ]

    private static func styleName(_ style: AnnotationDrawing.BorderStyle) -> String {
        if case .cloudy = style { return "cloudy" }
        return styles.first { $0.style == style }!.name
    }

    // MARK: Reading

    static func annotation(from element: XMLTreeElement, pages: [PageGeometry], order: Int) throws -> Annotation {
        guard let subtype = subtypes[element.name] else { throw XFDFError(element, "unknown element <\(element.name)>") }
        for child in element.elements where !children.contains(child.name) {
            throw XFDFError(child, "unknown element <\(child.name)> in <\(element.name)>")
        }
        guard let pageText = element[attribute: "page"] else { throw XFDFError(element, "<\(element.name)> has no page") }
        guard let page = Int(pageText) else { throw XFDFError(element, "page=\"\(pageText)\" of <\(element.name)> is not a whole number") }
        guard pages.indices.contains(page) else {
            throw XFDFError(element, "page=\"\(page)\" of <\(element.name)> is out of range: the document has \(pages.count) page\(pages.count == 1 ? "" : "s"), counted from 0")
        }
        return try annotation(from: element, subtype: subtype, page: page, geometry: pages[page], order: order)
    }

    /// The annotation an element describes on a page of the given geometry (the collaboration server, which has no
    /// PDF, reads with a neutral one to check what it stores).
    static func annotation(from element: XMLTreeElement, subtype: AnnotationSubtype, page: Int, geometry: PageGeometry,
                           order: Int) throws -> Annotation {
        let numbers = { (attribute: String) throws -> [Double]? in try self.numbers(attribute, of: element) }
        guard let box = try numbers("rect") else { throw XFDFError(element, "<\(element.name)> has no rect") }
        guard box.count == 4 else { throw XFDFError(element, "rect of <\(element.name)> needs four numbers, not \(box.count)") }
        func display(_ values: [Double]) -> [Point] {
            stride(from: 0, to: values.count - 1, by: 2).map { geometry.displayPoint(fromUser: Point(x: values[$0], y: values[$0 + 1])) }
        }
        var drawing = AnnotationDrawing()
        if subtype == .freeText {
            drawing.background = try color("color", of: element)
        } else {
            drawing.color = try color("color", of: element)
        }
        drawing.interiorColor = try color("interior-color", of: element)
        drawing.opacity = try number("opacity", of: element)
        if let opacity = drawing.opacity, !(0...1).contains(opacity) {
            throw XFDFError(element, "opacity=\"\(PDFNumber.format(opacity))\" of <\(element.name)> is not between 0 and 1")
        }
        drawing.lineWidth = try number("width", of: element)
        if let width = drawing.lineWidth, !(0...1000).contains(width) {
            throw XFDFError(element, "width=\"\(PDFNumber.format(width))\" of <\(element.name)> is not between 0 and 1000")
        }
        drawing.subject = element[attribute: "subject"]
        drawing.icon = element[attribute: "icon"]
        drawing.rotation = try number("rotation", of: element).map { Int($0) }
        if let coords = try numbers("coords") {
            guard coords.count % 8 == 0 else { throw XFDFError(element, "coords of <\(element.name)> needs eight numbers a quad, not \(coords.count)") }
            let points = display(coords)
            drawing.quads = stride(from: 0, to: points.count, by: 4).map { Array(points[$0..<($0 + 4)]) }
        }
        let (start, end) = (try numbers("start"), try numbers("end"))
        if let start, let end {
            guard start.count == 2, end.count == 2 else { throw XFDFError(element, "start and end of <\(element.name)> are x,y") }
            drawing.vertices = display(start + end)
        } else if start != nil || end != nil {
            // One end alone would be dropped without a word: the line needs both.
            throw XFDFError(element, "<\(element.name)> has \(start == nil ? "end" : "start") without \(start == nil ? "start" : "end"): a line needs both")
        }
        if let list = element.first("inklist") {
            guard !list.elements.isEmpty else { throw XFDFError(list, "<inklist> holds no <gesture>") }
            drawing.inkList = try list.elements.map { gesture in
                guard gesture.name == "gesture" else { throw XFDFError(gesture, "unknown element <\(gesture.name)> in <inklist>") }
                let points = try pointList(gesture.text, in: gesture)
                guard !points.isEmpty else { throw XFDFError(gesture, "<gesture> holds no point") }
                return display(points)
            }
        }
        if let vertices = element.first("vertices") { drawing.vertices = display(try pointList(vertices.text, in: vertices)) }
        try readLook(of: element, into: &drawing)
        if subtype == .freeText {
            drawing.lineEndings = Array(drawing.lineEndings.prefix(element[attribute: "head"] == nil ? 0 : 1))
            if let callout = try numbers("callout") {
                guard [4, 6].contains(callout.count) else {
                    throw XFDFError(element, "callout of <\(element.name)> needs two or three points (4 or 6 numbers), not \(callout.count)")
                }
                drawing.callout = display(callout)
            }
        }
        if let popup = element.first("popup") { drawing.popup = try self.popup(popup, geometry: geometry) }
        if let rich = element.first("contents-richtext") {
            let body = rich.elements
            guard body.count == 1 else { throw XFDFError(rich, "<contents-richtext> holds \(body.count) elements, not one <body>") }
            drawing.richText = body[0].compact
        }
        if subtype == .freeText, let style = element.first("defaultstyle") {
            drawing.defaultStyle = style.text
        }
        if let appearance = element.first("defaultappearance") {
            let (size, color) = AnnotationDrawing.parse(defaultAppearance: appearance.text)
            if let size, size > 1000 {
                throw XFDFError(appearance, "the font size \(PDFNumber.format(size)) in <defaultappearance> of <\(element.name)> is not between 0 and 1000")
            }
            drawing.fontSize = size
            if subtype == .freeText, let color { drawing.color = color }
        }
        // As read from a PDF: the colour Acrobat draws the text in is the style's, before /DA's default.
        if subtype == .freeText, let style = drawing.defaultStyle, let color = AnnotationDrawing.color(inStyle: style) { drawing.color = color }
        var flags = 0
        if let names = element[attribute: "flags"], !names.isEmpty {
            for name in names.split(separator: ",").map({ trimmed($0).lowercased() }) {
                guard let bit = flagNames.first(where: { $0.name == name })?.bit else {
                    throw XFDFError(element, "flags of <\(element.name)> names an unknown flag \"\(name)\"")
                }
                flags |= bit
            }
        }
        let model = element[attribute: "statemodel"], value = element[attribute: "state"]
        var state: AnnotationState?
        if model != nil || value != nil {
            // ISO 32000 knows two models and their states; anything else would reach Acrobat as a state it cannot show.
            // Written as the standard spells them, whatever case the file used.
            let given = AnnotationState(model: model, value: value)
            state = given.flatMap { given in AnnotationState.all.first {
                $0.model.caseInsensitiveCompare(given.model) == .orderedSame && $0.value.caseInsensitiveCompare(given.value) == .orderedSame
            } }
            guard state != nil else {
                throw XFDFError(element, "state=\"\(value ?? "")\" statemodel=\"\(model ?? "")\" of <\(element.name)> is not a review state "
                                + "(Accepted, Rejected, Cancelled, Completed or None in the Review model; Marked or Unmarked in the Marked model)")
            }
            guard element[attribute: "inreplyto"] != nil else {
                throw XFDFError(element, "the review state of <\(element.name)> answers nothing: it needs inreplyto")
            }
        }
        let replyType: ReplyType? = try element[attribute: "replyType"].map {
            guard let type = ReplyType(rawValue: $0.lowercased() == "r" ? "reply" : $0.lowercased()) else {
                throw XFDFError(element, "replyType=\"\($0)\" of <\(element.name)> is neither reply nor group")
            }
            return type
        }
        let upright = Annotation.staysUpright(flags: flags, subtype: subtype)
        drawing.fringe = geometry.displayFringe(fromUser: drawing.fringe, upright: upright)
        return Annotation(id: AnnotationID(element[attribute: "name"] ?? ""), pageIndex: page, subtype: subtype,
                          rect: geometry.displayRect(fromUser: box, upright: upright)!,
                          author: element[attribute: "title"],
                          created: try date("creationdate", of: element), modified: try date("date", of: element),
                          contents: element.first("contents")?.text, inReplyTo: element[attribute: "inreplyto"].map { AnnotationID($0) },
                          replyType: replyType, state: state, flags: flags, order: order,
                          drawing: drawing)
    }

    /// Line endings, intent, border style, dashes, fringe and justification.
    private static func readLook(of element: XMLTreeElement, into drawing: inout AnnotationDrawing) throws {
        let head = element[attribute: "head"], tail = element[attribute: "tail"]
        if head != nil || tail != nil {
            drawing.lineEndings = try [("head", head), ("tail", tail)].map { attribute, value in
                let ending = value ?? "None"
                guard let known = AnnotationDrawing.lineEndingNames.first(where: { $0.caseInsensitiveCompare(ending) == .orderedSame }) else {
                    throw XFDFError(element, "\(attribute)=\"\(ending.prefix(40))\" of <\(element.name)> is not a line ending (\(AnnotationDrawing.lineEndingNames.sorted().joined(separator: ", ")))")
                }
                return known
            }
        }
        if let intent = element[attribute: "intent"] {
            guard AnnotationDrawing.isPlainName(intent) else {
                throw XFDFError(element, "intent=\"\(intent.prefix(40))\" of <\(element.name)> is not a name like FreeTextCallout")
            }
            drawing.intent = intent
        }
        if let style = element[attribute: "style"] {
            guard let known = styles.first(where: { $0.name.caseInsensitiveCompare(style) == .orderedSame }) else {
                throw XFDFError(element, "style=\"\(style.prefix(40))\" of <\(element.name)> is not a border style (\(styles.map(\.name).joined(separator: ", ")))")
            }
            drawing.borderStyle = known.style
            if case .cloudy = known.style {
                let intensity = try number("intensity", of: element) ?? 0
                guard (0...2).contains(intensity) else {
                    throw XFDFError(element, "intensity=\"\(PDFNumber.format(intensity))\" of <\(element.name)> is not between 0 and 2")
                }
                drawing.borderStyle = .cloudy(intensity: intensity)
            }
        }
        if let dashes = try numbers("dashes", of: element) {
            guard (1...16).contains(dashes.count), dashes.allSatisfy({ (0...1000).contains($0) }), dashes.contains(where: { $0 > 0 }) else {
                throw XFDFError(element, "dashes of <\(element.name)> needs one to sixteen lengths from 0 to 1000, not all 0, not \(dashes.map(PDFNumber.format).joined(separator: ",").prefix(60))")
            }
            drawing.dashes = dashes
        }
        if let fringe = try numbers("fringe", of: element) {
            guard fringe.count == 4, fringe.allSatisfy({ $0 >= 0 }) else {
                throw XFDFError(element, "fringe of <\(element.name)> needs four distances of 0 or more, not \(fringe.map(PDFNumber.format).joined(separator: ",").prefix(60))")
            }
            drawing.fringe = fringe
        }
        if let justification = element[attribute: "justification"] {
            guard let index = ["left", "centered", "right"].firstIndex(where: { $0.caseInsensitiveCompare(justification) == .orderedSame }) else {
                throw XFDFError(element, "justification=\"\(justification.prefix(40))\" of <\(element.name)> is not left, centered or right")
            }
            drawing.justification = AnnotationDrawing.Justification(rawValue: index)
        }
    }

    /// `<popup page="0" rect="…" open="yes"/>`: where the annotation's popup opens.
    private static func popup(_ element: XMLTreeElement, geometry: PageGeometry) throws -> AnnotationDrawing.Popup {
        guard let box = try numbers("rect", of: element) else { throw XFDFError(element, "<popup> has no rect") }
        guard box.count == 4, let rect = geometry.displayRect(fromUser: box) else {
            throw XFDFError(element, "rect of <popup> needs four numbers, not \(box.count)")
        }
        let open = element[attribute: "open"]?.lowercased() ?? "no"
        guard ["yes", "no", "true", "false"].contains(open) else { throw XFDFError(element, "open=\"\(open.prefix(40))\" of <popup> is not yes or no") }
        return AnnotationDrawing.Popup(rect: rect, isOpen: open == "yes" || open == "true")
    }

    /// A decimal number as XFDF writes them (digits, a sign, a point, an exponent), within what a PDF can hold:
    /// not hexadecimal, not `nan` or `inf`, which Swift's own reading would take.
    static func decimal<Text: StringProtocol>(_ text: Text) -> Double? {
        guard isDecimalSyntax(text), let value = Double(text) else { return nil }
        return PDFLimits.real(value)
    }

    /// Digits, signs, a point and an exponent only: what `Double` reads beyond that (nan, inf, hex) is no XFDF number.
    private static func isDecimalSyntax<Text: StringProtocol>(_ text: Text) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x30...0x39).contains($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E || $0 == 0x45 || $0 == 0x65 }
    }

    /// A value as a message quotes it: its first 40 characters, and "…" when there is more.
    static func shown(_ text: Substring) -> String { text.count > 40 ? text.prefix(40) + "…" : String(text) }

    /// Why `decimal` refused a value: a number too large for a PDF (whose limits readers keep to) is not "not a number".
    /// `held`: said of a value a list holds ("…, a number beyond …") rather than of an attribute ("is beyond …").
    static func whatIsWrong(_ text: Substring, held: Bool = false) -> String {
        guard isDecimalSyntax(text), let value = Double(text), value.isFinite else { return "not a number" }
        return (held ? "a number " : "") + "beyond what a PDF number holds (±\(PDFNumber.shown(PDFLimits.largestReal)))"
    }

    /// `text` without the white space around it (line ends too with `newlines`). Foundation's trimming goes through
    /// NSString: a third of reading 100,000 annotations' numbers.
    static func trimmed(_ text: Substring, newlines: Bool = false) -> Substring {
        // ASCII white space by its bytes first: asking each Character for its properties was a fifth of reading
        // 100,000 annotations' numbers. Other white space (a no-break space) is trimmed as Characters after.
        let bytes = text.utf8
        func isASCIISpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || (newlines && (byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C))
        }
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end, isASCIISpace(bytes[start]) { start = bytes.index(after: start) }
        while end > start, isASCIISpace(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        guard start < end else { return "" }
        if bytes[start] < 0x80, bytes[bytes.index(before: end)] < 0x80 { return text[start..<end] }
        return trimmedCharacters(text, newlines: newlines)
    }

    private static func trimmedCharacters(_ text: Substring, newlines: Bool) -> Substring {
        let isSpace: (Character) -> Bool = { $0.isWhitespace && (newlines || !$0.isNewline) }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return text[first...last]
    }

    private static func number(_ attribute: String, of element: XMLTreeElement) throws -> Double? {
        guard let text = element[attribute: attribute] else { return nil }
        guard let value = decimal(trimmed(text[...])) else {
            throw XFDFError(element, "\(attribute)=\"\(shown(text[...]))\" of <\(element.name)> is \(whatIsWrong(trimmed(text[...])))")
        }
        return value
    }

    private static func numbers(_ attribute: String, of element: XMLTreeElement) throws -> [Double]? {
        guard let text = element[attribute: attribute] else { return nil }
        return try text.split(separator: ",").map { part in
            guard let value = decimal(trimmed(part)) else {
                throw XFDFError(element, "\(attribute) of <\(element.name)> holds \"\(shown(part))\", \(whatIsWrong(trimmed(part), held: true))")
            }
            return value
        }
    }

    /// `x,y;x,y;…` (commas between the pairs are read too, as some writers use them).
    private static func pointList(_ text: String, in element: XMLTreeElement) throws -> [Double] {
        let parts = text.split(whereSeparator: { $0 == ";" || $0 == "," }).map { trimmed($0, newlines: true) }
            .filter { !$0.isEmpty }
        let values = try parts.map { part in
            guard let value = decimal(part) else {
                throw XFDFError(element, "<\(element.name)> holds \"\(shown(part))\", \(whatIsWrong(part, held: true))")
            }
            return value
        }
        guard values.count % 2 == 0 else { throw XFDFError(element, "<\(element.name)> holds an x without its y") }
        return values
    }

    private static func color(_ attribute: String, of element: XMLTreeElement) throws -> RGBColor? {
        guard let text = element[attribute: attribute], !text.isEmpty else { return nil }
        guard let color = RGBColor(hex: text.uppercased()) else {
            throw XFDFError(element, "\(attribute)=\"\(text.prefix(40))\" of <\(element.name)> is not a colour like #FF0000")
        }
        return color
    }

    /// `D:YYYYMMDDHHmmSS` (the prefix and anything after the year may be left out) and an offset (`Z`, `+HH'mm'`),
    /// with every field in its range. Files are read leniently (a month 00 happens); an exchange is written by a tool
    /// and must say a real date.
    static func isWellFormed(date text: String) -> Bool {
        let bytes = Array(text.utf8)
        func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
        func value(_ digits: ArraySlice<UInt8>) -> Int { digits.reduce(0) { $0 * 10 + Int($1 - 0x30) } }
        var at = bytes.starts(with: Array("D:".utf8)) ? 2 : 0
        var fields: [Int] = []
        for length in [4, 2, 2, 2, 2, 2] {
            guard at + length <= bytes.count, bytes[at..<(at + length)].allSatisfy(isDigit) else { break }
            fields.append(value(bytes[at..<(at + length)]))
            at += length
        }
        guard !fields.isEmpty else { return false }
        let ranges = [0...9999, 1...12, 1...31, 0...23, 0...59, 0...59]
        guard zip(fields, ranges).allSatisfy({ $1.contains($0) }) else { return false }
        let rest = bytes[at...]
        if rest.isEmpty || rest.elementsEqual([UInt8(ascii: "Z")]) || rest.elementsEqual([UInt8(ascii: "z")]) { return true }
        guard let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return false }
        let offset = ArraySlice(rest.dropFirst().filter { $0 != UInt8(ascii: "'") })
        guard [2, 4].contains(offset.count), offset.allSatisfy(isDigit) else { return false }
        return value(offset.prefix(2)) <= 23 && (offset.count == 2 || value(offset.dropFirst(2)) <= 59)
    }

    private static func date(_ attribute: String, of element: XMLTreeElement) throws -> PDFDate? {
        guard let text = element[attribute: attribute], !text.isEmpty else { return nil }
        guard isWellFormed(date: text), let date = PDFDate(pdf: text) else {
            throw XFDFError(element, "\(attribute)=\"\(text.prefix(40))\" of <\(element.name)> is not a PDF date like D:20261124093000+01'00'")
        }
        return date
    }
}

/// What is wrong in an XFDF file, with the line of the element it is about.
public struct XFDFError: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let message: String

    init(_ element: XMLTreeElement, _ message: String) {
        line = element.line
        self.message = message
    }

    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { "line \(line): \(message)" }
}
