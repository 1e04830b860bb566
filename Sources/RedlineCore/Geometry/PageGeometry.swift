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

    /// An upright annotation's box (the NoRotate flag, ISO 32000-1 §12.5.3, which readers also give every note on a
    /// turned page): it is not turned with the page but about its /Rect's upper-left corner, so on screen it starts
    /// where that corner is shown and has /Rect's width across and height down.
    public func displayRect(fromUser box: [Double], upright: Bool) -> Rect? {
        guard upright, rotation != .none, box.count == 4 else { return displayRect(fromUser: box) }
        let (x1, x2, y1, y2) = (min(box[0], box[2]), max(box[0], box[2]), min(box[1], box[3]), max(box[1], box[3]))
        let corner = displayPoint(fromUser: Point(x: x1, y: y2))
        return Rect(x: corner.x, y: corner.y, width: x2 - x1, height: y2 - y1)
    }

    /// /RD as the file holds it (what lies between /Rect and the inner box, left, top, right and bottom in user space)
    /// for a fringe as the user sees it (left, top, right, bottom on screen): the same on an upright page or for an
    /// upright annotation, its sides turned with the page otherwise.
    public func userFringe(fromDisplay fringe: [Double], upright: Bool) -> [Double] {
        guard fringe.count == 4, !upright, rotation != .none else { return fringe }
        let outer = userBox(fromDisplay: Rect(x: 0, y: 0, width: fringe[0] + fringe[2] + 1, height: fringe[1] + fringe[3] + 1))
        let inner = userBox(fromDisplay: Rect(x: fringe[0], y: fringe[1], width: 1, height: 1))
        return [inner.x1 - outer.x1, outer.y2 - inner.y2, outer.x2 - inner.x2, inner.y1 - outer.y1]
    }

    /// A file's /RD as the user sees it on screen: `userFringe(fromDisplay:upright:)` undone.
    public func displayFringe(fromUser fringe: [Double], upright: Bool) -> [Double] {
        guard fringe.count == 4, !upright, rotation != .none,
              let outer = displayRect(fromUser: [0, 0, fringe[0] + fringe[2] + 1, fringe[1] + fringe[3] + 1]),
              let inner = displayRect(fromUser: [fringe[0], fringe[3], fringe[0] + 1, fringe[3] + 1]) else { return fringe }
        return [inner.minX - outer.minX, inner.minY - outer.minY, outer.maxX - inner.maxX, outer.maxY - inner.maxY]
    }

    /// The /Rect an upright annotation shown in `rect` has: its upper-left corner where the rect starts on screen.
    public func userBox(fromDisplay rect: Rect, upright: Bool) -> PDFBox {
        guard upright, rotation != .none else { return userBox(fromDisplay: rect) }
        let corner = userPoint(fromDisplay: rect.origin)
        return PDFBox(x1: corner.x, y1: corner.y - rect.height, x2: corner.x + rect.width, y2: corner.y)
    }
}
