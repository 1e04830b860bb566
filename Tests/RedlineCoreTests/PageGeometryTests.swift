import PropertyBased
import RedlineCore
import Testing

@Suite struct PageGeometryTests {
    static let rotations = Gen.element(of: PageRotation.allCases).map { $0! }
    /// Boxes with any origin, negative and upside down included.
    static let boxes = zip(Gen.double(in: -1000...1000), Gen.double(in: -1000...1000),
                           Gen.double(in: 10...2000), Gen.double(in: 10...2000), Gen.bool)
        .map { (box: (Double, Double, Double, Double, Bool)) -> PDFBox in
            let (x, y, width, height, upsideDown) = box
            return upsideDown ? PDFBox(x1: x, y1: y + height, x2: x + width, y2: y)
                : PDFBox(x1: x, y1: y, x2: x + width, y2: y + height)
        }

    @Test func displayAndUserSpaceRoundTrip() async {
        await propertyCheck(input: Self.boxes, Self.rotations, Gen.double(in: 0...1), Gen.double(in: 0...1)) { box, rotation, u, v in
            let geometry = PageGeometry(mediaBox: box, rotation: rotation)
            let display = Point(x: u * geometry.displaySize.width, y: v * geometry.displaySize.height)
            let back = geometry.displayPoint(fromUser: geometry.userPoint(fromDisplay: display))
            #expect(abs(back.x - display.x) < 1e-6 && abs(back.y - display.y) < 1e-6)
            // Every displayed point lies inside the crop box in user space.
            let user = geometry.userPoint(fromDisplay: display)
            #expect(user.x >= box.x1 - 1e-6 && user.x <= box.x2 + 1e-6 && user.y >= box.y1 - 1e-6 && user.y <= box.y2 + 1e-6)
        }
    }

    /// The overlay is drawn upright in the displayed page with y up: its corners must land on the user-space
    /// corners each rotation shows there (worked out by hand from ISO 32000's clockwise /Rotate: a quarter
    /// turn brings the crop box's bottom-left corner to the top-left of the screen).
    @Test(arguments: [
        // rotation, the displayed bottom-left, top-left and top-right corners in user space
        (PageRotation.none, Point(x: 10, y: 20), Point(x: 10, y: 752), Point(x: 582, y: 752)),
        (.quarter, Point(x: 582, y: 20), Point(x: 10, y: 20), Point(x: 10, y: 752)),
        (.half, Point(x: 582, y: 752), Point(x: 582, y: 20), Point(x: 10, y: 20)),
        (.threeQuarters, Point(x: 10, y: 752), Point(x: 582, y: 752), Point(x: 582, y: 20)),
    ])
    func overlayCornersLandOnTheCornersShown(rotation: PageRotation, bottomLeft: Point, topLeft: Point, topRight: Point) {
        let geometry = PageGeometry(mediaBox: PDFBox(x1: 0, y1: 0, x2: 612, y2: 792),
                                    cropBox: PDFBox(x1: 10, y1: 20, x2: 582, y2: 752), rotation: rotation)
        let size = geometry.displaySize
        func lands(_ overlay: Point, on expected: Point) -> Bool {
            let user = geometry.overlayTransform.apply(to: overlay)
            return abs(user.x - expected.x) < 1e-9 && abs(user.y - expected.y) < 1e-9
        }
        #expect(lands(Point(x: 0, y: 0), on: bottomLeft))
        #expect(lands(Point(x: 0, y: size.height), on: topLeft))
        #expect(lands(Point(x: size.width, y: size.height), on: topRight))
    }

    /// The top-left corner the user sees is the user-space corner each rotation turns to the top-left.
    @Test(arguments: [
        (PageRotation.none, Point(x: 10, y: 752)),
        (.quarter, Point(x: 10, y: 20)),
        (.half, Point(x: 582, y: 20)),
        (.threeQuarters, Point(x: 582, y: 752)),
    ])
    func topLeftCornerForEachRotation(rotation: PageRotation, expected: Point) {
        let geometry = PageGeometry(mediaBox: PDFBox(x1: 0, y1: 0, x2: 612, y2: 792),
                                    cropBox: PDFBox(x1: 10, y1: 20, x2: 582, y2: 752), rotation: rotation)
        #expect(geometry.userPoint(fromDisplay: .zero) == expected)
    }

    @Test func quarterTurnsSwapTheDisplayedSize() {
        let box = PDFBox(x1: 0, y1: 0, x2: 612, y2: 792)
        #expect(PageGeometry(mediaBox: box, rotation: .quarter).displaySize == Size(width: 792, height: 612))
        #expect(PageGeometry(mediaBox: box, rotation: .half).displaySize == Size(width: 612, height: 792))
    }

    @Test(arguments: [(-90, PageRotation.threeQuarters), (450, .quarter), (990, .threeQuarters), (540, .half),
                      (0, .none), (45, .none), (-360, .none)])
    func rotationIsNormalised(degrees: Int, expected: PageRotation) {
        #expect(PageRotation(degrees: degrees) == expected)
    }

    @Test func cropBoxIsClippedToTheMediaBox() {
        let geometry = PageGeometry(mediaBox: PDFBox(x1: 0, y1: 0, x2: 612, y2: 792),
                                    cropBox: PDFBox(x1: -50, y1: 100, x2: 700, y2: 900))
        #expect(geometry.cropBox == PDFBox(x1: 0, y1: 100, x2: 612, y2: 792))
        let disjoint = PageGeometry(mediaBox: PDFBox(x1: 0, y1: 0, x2: 100, y2: 100),
                                    cropBox: PDFBox(x1: 200, y1: 200, x2: 300, y2: 300))
        #expect(disjoint.cropBox == disjoint.mediaBox)
    }

    @Test func invertedBoxesAreNormalised() {
        #expect(PDFBox(x1: 0, y1: 792, x2: 612, y2: 0) == PDFBox(x1: 0, y1: 0, x2: 612, y2: 792))
    }
}

@Suite struct PageViewportTests {
    @Test func cellAndPointRoundTrip() async {
        await propertyCheck(input: Gen.double(in: 0.2...6), Gen.int(in: -400...400), Gen.int(in: -400...400),
                            Gen.double(in: 0...612), Gen.double(in: 0...792)) { scale, originX, originY, x, y in
            let viewport = PageViewport(pageSize: Size(width: 612, height: 792), scale: scale, cellPixels: .standard,
                                        originPixel: (originX, originY), columns: 100, rows: 40)
            let point = Point(x: x, y: y)
            let cell = viewport.cell(for: point)
            let corner = viewport.point(forCellColumn: cell.column, row: cell.row)
            let span = viewport.pointsPerCell
            #expect(point.x >= corner.x - 1e-9 && point.x < corner.x + span.width + 1e-9)
            #expect(point.y >= corner.y - 1e-9 && point.y < corner.y + span.height + 1e-9)
        }
    }
}
