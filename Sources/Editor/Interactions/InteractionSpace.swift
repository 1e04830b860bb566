import RedlineCore

/// The coordinate spaces a point of an interaction can be expressed in.
public enum CoordinateSpaceKind: String, Sendable, CaseIterable, Hashable, Codable {
    /// Terminal cells: x is the column and y the row on the screen, from 0 at the top left; a cell's middle is
    /// its column + 0.5. A click is reported here.
    case cells
    /// Display points of the page: origin at the top left of the page as shown (rotated, cropped), y down. The
    /// markup file and `redline search` use this space; a key acts at the cursor, given here.
    case display
    /// PDF user space of the page: the file's own coordinates, y up, before the page's /Rotate.
    case pdf
}

/// The space a point is given in, able to convert it to the others: the page's geometry and how the page area
/// shows it at the moment of the interaction.
public struct InteractionSpace: Sendable {
    public let kind: CoordinateSpaceKind
    public let pageIndex: Int
    let geometry: PageGeometry
    let viewport: PageViewport
    /// The screen cell where the page area starts.
    let areaOrigin: (column: Int, row: Int)

    init(kind: CoordinateSpaceKind, pageIndex: Int, geometry: PageGeometry, viewport: PageViewport, areaOrigin: (column: Int, row: Int)) {
        self.kind = kind
        self.pageIndex = pageIndex
        self.geometry = geometry
        self.viewport = viewport
        self.areaOrigin = areaOrigin
    }

    /// The same space, as another kind.
    public func `as`(_ kind: CoordinateSpaceKind) -> InteractionSpace {
        InteractionSpace(kind: kind, pageIndex: pageIndex, geometry: geometry, viewport: viewport, areaOrigin: areaOrigin)
    }

    /// A point of this space, in another.
    public func convert(_ point: Point, to target: CoordinateSpaceKind) -> Point {
        Self.convert(point, from: kind, to: target, geometry: geometry, viewport: viewport, areaOrigin: areaOrigin)
    }

    /// A point of another space, in this one (`pdfSpace.convert(point, from: space)`, as the seed writes it).
    public func convert(_ point: Point, from space: InteractionSpace) -> Point {
        space.convert(point, to: kind)
    }

    static func convert(_ point: Point, from source: CoordinateSpaceKind, to target: CoordinateSpaceKind,
                        geometry: PageGeometry, viewport: PageViewport, areaOrigin: (column: Int, row: Int)) -> Point {
        guard source != target else { return point }
        let display: Point
        switch source {
        case .display: display = point
        case .pdf: display = geometry.displayPoint(fromUser: point)
        case .cells:
            display = viewport.point(forCellPlace: Point(x: point.x - Double(areaOrigin.column), y: point.y - Double(areaOrigin.row)))
        }
        switch target {
        case .display: return display
        case .pdf: return geometry.userPoint(fromDisplay: display)
        case .cells:
            let place = viewport.cellPlace(for: display)
            return Point(x: place.x + Double(areaOrigin.column), y: place.y + Double(areaOrigin.row))
        }
    }
}

/// Where an interaction happens: a point and the space it is given in.
public struct InteractionLocation: Sendable, Hashable, Codable {
    public var point: Point
    public var space: CoordinateSpaceKind

    public init(_ point: Point, in space: CoordinateSpaceKind) {
        self.point = point
        self.space = space
    }
}
