/// Where a page sits in PDF user space and how it is shown. Two spaces meet here:
/// - display space: points, origin at the top-left of the page as the user sees it
///   (after /Rotate, cropped to the crop box), y growing downwards;
/// - user space: the PDF's own coordinates, y up.
public struct PageGeometry: Sendable, Hashable, Codable {
    public var mediaBox: PDFBox
    /// The crop box as readers apply it: clipped to the media box, the media box when absent or disjoint.
    public var cropBox: PDFBox
    public var rotation: PageRotation

    public init(mediaBox: PDFBox, cropBox: PDFBox? = nil, rotation: PageRotation = .none) {
        self.mediaBox = mediaBox
        self.cropBox = cropBox.flatMap { $0.intersection(mediaBox) } ?? mediaBox
        self.rotation = rotation
    }

    public var displaySize: Size {
        rotation.swapsAxes
            ? Size(width: cropBox.height, height: cropBox.width)
            : Size(width: cropBox.width, height: cropBox.height)
    }

    /// Maps display coordinates with y up (origin bottom-left of the displayed page) onto user space:
    /// the `cm` that places a markup overlay drawn the way the user sees the page.
    public var overlayTransform: AffineTransform {
        let box = cropBox
        switch rotation {
        case .none: return AffineTransform(a: 1, b: 0, c: 0, d: 1, e: box.x1, f: box.y1)
        case .quarter: return AffineTransform(a: 0, b: 1, c: -1, d: 0, e: box.x2, f: box.y1)
        case .half: return AffineTransform(a: -1, b: 0, c: 0, d: -1, e: box.x2, f: box.y2)
        case .threeQuarters: return AffineTransform(a: 0, b: -1, c: 1, d: 0, e: box.x1, f: box.y2)
        }
    }

    /// The largest page side the PDF specification expects (ISO 32000-1 annex C), in units.
    public static let largestPageSide = 14_400.0

    /// How much a page's markup overlay is scaled down to be drawn: 1 for every page of a sensible size.
    /// Larger pages exist (a /MediaBox of 1e20); cairo cannot draw past about 8 million units and qpdf cannot
    /// read back the integer cairo writes for such a size, so their overlay is drawn smaller and scaled up by
    /// `overlayFormTransform`.
    public var overlayScale: Double {
        let side = max(displaySize.width, displaySize.height)
        return side > Self.largestPageSide ? Self.largestPageSide / side : 1
    }

    /// The `cm` for an overlay drawn at `overlayScale`: scaled back up, then placed like `overlayTransform`.
    public var overlayFormTransform: AffineTransform {
        let scale = overlayScale
        guard scale != 1 else { return overlayTransform }
        return AffineTransform(a: 1 / scale, b: 0, c: 0, d: 1 / scale, e: 0, f: 0).followed(by: overlayTransform)
    }

    /// Display space (y down) to user space.
    public var displayToUser: AffineTransform {
        let flip = AffineTransform(a: 1, b: 0, c: 0, d: -1, e: 0, f: displaySize.height)
        return flip.followed(by: overlayTransform)
    }

    public var userToDisplay: AffineTransform { displayToUser.inverted }

    public func userPoint(fromDisplay point: Point) -> Point { displayToUser.apply(to: point) }
    public func displayPoint(fromUser point: Point) -> Point { userToDisplay.apply(to: point) }

    /// A display-space rectangle as the user-space box that covers it.
    public func userBox(fromDisplay rect: Rect) -> PDFBox {
        let corners = [rect.origin, Point(x: rect.maxX, y: rect.minY),
                       Point(x: rect.minX, y: rect.maxY), Point(x: rect.maxX, y: rect.maxY)]
            .map(userPoint(fromDisplay:))
        let enclosing = Rect(enclosing: corners)!
        return PDFBox(x1: enclosing.minX, y1: enclosing.minY, x2: enclosing.maxX, y2: enclosing.maxY)
    }

    /// A user-space box (x1, y1, x2, y2 in any order) as the display-space rectangle that covers it.
    public func displayRect(fromUser box: [Double]) -> Rect? {
        guard box.count == 4 else { return nil }
        return Rect(enclosing: [Point(x: box[0], y: box[1]), Point(x: box[2], y: box[3]), Point(x: box[0], y: box[3]),
                                Point(x: box[2], y: box[1])].map(displayPoint(fromUser:)))
    }
}
