import Foundation
import RedlineCore
import Testing

/// Shapes drawn in Redline: how they are drawn, the annotations they are saved as (drawn from their keys the same
/// way), and the markup file's items for them.
@Suite struct ShapeMarkupTests {
    static let page = PageGeometry(mediaBox: PDFBox(x1: 0, y1: 0, x2: 612, y2: 792), cropBox: PDFBox(x1: 0, y1: 0, x2: 612, y2: 792),
                                   rotation: .none)

    func item(_ shape: ShapeMarkup) -> MarkupItem { MarkupItem(id: MarkupID(UUID()), pageIndex: 0, content: .shape(shape)) }

    func annotation(_ shape: ShapeMarkup) -> Annotation {
        MarkupAnnotations.annotation(for: item(shape), author: "ann", at: PDFDate(Date(timeIntervalSince1970: 0), timeZone: .gmt),
                                     onPage: Size(width: 612, height: 792), measuredBy: FixedMeasurer())
    }

    static func near(_ a: AnnotationSketch?, _ b: AnnotationSketch?, within tolerance: Double = 1e-6) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        func corners(_ shape: AnnotationSketch.Shape) -> [Double] {
            switch shape {
            case .rectangle(let r), .ellipse(let r), .note(let r), .stamp(let r, _): [r.minX, r.minY, r.maxX, r.maxY]
            case .path(let strokes, _): strokes.joined().flatMap { [$0.x, $0.y] }
            }
        }
        let (x, y) = (corners(a.shape), corners(b.shape))
        return x.count == y.count && zip(x, y).allSatisfy { abs($0 - $1) <= tolerance } && a.stroke == b.stroke && a.fill == b.fill
            && abs(a.width - b.width) < 1e-6 && a.endings == b.endings
            && String(describing: a.shape).prefix(8) == String(describing: b.shape).prefix(8)
    }

    @Test func aBoxShapeFillsTheBoxItsCornersMakeWithItsLineInside() throws {
        let rectangle = ShapeMarkup(kind: .rectangle, points: [Point(x: 300, y: 200), Point(x: 100, y: 100)], width: 4, color: .blue)
        #expect(rectangle.sketch?.shape == .rectangle(Rect(x: 102, y: 102, width: 196, height: 96)))
        #expect(rectangle.bounds == Rect(x: 100, y: 100, width: 200, height: 100))
        #expect(rectangle.sketch?.fill == nil)
        let ellipse = ShapeMarkup(kind: .ellipse, points: [Point(x: 10, y: 10), Point(x: 50, y: 30)], width: 2, color: .red, filled: true)
        #expect(ellipse.sketch?.shape == .ellipse(Rect(x: 11, y: 11, width: 38, height: 18)))
        #expect(ellipse.sketch?.fill == MarkupColor.red.rgb)
        // A line as wide as half the box: the box filled.
        let thick = ShapeMarkup(kind: .rectangle, points: [Point(x: 0, y: 0), Point(x: 10, y: 10)], width: 6)
        #expect(thick.sketch?.shape == .rectangle(Rect(x: 0, y: 0, width: 10, height: 10)) && thick.sketch?.stroke == nil)
        // A box of no height encloses nothing.
        #expect(!ShapeMarkup(kind: .ellipse, points: [Point(x: 0, y: 5), Point(x: 10, y: 5)]).drawsSomething)
    }

    @Test func linesAndArrowsReachAsFarAsTheirEndsAndAnArrowHasItsHeadAtTheSecond() throws {
        let arrow = ShapeMarkup(kind: .arrow, points: [Point(x: 100, y: 100), Point(x: 200, y: 100)], width: 2)
        #expect(arrow.sketch?.endings == [nil, .openArrow])
        let head = AnnotationSketch.endingSize(width: 2)
        #expect(arrow.bounds.maxX >= 200 + 1 && arrow.bounds.minY <= 100 - head / 2)
        let line = ShapeMarkup(kind: .line, points: [Point(x: 100, y: 100), Point(x: 200, y: 150)], width: 2)
        #expect(line.sketch?.endings == [] && line.bounds == Rect(x: 99, y: 99, width: 102, height: 52))
        // A filled line is no such thing.
        #expect(!ShapeMarkup(kind: .line, points: line.points, filled: true).filled)
        #expect(!ShapeMarkup(kind: .polygon, points: [Point(x: 0, y: 0), Point(x: 5, y: 5)]).drawsSomething)
    }

    /// Every kind, at random places and sizes and at the page's edges: the annotation it is saved as is sketched
    /// (as every reader of its keys and Redline's own appearance draw it) exactly as the shape was on screen.
    @Test func theAnnotationEachShapeIsSavedAsIsDrawnAsTheShapeWas() throws {
        var generator = SystemRandomNumberGenerator()
        var shapes: [ShapeMarkup] = []
        for kind in ShapeMarkup.Kind.allCases {
            for round in 0..<50 {
                let count = kind.takesCorners ? Int.random(in: kind.leastPoints...8, using: &generator) : 2
                // Some at the very edge of the page, where the annotation's box is cut at the page.
                var points = (0..<count).map { index in
                    round < 5 && index == 0 ? Point(x: 0, y: 0)
                        : Point(x: Double.random(in: 0...612, using: &generator), y: Double.random(in: 0...792, using: &generator))
                }
                // A note's icon is a square of the sides readers draw, on the page (where the editor and a markup
                // file keep it).
                if kind == .note {
                    let side = Double.random(in: ShapeMarkup.noteSides, using: &generator)
                    points[1] = Point(x: points[0].x + side, y: points[0].y + side)
                }
                let shape = ShapeMarkup(kind: kind, points: points, width: [0.5, 1, 2, 4, 12].randomElement(using: &generator)!,
                                        color: [.red, .blue, .custom(RGBColor(red: 1, green: 2, blue: 3))].randomElement(using: &generator)!,
                                        filled: Bool.random(using: &generator))
                shapes.append(kind == .note ? shape.keptInside(Size(width: 612, height: 792)) : shape)
            }
        }
        #expect(Set(shapes.filter(\.drawsSomething).map(\.kind)) == Set(ShapeMarkup.Kind.allCases), "every kind tried")
        for shape in shapes where shape.drawsSomething {
            let saved = annotation(shape)
            #expect(saved.subtype == shape.kind.subtype)
            #expect(Self.near(AnnotationSketch(saved), shape.sketch), "\(shape)")
            let onPage = Rect(x: max(0, shape.bounds.minX), y: max(0, shape.bounds.minY),
                              width: min(612, shape.bounds.maxX) - max(0, shape.bounds.minX), height: min(792, shape.bounds.maxY) - max(0, shape.bounds.minY))
            #expect(saved.rect.insetBy(dx: -1e-9, dy: -1e-9).contains(onPage), "\(shape)")
            // And read back from its XFDF, as another program or a collaborator gets it.
            let xfdf = XFDF.document([saved], pages: [Self.page])
            let back = try #require(try XFDF.command(from: Array(xfdf.utf8), pages: [Self.page]).add.first)
            // XFDF holds four decimals, as the file does.
            #expect(Self.near(AnnotationSketch(back), shape.sketch, within: 2e-4), "\(shape) from \(xfdf)")
        }
    }

    @Test func theMarkupFileReadsAndWritesEveryKind() throws {
        let json = ##"""
            {"version": 1, "items": [
             {"page": 1, "kind": "rectangle", "points": [[72, 72], [272, 172]], "width": 3, "color": "red"},
             {"page": 1, "kind": "ellipse", "points": [[300, 72], [500, 172]], "color": "blue", "fill": true},
             {"page": 2, "kind": "line", "points": [[72, 250], [272, 300]]},
             {"page": 2, "kind": "arrow", "points": [[300, 250], [500, 300]], "color": "#00A000"},
             {"page": 2, "kind": "polygon", "points": [[72, 400], [200, 350], [272, 450]], "fill": false},
             {"page": 2, "kind": "polyline", "points": [[300, 400], [400, 350], [500, 450], [520, 380]], "width": 0.5},
             {"page": 2, "kind": "stamp", "points": [[300, 600], [450, 640]], "name": "Reviewed by Legal"},
             {"page": 2, "kind": "note", "points": [[500, 700]], "comment": "One corner: the usual icon"},
             {"page": 2, "kind": "note", "points": [[540, 700], [570, 730]], "color": "green"}
            ]}
            """##
        let layer = try MarkupFile.decode(Data(json.utf8))
        let shapes = layer.items.compactMap { item -> ShapeMarkup? in if case .shape(let shape) = item.content { shape } else { nil } }
        #expect(shapes.map(\.kind) == ShapeMarkup.Kind.allCases + [.note])
        #expect(shapes[0] == ShapeMarkup(kind: .rectangle, points: [Point(x: 72, y: 72), Point(x: 272, y: 172)], width: 3, color: .red))
        #expect(shapes[1].filled && shapes[1].width == 2 && shapes[1].color == .blue)
        #expect(shapes[2].color == .red && shapes[3].color == .custom(RGBColor(red: 0, green: 0xA0, blue: 0)))
        #expect(shapes[5].points.count == 4 && shapes[5].width == 0.5)
        #expect(shapes[6].stampName == "Reviewed_by_Legal" && shapes[6].stampWords == "REVIEWED BY LEGAL")
        #expect(shapes[7].box == Rect(x: 500, y: 700, width: 20, height: 20) && shapes[7].color == .yellow && layer.items[7].comment != nil)
        #expect(shapes[8].box == Rect(x: 540, y: 700, width: 30, height: 30) && shapes[8].color == .green && shapes[8].width == 1)
        #expect(shapes.enumerated().allSatisfy { ($0.element.stampName == nil) == ($0.offset != 6) })
        // What Redline writes it reads back.
        #expect(try MarkupFile.decode(MarkupFile.encode(layer)) == layer)
        try MarkupFile.validate(layer, pageSizes: [Size(width: 612, height: 792), Size(width: 612, height: 792)], measuredBy: FixedMeasurer())
    }

    @Test(arguments: [
        (#"{"page": 1, "kind": "rectangle", "points": [[1, 1]]}"#, #"item 1: field "points": must be two opposite corners [x, y], got 1"#),
        (#"{"page": 1, "kind": "arrow", "points": [[1, 1], [2, 2], [3, 3]]}"#, #"item 1: field "points": must be two ends [x, y], got 3"#),
        (#"{"page": 1, "kind": "polygon", "points": [[1, 1], [2, 2]]}"#, #"item 1: field "points": must be 3 to 10000 points [x, y], got 2"#),
        (#"{"page": 1, "kind": "polyline", "points": "1,1 2,2"}"#, #"item 1: field "points": must be 2 to 10000 points [x, y]"#),
        (#"{"page": 1, "kind": "line", "points": [[1, 1], [2, "2"]]}"#, #"item 1: field "points": point 2 must be [x, y] numbers"#),
        (#"{"page": 1, "kind": "line", "points": [[1, 1], [2]]}"#, #"item 1: field "points": point 2 must be [x, y] numbers"#),
        (#"{"page": 1, "kind": "polygon", "points": [[1, 1], [2, 2], [100, "x"], [4, 5]]}"#, #"item 1: field "points": point 3 must be [x, y] numbers"#),
        (#"{"page": 1, "kind": "arrow", "points": [[72, 72], [72, 72]]}"#, #"item 1: field "points": the arrow's points draw nothing: they are all one point"#),
        (#"{"page": 1, "kind": "polygon", "points": [[0, 0], [5, 5], [10, 10]]}"#, #"item 1: field "points": the polygon's points draw nothing: its corners lie on one line"#),
        (#"{"page": 1, "kind": "line", "points": [[1, 1], [2, 2]], "fill": true}"#,
         #"item 1: field "fill": a line has no inside to fill (a rectangle, an ellipse or a polygon has)"#),
        (#"{"page": 1, "kind": "ellipse", "points": [[1, 1], [2, 2]], "fill": "yes"}"#, #"item 1: field "fill": must be true or false"#),
        (#"{"page": 1, "kind": "rectangle", "points": [[1, 1], [200, 1]]}"#,
         #"item 1: field "points": the rectangle's corners enclose nothing: its box has no width or no height"#),
        (#"{"page": 1, "kind": "arrow", "points": [[1, 1], [2, 2]], "width": 0}"#, #"item 1: field "width": must be at least 0.01 and at most 200 points, got 0"#),
        (#"{"page": 1, "kind": "arrow", "points": [[1, 1], [2, 2]], "size": 3}"#,
         #"item 1: field "size": is not a field of an arrow item (known: id, page, kind, points, width, color, fill, comment)"#),
    ])
    func aMalformedShapeIsRefusedNamingItsField(item: String, message: String) throws {
        let json = #"{"version": 1, "items": ["# + item + "]}"
        #expect(throws: MarkupFileError(message)) { try MarkupFile.decode(Data(json.utf8)) }
    }

    @Test func aStampIsABoxHoldingItsWordsSavedAsAStampNamedForThem() throws {
        let approved = ShapeMarkup(kind: .stamp, points: [Point(x: 100, y: 100), Point(x: 250, y: 140)], stampName: "NotApproved")
        #expect(approved.sketch?.shape == .stamp(Rect(x: 100, y: 100, width: 150, height: 40), words: "NOT APPROVED"))
        let saved = annotation(approved)
        #expect(saved.subtype == .stamp && saved.drawing.icon == "NotApproved" && saved.rect == Rect(x: 100, y: 100, width: 150, height: 40))
        #expect(ShapeMarkup(kind: .stamp, points: approved.points).stampName == "Draft")
        #expect(ShapeMarkup.stampName(forWords: "  Seen by  QA ") == "Seen_by_QA")
        // Kept on the page when placed at its usual size near an edge.
        let nearEdge = ShapeMarkup(kind: .stamp, points: [Point(x: 550, y: 780), Point(x: 700, y: 820)]).keptInside(Size(width: 612, height: 792))
        #expect(nearEdge.box == Rect(x: 462, y: 752, width: 150, height: 40))
        #expect(throws: MarkupFileError(#"item 1: field "name": contains the control character U+001B"#)) {
            try MarkupFile.decode(Data(#"{"version": 1, "items": [{"page": 1, "kind": "stamp", "points": [[1, 1], [150, 40]], "name": "\u001b[2J"}]}"#.utf8))
        }
    }

    @Test func aCommentRidesOnInksMarksAndShapesButNotText() throws {
        let json = #"{"version": 1, "items": [{"page": 1, "kind": "arrow", "points": [[1, 1], [50, 50]], "comment": "Move this\nhere"}, {"page": 1, "kind": "ink", "strokes": [[[1, 1]]], "comment": ""}]}"#
        let layer = try MarkupFile.decode(Data(json.utf8))
        #expect(layer.items.map(\.comment) == ["Move this\nhere", nil])
        #expect(try MarkupFile.decode(MarkupFile.encode(layer)) == layer)
        #expect(throws: MarkupFileError(#"item 1: field "comment": is not a field of a text item (known: id, page, kind, x, y, text, size, color, callout)"#)) {
            try MarkupFile.decode(Data(#"{"version": 1, "items": [{"page": 1, "kind": "text", "x": 1, "y": 1, "text": "a", "comment": "b"}]}"#.utf8))
        }
        #expect(throws: MarkupFileError(#"item 1: field "comment": contains the control character U+001B"#)) {
            try MarkupFile.decode(Data(#"{"version": 1, "items": [{"page": 1, "kind": "line", "points": [[1, 1], [5, 5]], "comment": "\u001b[2J"}]}"#.utf8))
        }
    }

    @Test func aShapeOffThePageIsRefusedAndOneAtItsEdgeIsNot() throws {
        let off = try MarkupFile.decode(Data(#"{"version": 1, "items": [{"page": 1, "kind": "line", "points": [[1, 1], [700, 2]]}]}"#.utf8))
        #expect(throws: MarkupFileError(#"item 1: field "points": point [700, 2] is off the page (612 × 792)"#)) {
            try MarkupFile.validate(off, pageSizes: [Size(width: 612, height: 792)], measuredBy: FixedMeasurer())
        }
        let edge = try MarkupFile.decode(Data(#"{"version": 1, "items": [{"page": 1, "kind": "arrow", "points": [[0, 0], [612, 792]], "width": 12}]}"#.utf8))
        try MarkupFile.validate(edge, pageSizes: [Size(width: 612, height: 792)], measuredBy: FixedMeasurer())
    }

    /// 10,000 corners, the most a polygon takes, read and drawn in one pass each.
    @Test func aPolygonOfTheMostCornersIsReadAndSaved() throws {
        let corners = (0..<ShapeMarkup.mostCorners).map { index in
            let angle = Double(index) / Double(ShapeMarkup.mostCorners) * 2 * .pi
            return "[\(300 + 200 * cos(angle)), \(400 + 200 * sin(angle))]"
        }
        let json = #"{"version": 1, "items": [{"page": 1, "kind": "polygon", "fill": true, "points": ["# + corners.joined(separator: ",") + "]}]}"
        let layer = try MarkupFile.decode(Data(json.utf8))
        guard case .shape(let shape) = layer.items.first?.content else { Issue.record("not a shape"); return }
        #expect(shape.points.count == ShapeMarkup.mostCorners)
        #expect(annotation(shape).drawing.vertices.count == ShapeMarkup.mostCorners)
        let tooMany = #"{"version": 1, "items": [{"page": 1, "kind": "polyline", "points": ["# + (corners + ["[1, 1]"]).joined(separator: ",") + "]}]}"
        #expect(throws: MarkupFileError(#"item 1: field "points": must be 2 to 10000 points [x, y], got 10001"#)) {
            try MarkupFile.decode(Data(tooMany.utf8))
        }
    }
}
