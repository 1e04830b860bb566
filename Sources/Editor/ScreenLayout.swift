import RedlineCore
import TerminalGrid

/// Where things go on screen: the page area on top, then the status line and the message line.
public struct ScreenLayout: Sendable, Hashable {
    public var pageArea: CellRect
    public var statusRow: Int
    public var messageRow: Int

    public init(columns: Int, rows: Int) {
        pageArea = CellRect(column: 0, row: 0, width: columns, height: max(1, rows - 2))
        statusRow = max(0, rows - 2)
        messageRow = max(0, rows - 1)
    }
}

extension EditorState {
    public var layout: ScreenLayout { ScreenLayout(columns: columns, rows: rows) }

    /// The scale that fits the whole current page into the page area.
    func fitScale(cellPixels: CellPixelSize) -> Double {
        let area = layout.pageArea
        let size = pageSize
        guard size.width > 0, size.height > 0 else { return 1 }
        return min(Double(area.width * cellPixels.width) / size.width,
                   Double(area.height * cellPixels.height) / size.height)
    }

    /// The mapping between the current page and the page area, at the current zoom and scroll.
    public func viewport(cellPixels: CellPixelSize) -> PageViewport {
        let area = layout.pageArea
        let scale = fitScale(cellPixels: cellPixels) * zoom
        var viewport = PageViewport(pageSize: pageSize, scale: scale, cellPixels: cellPixels, originPixel: (0, 0),
                                    columns: area.width, rows: area.height)
        let areaWidth = area.width * cellPixels.width
        let areaHeight = area.height * cellPixels.height
        func origin(raster: Int, area: Int, scrolledTo point: Double) -> Int {
            guard raster > area else { return -((area - raster) / 2) }
            return min(max(0, Int((point * scale).rounded())), raster - area)
        }
        viewport.originPixel = (origin(raster: viewport.rasterWidth, area: areaWidth, scrolledTo: scroll.x),
                                origin(raster: viewport.rasterHeight, area: areaHeight, scrolledTo: scroll.y))
        return viewport
    }
}
