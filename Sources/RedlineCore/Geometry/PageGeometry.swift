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
}
