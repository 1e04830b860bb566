/// Redline's markup as editable annotations (`:wa`, `redline apply --annotations`): text becomes FreeText, ink
/// becomes Ink (the highlighter with its opacity), text marks become Highlight, Underline or StrikeOut over the
/// words' quads. The appearance is drawn by the same painter as the screen and a flattened save; this says what
/// the annotation's dictionary holds.
public enum MarkupAnnotations {
    /// Room around what the painter covers, so antialiased edges stay inside the appearance's box.
    public static let margin = 1.0

    /// `pageSize`: the page's, which the annotation's box does not pass (a stroke drawn along the edge reaches half
    /// its width and the margin past it; nothing shows there).
    public static func annotation(for item: MarkupItem, author: String, at date: PDFDate, onPage pageSize: Size? = nil,
                                  measuredBy measurer: some TextMeasuring) -> Annotation {
        var rect = rect(for: item, measuredBy: measurer)
        if let pageSize {
            let minX = max(rect.minX, 0), minY = max(rect.minY, 0)
            let maxX = min(rect.maxX, pageSize.width), maxY = min(rect.maxY, pageSize.height)
            if maxX > minX, maxY > minY { rect = Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) }
        }
        var subtype: AnnotationSubtype
        // The reviewer's comment on an ink, a mark or a shape; a text's words are set below.
        var contents = item.takesComment ? item.comment : nil
        var drawing = AnnotationDrawing()
        switch item.content {
        case .text(let text):
            subtype = .freeText
            contents = text.text
            drawing.color = text.color.rgb
            drawing.fontSize = text.fontSize
            drawing.lineWidth = 0
            drawing.defaultStyle = AnnotationDrawing.defaultStyle(fontSize: text.fontSize, color: text.color.rgb)
            if let line = text.calloutLine(measuredBy: measurer) {
                // A callout (ISO 32000-1 §12.5.6.6): its line in /CL from the spot to the box, an arrow at the spot,
                // and /RD saying where the words' box lies within /Rect, which holds the line too.
                drawing.intent = "FreeTextCallout"
                drawing.callout = line
                drawing.lineEndings = [AnnotationSketch.Ending.openArrow.rawValue]
                let box = text.textBox(measuredBy: measurer).insetBy(dx: -margin, dy: -margin)
                drawing.fringe = fringe(of: box, in: rect)
            }
        case .ink(let ink):
            subtype = .ink
            drawing.color = ink.color.rgb
            drawing.lineWidth = ink.width
            drawing.opacity = ink.opacity < 1 ? ink.opacity : nil
            drawing.inkList = ink.strokes.filter { !$0.isEmpty }
        case .textMarks(let marks):
            subtype = marks.kind.subtype
            if marks.kind == .highlight { drawing.opacity = TextMarks.highlightOpacity }
            drawing.color = marks.color.rgb
            drawing.quads = marks.rects.map { rect in
                [Point(x: rect.minX, y: rect.minY), Point(x: rect.maxX, y: rect.minY),
                 Point(x: rect.minX, y: rect.maxY), Point(x: rect.maxX, y: rect.maxY)]
            }
        case .shape(let shape):
            subtype = shape.kind.subtype
            drawing.color = shape.color.rgb
            drawing.lineWidth = shape.width
            drawing.interiorColor = shape.filled ? shape.color.rgb : nil
            switch shape.kind {
            case .rectangle, .ellipse:
                // /RD: where the box stands inside /Rect, which has room for antialiased edges.
                if let box = shape.box { drawing.fringe = fringe(of: box, in: rect) }
            case .line, .arrow, .polygon, .polyline:
                drawing.vertices = shape.points
                if shape.kind == .arrow { drawing.lineEndings = ["None", AnnotationSketch.Ending.openArrow.rawValue] }
            case .stamp:
                drawing.icon = shape.stampName
            case .note:
                // Its icon is the sheet with lines readers draw for the Note name; its outline is no border.
                drawing.icon = "Note"
                drawing.lineWidth = nil
            }
        }
        // A note stays upright on a turned page, as Acrobat writes notes and poppler shows every note (NoRotate: its
        // /Rect's upper-left corner is where its icon starts on screen); it zooms with the page like other markup.
        let isNote = if case .shape(let shape) = item.content, shape.kind == .note { true } else { false }
        return Annotation(id: item.annotationName, pageIndex: item.pageIndex, subtype: subtype,
                          rect: rect, author: author, created: date, modified: date, contents: contents,
                          flags: Annotation.printFlag | (isNote ? Annotation.noRotateFlag : 0), drawing: drawing)
    }

    /// /RD as the user sees it: how far `box` stands inside `rect` on each side (left, top, right, bottom).
    static func fringe(of box: Rect, in rect: Rect) -> [Double] {
        [box.minX - rect.minX, box.minY - rect.minY, rect.maxX - box.maxX, rect.maxY - box.maxY].map { max(0, $0) }
    }

    /// The /Rect an annotation made of `item` has: the item's bounds and a margin for antialiased edges.
    public static func rect(for item: MarkupItem, measuredBy measurer: some TextMeasuring) -> Rect {
        // A stamp's frame and words and a note's icon lie inside its box, which is its /Rect.
        if case .shape(let shape) = item.content, shape.kind == .stamp || shape.kind == .note, let box = shape.box { return box }
        return item.bounds(measuredBy: measurer).insetBy(dx: -margin, dy: -margin)
    }

    /// An annotation as the markup Redline would draw for it, where Redline draws its subtype: a FreeText as text
    /// at its box's corner, an Ink as its strokes, a Highlight, Underline or StrikeOut as its quads' boxes, a stamp
    /// of a name readers do not know as its words in a frame. Nil for what the painter does not draw (shapes, drawn
    /// from their keys by the sketch; notes and standard stamps, which readers draw from their keys).
    /// `drawingCallouts`: a FreeText callout too, its line as its /CL says (what an XFDF import draws: the file's
    /// own callout keeps its appearance, and one changed in the editor is left to readers, its /RD and /Rect as they
    /// were).
    public static func item(for annotation: Annotation, drawingCallouts: Bool = false) -> MarkupItem? {
        let drawing = annotation.drawing
        let color = MarkupColor(rgb: drawing.color ?? RGBColor(red: 0, green: 0, blue: 0))
        let content: MarkupContent
        switch annotation.subtype {
        case .freeText:
            // A filled box, centred or right-aligned lines, rich text or words on several lines are not what the painter
            // draws (one line, left, unfilled): readers draw such a box from its keys.
            guard drawing.background == nil, (drawing.justification ?? .left) == .left, drawing.richText == nil,
                  drawing.callout.isEmpty || drawingCallouts,
                  !(annotation.contents ?? "").contains(where: \.isNewline), (drawing.fontSize ?? 12) <= 1000 else { return nil }
            // A callout's words are in the box /RD leaves inside /Rect; its line is drawn as /CL and /LE have it.
            let words = drawing.callout.isEmpty ? annotation.rect : (AnnotationSketch.fringed(annotation.rect, by: drawing.fringe) ?? annotation.rect)
            var text = TextMarkup(origin: Point(x: words.minX + margin, y: words.minY + margin),
                                  text: annotation.contents ?? "", fontSize: drawing.fontSize ?? 12, color: color)
            if drawing.callout.count >= 2 {
                text.pointsAt = drawing.callout[0]
                text.fileCallout = TextMarkup.FileCallout(points: drawing.callout,
                                                          ending: drawing.lineEndings.first.flatMap(AnnotationSketch.Ending.init(rawValue:)))
            }
            content = .text(text)
        case .ink:
            let strokes = drawing.inkList.filter { !$0.isEmpty }
            guard !strokes.isEmpty else { return nil }
            content = .ink(InkMarkup(strokes: strokes, width: drawing.lineWidth ?? 1, color: color, opacity: drawing.opacity ?? 1))
        case .stamp:
            // A stamp readers know by name they draw as their own picture of it; one of the reviewer's own words
            // (poppler draws "Draft" for a name it does not know) is drawn as Redline draws it.
            let stamp = ShapeMarkup(kind: .stamp, points: [Point(x: annotation.rect.minX, y: annotation.rect.minY),
                                                            Point(x: annotation.rect.maxX, y: annotation.rect.maxY)],
                                    width: min(drawing.lineWidth ?? 2, 12), color: MarkupColor(rgb: drawing.color ?? AnnotationSketch.stampRed),
                                    stampName: drawing.icon ?? "Draft")
            guard !stamp.isStandardStamp, stamp.drawsSomething else { return nil }
            content = .shape(stamp)
        case .highlight, .underline, .strikeOut, .squiggly:
            let rects = drawing.quads.compactMap { Rect(enclosing: $0) }
            guard !rects.isEmpty else { return nil }
            guard let kind = TextMarks.Kind(subtype: annotation.subtype) else { return nil }
            content = .textMarks(TextMarks(kind: kind, rects: rects, color: color))
        default:
            return nil
        }
        return MarkupItem(id: MarkupID(StableUUID.derived(seed: 0, item: annotation.id.rawValue)), pageIndex: annotation.pageIndex, content: content)
    }

    /// What the painter draws again for an annotation of the file after `edits` (`annotation` as they leave it): a
    /// new look, or a text box's new words, where the painter draws the subtype. Nil when nothing it draws changed,
    /// or readers draw it (a note's new words are not on the page).
    public static func redrawnItem(of annotation: Annotation, after edits: AnnotationEdits) -> MarkupItem? {
        guard edits.restyled[annotation.id] != nil || (annotation.subtype == .freeText && edits.changedContents[annotation.id] != nil),
              let item = item(for: annotation), item.drawsSomething else { return nil }
        return item
    }

    /// Every item of the layer, page by page in the layer's order. Items that draw nothing (text emptied, ink
    /// without a point) are left out, as a flattened save leaves them out.
    public static func annotations(for layer: MarkupLayer, author: String, at date: PDFDate,
                                   measuredBy measurer: some TextMeasuring) -> [Annotation] {
        layer.pagesWithItems.flatMap { _, items in
            items.filter(\.drawsSomething).map { annotation(for: $0, author: author, at: date, measuredBy: measurer) }
        }
    }
}

extension MarkupItem {
    /// The name (/NM) the markup has as an annotation.
    public var annotationName: AnnotationID { AnnotationID(id.rawValue.uuidString) }

    /// False for text emptied, ink without a point and a shape without its corners: nothing to keep.
    public var drawsSomething: Bool {
        switch content {
        case .text(let text): !text.text.isEmpty
        case .ink(let ink): ink.strokes.contains { !$0.isEmpty }
        case .textMarks(let marks): !marks.rects.isEmpty
        case .shape(let shape): shape.drawsSomething
        }
    }
}

extension MarkupAnnotations {
    /// Lines of `text` wrapped word by word at `width`, each paragraph on lines of its own, in Redline's font (wider than
    /// Helvetica, which readers draw text boxes in: the count errs on the side of room).
    public static func wrappedLines(of text: String, fontSize: Double, width: Double, measuredBy measurer: any TextMeasuring) -> Int {
        guard width > 0 else { return 1 }
        var lines = 0
        for paragraph in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lines += 1
            var line = ""
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                let candidate = line.isEmpty ? String(word) : line + " " + word
                if line.isEmpty || measurer.metrics(of: candidate, fontSize: fontSize).width <= width {
                    line = candidate
                } else {
                    lines += 1
                    line = String(word)
                }
            }
        }
        return max(1, lines)
    }

    /// A text box readers draw (filled, centred, a callout, several lines), its box grown down to hold every line of
    /// its words: readers cut what does not fit, and Acrobat's callouts came back showing their first words only.
    /// Grown within the page (moved up when the page's foot stops it); never shrunk.
    public static func grownToHoldItsWords(_ annotation: Annotation, pageSize: Size, measuredBy measurer: any TextMeasuring) -> Annotation {
        guard annotation.subtype == .freeText, item(for: annotation) == nil, let text = annotation.contents, !text.isEmpty else {
            return annotation
        }
        let size = annotation.drawing.fontSize ?? 12
        let fringe = annotation.drawing.fringe.count == 4 ? annotation.drawing.fringe : [0, 0, 0, 0]
        let border = (annotation.drawing.lineWidth ?? 1) + 2
        let width = annotation.rect.width - fringe[0] - fringe[2] - 2 * border
        let lines = wrappedLines(of: text, fontSize: size, width: width, measuredBy: measurer)
        let needed = Double(lines) * size * 1.2 + fringe[1] + fringe[3] + 2 * border
        guard needed > annotation.rect.height + 0.5 else { return annotation }
        var grown = annotation
        let height = min(needed, pageSize.height)
        grown.rect = Rect(x: annotation.rect.minX, y: min(annotation.rect.minY, max(0, pageSize.height - height)),
                          width: annotation.rect.width, height: height)
        return grown
    }
}

extension TextMarks.Kind {
    /// The annotation each kind is saved as, and read back from.
    public var subtype: AnnotationSubtype {
        switch self {
        case .highlight: .highlight
        case .underline: .underline
        case .strikeOut: .strikeOut
        case .squiggly: .squiggly
        }
    }

    public init?(subtype: AnnotationSubtype) {
        guard let kind = Self.allCases.first(where: { $0.subtype == subtype }) else { return nil }
        self = kind
    }
}
